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
        let ref = item.ref
        let isBook = ref.source == .books
        let textInfo = isBook ? try catalog.textInfo(ref) : nil
        let position = isBook ? try catalog.readingPositions([ref])[ref] : nil
        if context.format == .table {
            var extra: [(String, String)] = []
            if isBook { extra = try TextRecords.fields(ref, info: textInfo, position: position, catalog: catalog) }
            try context.write(TableRenderer(terminal: context.terminal, catalog: catalog).detail(item, extra: extra))
        } else {
            let columns = Records.columns(for: [try catalog.source(ref.source)])
            var record = Records.item(item, stale: catalog.isStale(item))
            if isBook { record = TextRecords.adding(textInfo, position, to: record) }
            try context.write(Records.render([record], as: context.format, columns: columns, single: true))
        }
        if wantsPicture {
            try picture.draw(item, format: format)
        }
    }
}
