import ComicsKit

/// `comics show REF`: one item in full.
enum ShowCommand {
    static func run(_ context: CommandContext) throws {
        let reference = try ItemReference.parse(try context.positional("REF"), defaultSource: context.source)
        let item = try context.catalog().show(reference)
        if context.format == .table {
            try context.write(TableRenderer(terminal: context.terminal).detail(item))
        } else {
            try context.write(Records.render([Records.item(item)], as: context.format, single: true))
        }
    }
}
