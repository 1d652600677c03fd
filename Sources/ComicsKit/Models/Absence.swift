/// Why the cache holds no item for a number upstream was asked for: it
/// has none (a 404), or sent one comics could not read. Kept as a fact
/// for an item's time to live, so a screen says so and does not ask
/// again and again.
public struct Absence: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case notFound = "not-found"
        case unreadable
    }

    public let kind: Kind
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
