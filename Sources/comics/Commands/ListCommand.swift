import ComicsKit

/// `comics list` and `comics more`: a page of the current source.
enum ListCommand {
    enum Page { case newest, next }

    static func run(_ context: CommandContext, page: Page) throws {
        try context.requireNoPositionals()
        let catalog = try context.catalog()
        var sourceName = context.source
        var query = try context.query(for: catalog.source(sourceName))
        // `more` with no source and no query goes on with the last listing.
        if page == .next, context.explicitSource == nil, !query.hasFilters, let last = try catalog.lastListing() {
            sourceName = last.source
            query = query.limit.map { last.query.withLimit($0) } ?? last.query
        }
        let source = try catalog.source(sourceName)
        // Books: the server decides a page's size; -n shows that many of
        // it, and `more` goes on from the last shown.
        let showing = source.acceptsPageSize ? nil : context.query.limit
        if !source.acceptsPageSize { query = query.filtersOnly }
        let items = switch page {
        case .newest: try catalog.list(sourceName, query: query, showing: showing)
        case .next: try catalog.more(sourceName, query: query, showing: showing)
        }
        if items.isEmpty && context.format == .table {
            context.note("nothing matches this query")
        }
        if let showing, showing > items.count, items.count == GutendexSource.pageSize {
            context.note("a books page is the \(GutendexSource.pageSize) books Gutendex sends; 'comics -s books more' shows the next")
        }
        try context.write(ItemsOutput.render(items, spanning: [sourceName], context: context))
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
