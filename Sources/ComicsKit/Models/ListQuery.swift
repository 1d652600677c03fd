/// What a listing asks for: a page size (xkcd) or filters (books). The
/// canonical `key` names the query in the cache, so the same query, however
/// it was typed, finds the same pages and the same cursor.
public struct ListQuery: Equatable, Hashable, Sendable {
    public static let defaultLimit = 10
    public static let maximumLimit = 200

    /// The order of a filtered listing; Gutendex's names.
    public enum SortOrder: String, CaseIterable, Sendable {
        case popular, ascending, descending
    }

    /// Items per page where the client chooses it; nil means the default.
    public private(set) var limit: Int?
    /// Words every result must contain; lowercased, single-spaced.
    public private(set) var search: String?
    /// Language codes, any of which a result may have; lowercased and sorted.
    public private(set) var languages: [String]
    /// Text a result's subjects or bookshelves contain; lowercased, single-spaced.
    public private(set) var topic: String?
    /// nil for the upstream's own order (Gutendex: popular).
    public private(set) var sort: SortOrder?

    /// Normalises what was typed; text matching upstream ignores case and
    /// spacing, so the cache does too.
    public init(
        limit: Int? = nil, search: String? = nil, languages: [String] = [], topic: String? = nil,
        sort: SortOrder? = nil
    ) {
        self.limit = limit
        self.search = Self.normalizedText(search)
        self.languages = Array(Set(languages.map { $0.lowercased() }.filter { !$0.isEmpty })).sorted()
        self.topic = Self.normalizedText(topic)
        self.sort = sort == .popular ? nil : sort
    }

    public var pageSize: Int { limit ?? Self.defaultLimit }

    /// The same query with a page size.
    public func withLimit(_ limit: Int) -> ListQuery {
        var query = self
        query.limit = limit
        return query
    }

    /// Whether anything narrows or orders the listing beyond its page size.
    public var hasFilters: Bool { search != nil || !languages.isEmpty || topic != nil || sort != nil }

    /// The query without its page size, for sources that do not choose one.
    public var filtersOnly: ListQuery {
        var query = self
        query.limit = nil
        return query
    }

    /// `languages=en,fr&search=jane%20austen`: fields in a fixed order,
    /// values percent-encoded, absent fields left out. Stable, so it can key
    /// stored pages and travel to a background refresh as one argument.
    public var key: String {
        fields.map { "\($0.name)=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
    }

    /// The fields that are set, with their names, unencoded.
    private var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if !languages.isEmpty { fields.append(("languages", languages.joined(separator: ","))) }
        if let limit { fields.append(("limit", String(limit))) }
        if let search { fields.append(("search", search)) }
        if let sort { fields.append(("sort", sort.rawValue)) }
        if let topic { fields.append(("topic", topic)) }
        return fields
    }

    /// Reads a `key` back; nil for anything `key` would not have produced.
    public init?(key: String) {
        var query = ListQuery()
        for pair in key.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Self.percentDecoded(parts[1]), !value.isEmpty else { return nil }
            switch parts[0] {
            case "limit":
                guard let limit = Int(value), (1...Self.maximumLimit).contains(limit) else { return nil }
                query.limit = limit
            case "search": query.search = Self.normalizedText(value)
            case "languages": query.languages = value.split(separator: ",").map(String.init)
            case "topic": query.topic = Self.normalizedText(value)
            case "sort":
                guard let sort = SortOrder(rawValue: value) else { return nil }
                query.sort = sort
            default:
                return nil
            }
        }
        guard query.key == key else { return nil }
        self = query
    }

    private static func normalizedText(_ text: String?) -> String? {
        guard let words = text?.lowercased().split(whereSeparator: \.isWhitespace), !words.isEmpty else { return nil }
        return words.joined(separator: " ")
    }

    /// Every byte but the URL-unreserved ones (RFC 3986) as `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }

    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(value)
            input = input.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
