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
    /// Every marker scalar goes, even one a combining mark follows. Every
    /// field from upstream passes here, so most text is let through on a
    /// look at its bytes: both markers' UTF-8 begins with 0xEE.
    public static func unmarked(_ text: String) -> String {
        guard text.utf8.contains(0xEE) else { return text }
        let isMarker = { (scalar: Unicode.Scalar) in scalar == "\u{E000}" || scalar == "\u{E001}" }
        guard text.unicodeScalars.contains(where: isMarker) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isMarker($0) }))
    }

    /// The most scalars a snippet shows: sixteen words, even words of a
    /// letter under a million combining marks, make a line, not a flood.
    public static let snippetLimit = 400

    /// `snippet` cut to `snippetLimit` scalars, with "…" where it was cut
    /// and a highlight that was open there closed.
    public static func capped(_ snippet: String) -> String {
        var scalars = snippet.unicodeScalars.makeIterator()
        var kept = String.UnicodeScalarView()
        var isOpen = false
        for _ in 0..<snippetLimit {
            guard let scalar = scalars.next() else { return snippet }
            if scalar == start.unicodeScalars.first { isOpen = true } else if scalar == end.unicodeScalars.first { isOpen = false }
            kept.append(scalar)
        }
        guard scalars.next() != nil else { return snippet }
        if isOpen { kept.append(contentsOf: end.unicodeScalars) }
        kept.append("…")
        return String(kept)
    }

    /// Private-use scalars: no title contains them, and the terminal
    /// sanitizer lets them through to be turned into bold or dropped.
    public static let start: Character = "\u{E000}"
    public static let end: Character = "\u{E001}"
}
