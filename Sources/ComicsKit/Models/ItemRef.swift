/// Identifies one cached item: its source and its number there.
public struct ItemRef: Hashable, Sendable, CustomStringConvertible {
    public let source: SourceName
    public let id: Int

    public init(source: SourceName, id: Int) {
        self.source = source
        self.id = id
    }

    /// An id a user or a file gave: beyond the source's numbering it names
    /// nothing, and asking upstream for it would be a wasted request.
    public init(source: SourceName, checking id: Int) throws {
        guard (1...source.largestID).contains(id) else {
            throw ComicsError.usage(
                "\(source.rawValue) has no item \(id)",
                hint: "\(source.rawValue) ids go from 1 to \(source.largestID)")
        }
        self.init(source: source, id: id)
    }

    public var description: String { "\(source.rawValue):\(id)" }
}

/// What a user may name on the command line: an item, or the newest one.
public enum ItemReference: Equatable, Sendable {
    case item(ItemRef)
    case latest(SourceName)
    /// One item of the archive picked uniformly (xkcd).
    case random(SourceName)

    /// Parses `353`, `xkcd:353`, `latest` or `random` (also `xkcd:latest`);
    /// a bare number belongs to `defaultSource`.
    public static func parse(_ text: String, defaultSource: SourceName) throws -> ItemReference {
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return try pasted(text) }
        var source = defaultSource
        var rest = Substring(text)
        if let colon = text.firstIndex(of: ":") {
            let prefix = String(text[..<colon])
            guard let named = SourceName(userInput: prefix) else {
                throw ComicsError.usage(
                    "unknown source \(MessageText.quoted(prefix)) in \(MessageText.quoted(text))",
                    hint: "sources are: \(SourceName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            source = named
            rest = text[text.index(after: colon)...]
        }
        switch rest.lowercased() {
        case "latest": return .latest(source)
        case "random": return .random(source)
        default: break
        }
        guard let id = Int(rest), id > 0, rest.allSatisfy(\.isASCII) else {
            // Books have no newest or random one to name.
            let hint = source == .books
                ? "use a book id such as 1342, or a qualified reference such as books:1342"
                : "use a number such as 353, a qualified reference such as xkcd:353, latest or random"
            throw ComicsError.usage("\(MessageText.quoted(text)) is not an item reference", hint: hint)
        }
        return .item(try ItemRef(source: source, checking: id))
    }

    /// A page's address pasted from a browser: `https://xkcd.com/353/`,
    /// `https://www.gutenberg.org/ebooks/1342` (or Gutendex's `/books/1342/`).
    private static func pasted(_ text: String) throws -> ItemReference {
        let afterScheme = text.drop { $0 != ":" }.dropFirst(3)
        let host = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        let path = afterScheme.dropFirst(host.count).prefix { $0 != "?" && $0 != "#" }.split(separator: "/")
        let number = { (part: Substring) in Int(part.prefix { $0 != "." }).flatMap { $0 > 0 ? $0 : nil } }
        switch (host, path.first) {
        case ("xkcd.com", _?), ("www.xkcd.com", _?), ("m.xkcd.com", _?):
            if let id = number(path[0]) { return .item(try ItemRef(source: .xkcd, checking: id)) }
        case ("gutenberg.org", "ebooks"?), ("www.gutenberg.org", "ebooks"?), ("gutendex.com", "books"?):
            if path.count > 1, let id = number(path[1]) { return .item(try ItemRef(source: .books, checking: id)) }
        default:
            break
        }
        throw ComicsError.usage(
            "\(MessageText.quoted(text)) is not the address of an xkcd comic or a Gutenberg book",
            hint: "paste one like https://xkcd.com/353/ or https://www.gutenberg.org/ebooks/1342")
    }
}
