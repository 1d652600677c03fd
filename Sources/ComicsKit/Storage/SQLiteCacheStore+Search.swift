import CSQLite

/// Full-text search over the cached items.
extension SQLiteCacheStore {
    /// Best match first, by these in turn: the query's words as one exact
    /// phrase (of two or more plain words); the names (authors, translators,
    /// editors) matching it, so a book by Tolstoy comes before one about
    /// him; the title and names matching it; then `comics_rank` (BM25 with
    /// a title or name match weighing ten times the rest, and each field's
    /// length counting less than in FTS5's bm25).
    public func search(_ query: String, source: SourceName?, limit: Int) throws -> (matches: [SearchMatch], total: Int) {
        let search = SearchExpression(query)
        var values: [SQLiteValue] = [
            .text(search.expression), .text(String(SearchMatch.start)), .text(String(SearchMatch.end)),
            .optionalText(source?.rawValue), .integer(Int64(limit)), .text(search.inTitle),
        ]
        var literalFilter = "", phraseTier = ""
        let literals = JSONValue.array(search.literals.map(JSONValue.string)).serialized
        func literalCondition(_ parameter: Int) -> String {
            search.literals.isEmpty ? "" : """
                AND NOT EXISTS (SELECT 1 FROM json_each(?\(parameter))
                    WHERE instr(lower(item_search.title || ' ' || item_search.people || ' ' || item_search.body), lower(value)) = 0)
                """
        }
        if !search.literals.isEmpty {
            values.append(.text(literals))
            literalFilter = literalCondition(values.count)
        }
        if let phrase = search.phrase {
            values.append(.text(phrase))
            phraseTier = "(rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH ?\(values.count))) DESC,"
        }
        values.append(.text(search.inNames))
        let namesTier = "(rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH ?\(values.count))) DESC,"
        do {
            let rows = try database.query("""
                SELECT source, id, highlight(item_search, 0, ?2, ?3), comics_snippet(item_search, ?2, ?3, '…', 12) FROM item_search
                WHERE item_search MATCH ?1 AND (?4 IS NULL OR source = ?4) \(literalFilter)
                ORDER BY \(phraseTier) \(namesTier) (rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH ?6)) DESC,
                         comics_rank(item_search, \(SearchIndex.columnWeights))
                LIMIT ?5
                """, values)
            let matches: [SearchMatch] = rows.compactMap { row in
                guard let name = row[0].text, let source = SourceName(rawValue: name), let id = row[1].int,
                      let title = row[2].text
                else { return nil }
                return SearchMatch(ref: ItemRef(source: source, id: id), highlightedTitle: title, snippet: SearchMatch.capped(row[3].text ?? ""))
            }
            // Counting every match costs a second pass: only when capped.
            guard matches.count == limit else { return (matches, matches.count) }
            let total = try database.query(
                "SELECT count(*) FROM item_search WHERE item_search MATCH ?1 AND (?2 IS NULL OR source = ?2) \(literalCondition(3))",
                [.text(search.expression), .optionalText(source?.rawValue)] + (search.literals.isEmpty ? [] : [.text(literals)]))
            return (matches, total.first?[0].int ?? matches.count)
        } catch let error where error.primaryCode == SQLITE_ERROR {
            // The only thing in this statement a person wrote is the query.
            throw ComicsError.usage(
                "cannot search for \(query): \(Self.explainQueryError(error.message))",
                hint: "words match anywhere; \"a phrase\" in double quotes, word* for a prefix, AND, OR, NOT and ( ) between them")
        } catch {
            throw Self.describe(error, path: database.path)
        }
    }

    /// What was wrong with a query, in words for people rather than FTS5's.
    static func explainQueryError(_ message: String) -> String {
        if message.includes("unterminated string") { return "a double quote is not closed" }
        if message.includes("no such column") { return "a word followed by ':' names a column; put the word in double quotes" }
        if message.includes("syntax error") { return "AND, OR and NOT need a term on each side, and ( ) must pair up" }
        return "the query cannot be read"
    }
}
