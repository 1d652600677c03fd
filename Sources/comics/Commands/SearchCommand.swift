import ComicsKit

/// `comics search TERMS`: full-text search over everything cached.
enum SearchCommand {
    static let defaultLimit = 20
    /// More than the catalogue's books and the archive's comics together.
    static let maximumLimit = 1_000_000

    static func run(_ context: CommandContext) throws {
        let terms = context.arguments.positionals.joined(separator: " ")
        let catalog = try context.catalog()
        let limit = context.query.limit ?? defaultLimit
        if let book = context.arguments.value("in") {
            if context.arguments.has("texts") || context.arguments.has("remote") {
                throw ComicsError.usage("--in searches one book's text; it goes with neither --texts nor --remote", hint: "use one of them")
            }
            return try searchTexts(terms, in: try context.bookReference(book), limit: limit, context: context, catalog: catalog)
        }
        if context.arguments.has("texts") {
            if context.arguments.has("remote") {
                throw ComicsError.usage("--texts searches the downloaded texts; --remote asks Gutendex's catalogue", hint: "use one of them")
            }
            return try searchTexts(terms, in: nil, limit: limit, context: context, catalog: catalog)
        }
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

    /// Hits inside texts: the book, the section (number and title), how
    /// far in, and the words around the match, highlighted on a terminal.
    private static func searchTexts(_ terms: String, in ref: ItemRef?, limit: Int, context: CommandContext, catalog: Catalog) throws {
        let (results, total) = try catalog.searchTexts(terms, in: ref, limit: limit)
        if results.isEmpty && context.format == .table {
            context.note(ref.map { "nothing in the text of \($0) matches \(terms)" } ?? "no downloaded text matches \(terms) ('comics get REF' downloads one)")
        } else if total > results.count {
            context.note("\(results.count) of \(total) shown; -n for more")
        }
        guard context.format == .table else {
            let records: [JSONValue] = results.map { result in
                .object(Records.identity(result.hit.ref) + [
                    ("title", result.bookTitle.map(JSONValue.string) ?? .null),
                    ("section", result.section.map { .int($0.number) } ?? .null),
                    ("section_title", result.section.map { .string(TerminalText.sanitize($0.section.title, singleLine: true)) } ?? .null),
                    ("percent", .int(Int(result.hit.percent))), ("block", .int(result.hit.block)),
                    ("snippet", .string(TerminalText.sanitize(SearchMatch.unmarked(result.hit.snippet), singleLine: true))),
                ])
            }
            return try context.write(Records.render(
                records, as: context.format, columns: ["source", "id", "ref", "title", "section", "section_title", "percent", "block", "snippet"]))
        }
        let terminal = context.terminal
        let width = terminal.width ?? 80
        var output = ""
        for result in results {
            var place = result.hit.ref.description
            if ref == nil, let title = result.bookTitle { place += " " + TerminalText.sanitize(title, singleLine: true) }
            if let section = result.section {
                place += ref == nil ? " —" : ""
                place += " §\(section.number) " + TerminalText.sanitize(section.section.title, singleLine: true)
            }
            let at = "  \(Int(result.hit.percent))%  ¶\(result.hit.block)"
            output += DisplayWidth.truncate(place, to: max(10, width - DisplayWidth.of(at))) + at + "\n"
            let snippet = TerminalText.sanitize(result.hit.snippet, singleLine: true)
            for line in DisplayWidth.wrap(snippet, width: max(10, width - 4)) {
                output += "    " + terminal.highlight(line) + "\n"
            }
        }
        try context.write(output)
        if terminal.isTerminal, let first = results.first {
            context.note("the first in the reader: comics read \(first.hit.ref) --at \(first.hit.block) --search \(ShellWord.quoted(terms))")
        }
    }
}
