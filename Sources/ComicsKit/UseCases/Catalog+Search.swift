/// A found item with its title's matched words marked, and a snippet of
/// the text around the match.
public struct SearchResult: Sendable {
    public let item: CachedItem
    public let highlightedTitle: String
    public let snippet: String
}

/// What a search found: the best matches, and how many there are in all.
public struct SearchResults: Sendable {
    public let results: [SearchResult]
    public let total: Int
}

extension Catalog {
    /// The most words and bytes a search may hold: a person's query is a
    /// few words, and each word costs FTS5 and the ranking work for every
    /// row it matches (2,000 words took 42 s and 281 MB).
    public static let searchWordLimit = 32
    public static let searchByteLimit = 1_000

    /// Something to search for, within the size a search may have.
    public func checkSearchSize(_ terms: String) throws {
        guard terms.contains(where: { !$0.isWhitespace }) else {
            throw ComicsError.usage("'comics search' needs something to search for", hint: "see 'comics search --help'")
        }
        let words = terms.split(whereSeparator: \.isWhitespace).count
        guard words <= Self.searchWordLimit, terms.utf8.count <= Self.searchByteLimit else {
            throw ComicsError.usage(
                "a search holds at most \(Self.searchWordLimit) words and \(Self.searchByteLimit) bytes; this one has "
                    + "\(words) word\(words == 1 ? "" : "s") and \(terms.utf8.count) bytes",
                hint: "search for the few words that matter")
        }
    }

    /// Full-text search over everything cached, best match first.
    /// `remote` first asks Gutendex's own search, so books not cached yet
    /// can be found; a network failure there is a warning, not an error.
    public func search(_ terms: String, source: SourceName?, remote: Bool, limit: Int) throws -> SearchResults {
        try checkSearchSize(terms)
        if remote && mode == .offline {
            throw ComicsError.usage("--remote asks Gutendex, and --offline forbids the network", hint: "use one of them")
        }
        if remote && source != .xkcd && mode != .offline {
            do {
                _ = try list(.books, query: ListQuery(search: terms))
            } catch let error as ComicsError where error.kind == .network || error.kind == .notFound {
                warnings.append("searching Gutendex failed (\(error.message)); showing what is cached")
            }
        }
        let (matches, total) = try store.search(terms, source: source, limit: limit)
        let items = try store.cachedItems(matches.map(\.ref))
        let results = matches.compactMap { match in
            items[match.ref].map { SearchResult(item: $0, highlightedTitle: match.highlightedTitle, snippet: match.snippet) }
        }
        noteUse(of: results.map(\.item))
        return SearchResults(results: results, total: total)
    }
}
