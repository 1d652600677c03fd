import ComicsKit

/// `comics search TERMS`: full-text search over everything cached.
enum SearchCommand {
    static let defaultLimit = 20

    static func run(_ context: CommandContext) throws {
        let terms = context.arguments.positionals.joined(separator: " ")
        let catalog = try context.catalog()
        let limit = context.query.limit ?? defaultLimit
        let found = try catalog.search(terms, source: context.explicitSource, remote: context.arguments.has("remote"), limit: limit)
        let results = found.results
        if results.isEmpty && context.format == .table {
            context.note("nothing cached matches \(terms)")
        } else if found.total > results.count {
            context.note("\(results.count) of \(found.total) shown; -n for more")
        }
        guard context.format == .table else {
            let sources = try (context.explicitSource.map { [$0] } ?? SourceName.allCases).sorted().map(catalog.source)
            let records = results.map { result -> JSONValue in
                guard case let .object(members) = Records.item(result.item, stale: catalog.isStale(result.item)) else {
                    return .null
                }
                return .object(members + [("snippet", .string(SearchMatch.unmarked(result.snippet)))])
            }
            return try context.write(Records.render(records, as: context.format, columns: Records.columns(for: sources) + ["snippet"]))
        }
        let highlighted = Dictionary(uniqueKeysWithValues: results.map { ($0.item.ref, $0.highlightedTitle) })
        let snippets = Dictionary(uniqueKeysWithValues: results.map { ($0.item.ref, $0.snippet) })
        try context.write(TableRenderer(terminal: context.terminal, catalog: catalog)
            .list(results.map(\.item), showSource: context.explicitSource == nil, highlightedTitles: highlighted, snippets: snippets))
    }
}
