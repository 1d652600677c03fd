import ComicsKit

/// `comics open REF`: the item's page in a browser, as browse's `o` does.
enum OpenCommand {
    static func run(_ context: CommandContext) throws {
        let reference = try context.itemReference(try context.positional("REF"))
        let item = try context.catalog().show(reference)
        guard let opener = BrowserOpener(environment: context.environment) else {
            throw ComicsError.unexpected("no browser found to open \(item.item.url): set $BROWSER, or install xdg-utils")
        }
        guard opener.open(item.item.url, environment: context.environment) else {
            throw ComicsError.unexpected("could not start \(opener.command) for \(item.item.url)")
        }
        context.info("opened \(item.item.url) with \(opener.command)")
    }
}
