import ComicsKit

/// `comics show REF`: one item in full, and its picture when wanted.
enum ShowCommand {
    static func run(_ context: CommandContext) throws {
        let reference = try context.itemReference(try context.positional("REF"))
        let picture = PictureOutput(context: context)
        let format = try picture.format()
        let wantsPicture = try picture.isWanted()
        let catalog = try context.catalog()
        let item = try catalog.show(reference)
        if context.format == .table {
            try context.write(TableRenderer(terminal: context.terminal, catalog: catalog).detail(item))
        } else {
            let columns = Records.columns(for: [try catalog.source(item.ref.source)])
            try context.write(Records.render([Records.item(item, stale: catalog.isStale(item))], as: context.format, columns: columns, single: true))
        }
        if wantsPicture {
            try picture.draw(item, format: format)
        }
    }
}
