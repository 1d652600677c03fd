import ComicsKit

/// `comics search TERMS`: full-text search over everything cached.
enum SearchCommand {
    static let defaultLimit = 20

    static func run(_ context: CommandContext) throws {
        let terms = context.arguments.positionals.joined(separator: " ")
        let catalog = try context.catalog()
        let results = try catalog.search(
            terms, source: context.explicitSource, remote: context.arguments.has("remote"),
            limit: context.query.limit ?? defaultLimit)
        let items = results.map(\.item)
        if items.isEmpty && context.format == .table {
            context.note("nothing cached matches \(terms)")
        }
        guard context.format == .table else {
            let sources = context.explicitSource.map { [$0] } ?? SourceName.allCases
            return try context.write(ItemsOutput.render(items, spanning: sources, context: context))
        }
        let highlighted = Dictionary(uniqueKeysWithValues: results.map { ($0.item.ref, $0.highlightedTitle) })
        try context.write(TableRenderer(terminal: context.terminal, catalog: catalog)
            .list(items, showSource: context.explicitSource == nil, highlightedTitles: highlighted))
    }
}
