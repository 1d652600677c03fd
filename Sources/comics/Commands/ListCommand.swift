import ComicsKit

/// `comics list` and `comics more`: a page of the current source.
enum ListCommand {
    enum Page { case newest, next }

    static func run(_ context: CommandContext, page: Page) throws {
        try context.requireNoPositionals()
        let catalog = try context.catalog()
        let query = try context.query(for: catalog.source(context.source))
        let items = switch page {
        case .newest: try catalog.list(context.source, query: query)
        case .next: try catalog.more(context.source, query: query)
        }
        if items.isEmpty && context.format == .table {
            context.note("nothing matches this query")
        }
        try context.write(ItemsOutput.render(items, spanning: [context.source], context: context))
    }
}

/// Renders items in the chosen format; shared by every command that
/// prints items. `sources` are those the listing could hold, so exports
/// have the same columns however many items of each it holds.
enum ItemsOutput {
    static func render(_ items: [CachedItem], spanning sources: [SourceName], context: CommandContext) throws -> String {
        let catalog = try context.catalog()
        guard context.format == .table else {
            let columns = Records.columns(for: try sources.sorted().map(catalog.source))
            return Records.render(items.map { Records.item($0, stale: catalog.isStale($0)) }, as: context.format, columns: columns)
        }
        return TableRenderer(terminal: context.terminal, catalog: catalog).list(items, showSource: sources.count > 1)
    }
}
