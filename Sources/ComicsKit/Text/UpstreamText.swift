/// Limits on text from upstream: a title or a transcript is what a person
/// reads, and a server sending megabytes in one field must not cost memory,
/// disk or search time to match.
public enum UpstreamText {
    /// Characters in a title; real ones are under 200.
    public static let titleLimit = 1_000
    /// Characters in any other field; real transcripts run to a few thousand.
    public static let textLimit = 100_000

    /// The text cut to `limit` characters, ending with "…" when cut.
    public static func capped(_ text: String, _ limit: Int) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
