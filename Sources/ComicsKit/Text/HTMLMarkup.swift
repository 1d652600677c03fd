/// Plain text from upstream fields that carry HTML markup where plain
/// text belongs (xkcd 472's title is `<span style="color: #0000ED">House</span>
/// of Pancakes`).
public enum HTMLMarkup {
    /// The text without its tags and comments; a line break tag becomes a
    /// space. Only a `<` that opens a tag (a letter, `/`, `!` or `?` after
    /// it, and a `>` before the next `<`) starts one, so `a < b` and `<3`
    /// stay as written. Entities are left for `HTMLEntities` to decode, so
    /// an escaped `&lt;b&gt;` is still text.
    public static func removingTags(_ text: String) -> String {
        guard text.contains("<") else { return text }
        var output = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            output += rest[..<open]
            guard let end = endOfTag(in: rest, at: open) else {
                output.append("<")
                rest = rest[rest.index(after: open)...]
                continue
            }
            if isLineBreak(rest[open..<end]), output.last != " " { output.append(" ") }
            rest = rest[end...]
        }
        output += rest
        return output.trimmingWhitespace()
    }

    /// The index after the tag or comment that starts at `open`.
    private static func endOfTag(in text: Substring, at open: String.Index) -> String.Index? {
        let body = text[text.index(after: open)...]
        if body.hasPrefix("!--") {
            return body.firstOccurrence(of: "-->")?.upperBound
        }
        guard let first = body.first else { return nil }
        let opensTag: Bool
        switch first {
        case "/": opensTag = body.dropFirst().first.map { $0.isASCII && $0.isLetter } ?? false
        case "!", "?": opensTag = true
        default: opensTag = first.isASCII && first.isLetter
        }
        guard opensTag, let close = body.firstIndex(where: { $0 == ">" || $0 == "<" }), body[close] == ">" else {
            return nil
        }
        return body.index(after: close)
    }

    private static func isLineBreak(_ tag: Substring) -> Bool {
        let name = tag.dropFirst().prefix { $0.isLetter }.lowercased()
        return name == "br" || name == "p"
    }
}
