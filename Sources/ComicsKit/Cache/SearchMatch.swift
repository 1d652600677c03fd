/// One item a full-text search found.
public struct SearchMatch: Equatable, Sendable {
    public let ref: ItemRef
    /// The title with each matched word between `start` and `end`.
    public let highlightedTitle: String
    /// A few words around the match in the text (or the title), marked the same way.
    public let snippet: String

    public init(ref: ItemRef, highlightedTitle: String, snippet: String = "") {
        self.ref = ref
        self.highlightedTitle = highlightedTitle
        self.snippet = snippet
    }

    /// Text without the markers: for machine formats, and for every text
    /// from upstream, so that data can never produce one.
    public static func unmarked(_ text: String) -> String {
        guard text.contains(where: { $0 == start || $0 == end }) else { return text }
        return text.filter { $0 != start && $0 != end }
    }

    /// Private-use scalars: no title contains them, and the terminal
    /// sanitizer lets them through to be turned into bold or dropped.
    public static let start: Character = "\u{E000}"
    public static let end: Character = "\u{E001}"
}
