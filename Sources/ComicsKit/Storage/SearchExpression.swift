/// What a person typed after `comics search`, as the FTS5 expressions that
/// find and rank it.
///
/// Plain words are quoted, so `can't` or `c++` search for what they say
/// instead of being FTS5 syntax; a trailing `*` stays a prefix search;
/// AND, OR, NOT and parentheses stay operators. A query with double quotes
/// is taken as FTS5 syntax as written.
///
/// The index keeps `+` and `#` inside words (`c++`, `c#`, `f#`), but a dot
/// cannot be part of a word, or "end." would not be "end". So a plain word
/// with a dot (`node.js`, `.net`) is found as the phrase of its parts and
/// then kept only where the text holds it as written, letter case aside.
struct SearchExpression {
    /// What an item must match.
    let expression: String
    /// The same, in the names alone: a book by someone comes first.
    let inNames: String
    /// The same, in the title or the names alone: such items come next.
    let inTitle: String
    /// Plain words as one exact phrase, for queries of two or more plain
    /// words: items holding it come next.
    let phrase: String?
    /// Words with a dot, lowercased, that an item's text must contain as
    /// written; empty when the query uses operators.
    let literals: [String]

    init(_ query: String) {
        let words = query.split(whereSeparator: \.isWhitespace)
        let isPlain = !query.contains("\"") && !words.contains { Self.isOperator($0) || $0.hasSuffix("*") }
        if query.contains("\"") {
            expression = query
        } else {
            expression = words.map { word -> String in
                if Self.isOperator(word) { return String(word) }
                let prefix = word.hasSuffix("*")
                let core = prefix ? word.dropLast() : word[...]
                return "\"\(core)\"" + (prefix ? "*" : "")
            }.joined(separator: " ")
        }
        phrase = isPlain && words.count > 1 ? "\"" + words.joined(separator: " ") + "\"" : nil
        literals = isPlain ? words.filter { $0.contains(".") && $0.contains { $0.isLetter || $0.isNumber } }.map { $0.lowercased() } : []
        inTitle = "{title people} : (\(expression))"
        inNames = "people : (\(expression))"
    }

    private static func isOperator(_ word: Substring) -> Bool {
        ["AND", "OR", "NOT"].contains(word) || word.allSatisfy { $0 == "(" || $0 == ")" }
    }
}
