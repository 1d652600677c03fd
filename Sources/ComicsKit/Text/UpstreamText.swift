/// Limits on text from upstream: a title or a transcript is what a person
/// reads, and a server sending megabytes in one field must not cost memory,
/// disk or search time to match.
public enum UpstreamText {
    /// Unicode scalars in a title; real ones are under 200 characters.
    public static let titleLimit = 1_000
    /// Unicode scalars in any other field; real transcripts run to a few thousand.
    public static let textLimit = 100_000

    /// The text cut to at most `limit` Unicode scalars (so at most four
    /// times as many bytes), ending with "…" when cut. Scalars, not
    /// characters: one letter under 3.5 million combining marks is one
    /// character and 7 MB. The cut falls between characters; only a first
    /// character longer than the limit is cut inside.
    public static func capped(_ text: String, _ limit: Int) -> String {
        // A scalar is at least one byte: text within the limit in bytes is within it.
        guard text.utf8.count > limit, text.unicodeScalars.count > limit else { return text }
        let room = max(0, limit - 1)
        var end = text.startIndex, used = 0
        for start in text.indices {
            let next = text.index(after: start)
            let size = text.unicodeScalars[start..<next].count
            guard used + size <= room else { break }
            (end, used) = (next, used + size)
        }
        if end == text.startIndex {
            end = text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: room)
        }
        return String(text.unicodeScalars[..<end]) + "…"
    }
}
