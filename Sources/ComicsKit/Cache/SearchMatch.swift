/// One item a full-text search found.
public struct SearchMatch: Equatable, Sendable {
    public let ref: ItemRef
    /// The title with each matched word between `start` and `end`.
    public let highlightedTitle: String

    public init(ref: ItemRef, highlightedTitle: String) {
        self.ref = ref
        self.highlightedTitle = highlightedTitle
    }

    /// Private-use scalars: no title contains them, and the terminal
    /// sanitizer lets them through to be turned into bold or dropped.
    public static let start: Character = "\u{E000}"
    public static let end: Character = "\u{E001}"
}
