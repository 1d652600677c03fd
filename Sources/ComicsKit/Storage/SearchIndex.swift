/// What the full-text index holds for an item, column by column, and the
/// statements that keep it in step with `items`.
///
/// The text is indexed as it is shown: escape sequences and controls are
/// removed first (a title drawn as "Evil Red" is found by "red", never by
/// the hidden payload). Names (authors, translators, editors) have a column
/// of their own that ranks with the title; the body holds what a person
/// reads about the item (alt text, transcript, summaries, subjects and
/// bookshelves). Languages, links, dates and formats are not words anyone
/// searches for: `--language` filters by language.
enum SearchIndex {
    /// The index as it is today (migration 12).
    static let definition = """
        CREATE VIRTUAL TABLE item_search USING fts5(
            title, people, body, source UNINDEXED, id UNINDEXED,
            tokenize = 'porter unicode61 remove_diacritics 2 tokenchars ''+#'''
        )
        """

    /// How much a match in each column counts: title, people, body.
    static let columnWeights = "10.0, 10.0, 1.0"

    /// The index's rowid of an item, derived from (source, id) so that a
    /// delete finds its row at once; `source` and `id` are SQL expressions.
    static func rowID(source: String, id: String) -> String {
        "\(id) * 4 + CASE \(source) WHEN 'xkcd' THEN 1 WHEN 'books' THEN 2 ELSE 3 END"
    }

    /// One item as the index reads it.
    typealias Row = (source: String, id: Int, title: String, attributes: [(String, JSONValue)])

    /// Attributes holding people as `{name, …}` objects.
    static let peopleKeys = ["authors", "translators", "editors"]
    /// Attributes holding text a person reads (strings or lists of them),
    /// and those holding lists of names for it, whose entries are kept
    /// apart by "; " in one line.
    static let bodyKeys = ["alt", "transcript", "summaries"]
    static let listKeys = ["subjects", "bookshelves"]

    /// The title, people and body columns of an item, as shown.
    static func columns(title: String, attributes: [(String, JSONValue)]) -> (title: String, people: String, body: String) {
        func value(_ key: String) -> JSONValue? { attributes.first { $0.0 == key }?.1 }
        func texts(_ value: JSONValue?) -> [String] {
            switch value {
            case let .string(text)?: [text]
            case let .array(values)?: values.flatMap { texts($0) }
            default: []
            }
        }
        let people = peopleKeys.flatMap { key in (value(key)?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } }
        let body = bodyKeys.flatMap { texts(value($0)) }.map { TerminalText.sanitize($0) }
        // A list's entries apart ("Clergy -- Fiction; Historical fiction"),
        // as a snippet cut from them shows them.
        let list = listKeys.flatMap { texts(value($0)) }.map { TerminalText.sanitize($0, singleLine: true) }.filter { !$0.isEmpty }
        return (
            TerminalText.sanitize(title, singleLine: true),
            people.map { TerminalText.sanitize($0, singleLine: true) }.joined(separator: "; "),
            (body + [list.joined(separator: "; ")]).filter { !$0.isEmpty }.joined(separator: "\n")
        )
    }

    /// Indexes the items given as `[source, id, title, attributes]` rows
    /// (that are not indexed yet), all in one statement: FTS5 writes its
    /// pending terms out at every statement's start.
    static func insert(_ rows: [Row], into database: SQLiteDatabase) throws {
        guard !rows.isEmpty else { return }
        let documents = JSONValue.array(rows.map { row in
            let columns = columns(title: row.title, attributes: row.attributes)
            return .array([.string(row.source), .int(row.id), .string(columns.title), .string(columns.people), .string(columns.body)])
        })
        try database.run("""
            INSERT INTO item_search (rowid, title, people, body, source, id)
            SELECT \(rowID(source: "value ->> 0", id: "value ->> 1")), value ->> 2, value ->> 3, value ->> 4, value ->> 0, value ->> 1
            FROM json_each(?1)
            """, [.text(documents.serialized)])
    }

    /// Fills the (empty) index from every cached item, a thousand at a time.
    static func indexEveryItem(in database: SQLiteDatabase) throws {
        let read = try database.prepare("SELECT source, id, title, attributes FROM items")
        var batch: [Row] = []
        try read.forEachRow { row in
            guard let source = row.text(at: 0), let title = row.text(at: 2), let attributesText = row.text(at: 3),
                  case let .object(members)? = try? JSONValue.parse(attributesText)
            else { return }
            batch.append((source, Int(row.integer(at: 1)), title, members))
            if batch.count == 1_000 {
                try insert(batch, into: database)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try insert(batch, into: database)
    }
}
