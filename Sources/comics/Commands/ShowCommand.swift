import ComicsKit

/// `comics show REF`: one item in full.
enum ShowCommand {
    static func run(_ context: CommandContext) throws {
        let reference = try ItemReference.parse(try context.positional("REF"), defaultSource: context.source)
        let catalog = try context.catalog()
        let item = try catalog.show(reference)
        if context.format == .table {
            try context.write(TableRenderer(terminal: context.terminal, catalog: catalog).detail(item))
        } else {
            let columns = Records.columns(for: [try catalog.source(item.ref.source)])
            try context.write(Records.render([Records.item(item)], as: context.format, columns: columns, single: true))
        }
    }
}
