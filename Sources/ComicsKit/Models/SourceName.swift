/// The upstreams comics can browse. The raw value is the name users type
/// (`-s xkcd`, `xkcd:353`) and the name stored in the database.
public enum SourceName: String, CaseIterable, Sendable, Comparable {
    case xkcd
    case books

    public static func < (lhs: SourceName, rhs: SourceName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// No item of the source is numbered above this: xkcd publishes a few
    /// comics a week and Project Gutenberg numbers about 76,000 books, so a
    /// server (or a file) claiming more would send comics asking forever.
    public var largestID: Int {
        switch self {
        case .xkcd: 1_000_000
        case .books: 10_000_000
        }
    }

    /// Parses a user-typed source name, case-insensitively.
    public init?(userInput: String) {
        self.init(rawValue: userInput.lowercased())
    }
}
