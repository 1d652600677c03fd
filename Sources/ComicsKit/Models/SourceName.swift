/// The upstreams comics can browse. The raw value is the name users type
/// (`-s xkcd`, `xkcd:353`) and the name stored in the database.
public enum SourceName: String, CaseIterable, Sendable, Comparable {
    case xkcd
    case books

    public static func < (lhs: SourceName, rhs: SourceName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Parses a user-typed source name, case-insensitively.
    public init?(userInput: String) {
        self.init(rawValue: userInput.lowercased())
    }
}
