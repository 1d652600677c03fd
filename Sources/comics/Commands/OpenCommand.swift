import ComicsKit

/// `comics open REF`: the item's page in a browser, as browse's `o` does.
/// The address is made from the reference, never read from the database:
/// a file someone else could have written must not choose what is launched.
enum OpenCommand {
    static func run(_ context: CommandContext) throws {
        let reference = try context.itemReference(try context.positional("REF"))
        let catalog = try context.catalog()
        let ref = if case let .item(ref) = reference { ref } else { try catalog.show(reference).ref }
        let url = try catalog.source(ref.source).pageURL(of: ref.id)
        guard let opener = BrowserOpener(environment: context.environment) else {
            throw ComicsError.unexpected("no browser found to open \(url): set $BROWSER, or install xdg-utils")
        }
        guard opener.open(url, environment: context.environment).started else {
            throw ComicsError.unexpected("could not start \(opener.command) for \(url)")
        }
        context.info("opened \(url) with \(opener.command)")
    }
}
