/// Reads Gutendex documents: book objects (in a list page or from
/// `/books/ID/`) into items, surviving the catalogue's gaps: null or
/// negative years (Homer: -750) of authors, translators and editors, no
/// summary or several, MIME keys with parameters (`text/plain;
/// charset=us-ascii`), a null title.
public enum GutendexBookDecoder {
    /// A list page: how many books the query matches, where the next page
    /// is (unchecked), and the books it holds. Entries without a usable id
    /// are skipped rather than failing the page; `unreadable` says why.
    public struct Page: Equatable, Sendable {
        public var count: Int?
        public var next: String?
        public var books: [Item]
        public var unreadable: [String] = []
    }

    public static func decodePage(_ body: [UInt8]) throws(DocumentError) -> Page {
        let document = try UpstreamDocument.object(body)
        guard case let .array(results)? = document["results"] else {
            throw DocumentError(reason: "a book list without results")
        }
        var seen = Set<Int>()
        var page = Page(count: document["count"]?.lenientIntValue, next: document["next"]?.stringValue, books: [])
        for result in results {
            do {
                let book = try decode(result)
                if seen.insert(book.ref.id).inserted { page.books.append(book) }
            } catch {
                page.unreadable.append(error.reason)
            }
        }
        return page
    }

    /// One book from `/books/ID/`.
    public static func decodeBook(_ body: [UInt8]) throws(DocumentError) -> Item {
        try decode(try UpstreamDocument.object(body))
    }

    public static func decode(_ book: JSONValue) throws(DocumentError) -> Item {
        guard case .object = book else { throw DocumentError(reason: "a book that is not a JSON object") }
        guard let id = book["id"]?.lenientIntValue, (1...SourceName.books.largestID).contains(id) else {
            throw DocumentError(reason: "a book without an id, or with an impossible one")
        }
        let title = text(book["title"], limit: UpstreamText.titleLimit) ?? ""
        let formats = formats(book["formats"])
        let attributes: [Attribute] = [
            Attribute("authors", .array(people(book["authors"]))),
            Attribute("translators", .array(people(book["translators"]))),
            Attribute("editors", .array(people(book["editors"]))),
            Attribute("languages", .array(strings(book["languages"]))),
            Attribute("subjects", .array(strings(book["subjects"]))),
            Attribute("bookshelves", .array(strings(book["bookshelves"]))),
            Attribute("summaries", .array(strings(book["summaries"]))),
            Attribute("media_type", book["media_type"]?.stringValue.map(JSONValue.string) ?? .null),
            Attribute("copyright", boolean(book["copyright"])),
            Attribute("download_count", book["download_count"]?.lenientIntValue.map(JSONValue.int) ?? .null),
            Attribute("cover_url", formats["image/jpeg"].map(JSONValue.string) ?? .null),
            Attribute("formats", .object(formats.pairs.map { ($0.0, .string($0.1)) })),
        ]
        return Item(
            ref: ItemRef(source: .books, id: id), title: title.isEmpty ? "#\(id)" : title,
            url: pageURL(of: id), attributes: attributes)
    }

    static func pageURL(of id: Int) -> String { "https://www.gutenberg.org/ebooks/\(id)" }

    /// A text field as stored: a lone C1 control read as the Windows-1252
    /// character it stands for, capped, and never holding search's markers.
    private static func text(_ value: JSONValue?, limit: Int = UpstreamText.textLimit) -> String? {
        value?.stringValue.map { UpstreamText.capped(SearchMatch.unmarked(Mojibake.replacingLoneC1Controls($0)), limit) }
    }

    private static func boolean(_ value: JSONValue?) -> JSONValue {
        if case let .bool(flag)? = value { return .bool(flag) }
        return .null
    }

    private static func strings(_ value: JSONValue?) -> [JSONValue] {
        (value?.arrayValue ?? []).compactMap { text($0).map(JSONValue.string) }
    }

    /// `{name, birth_year, death_year}`, with years as integers or null.
    private static func people(_ value: JSONValue?) -> [JSONValue] {
        (value?.arrayValue ?? []).compactMap { person in
            guard let name = text(person["name"], limit: UpstreamText.titleLimit), !name.isEmpty else { return nil }
            return .object([
                ("name", .string(name)),
                ("birth_year", person["birth_year"]?.lenientIntValue.map(JSONValue.int) ?? .null),
                ("death_year", person["death_year"]?.lenientIntValue.map(JSONValue.int) ?? .null),
            ])
        }
    }

    /// MIME type to URL, in the order sent; entries that are not text are dropped.
    private static func formats(_ value: JSONValue?) -> OrderedFormats {
        guard case let .object(members)? = value else { return OrderedFormats(pairs: []) }
        return OrderedFormats(pairs: members.compactMap { key, url in url.stringValue.map { (key, $0) } })
    }

    private struct OrderedFormats {
        let pairs: [(String, String)]
        subscript(type: String) -> String? { pairs.first { $0.0 == type }?.1 }
    }
}
