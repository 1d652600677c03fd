/// What a person typed after `comics search`, as the FTS5 expressions that
/// find and rank it.
///
/// Plain words are quoted, so `can't` or `c++` search for what they say
/// instead of being FTS5 syntax; a trailing `*` stays a prefix search;
/// AND, OR, NOT and parentheses stay operators. A query with double quotes
/// is taken as FTS5 syntax as written. Inside quotes the index's tokenizer
/// splits a word as it split the text, so `node.js` is the phrase "node js"
/// and matches "Node.js" (a dot cannot be part of a word, or "end." would
/// not be "end").
struct SearchExpression {
    /// What an item must match.
    let expression: String
    /// The same, in the title alone: such items come first.
    let inTitle: String
    /// Plain words as one exact phrase, for queries of two or more plain
    /// words: items holding it come next.
    let phrase: String?

    init(_ query: String) {
        let words = query.split(whereSeparator: \.isWhitespace)
        if query.contains("\"") {
            expression = query
            phrase = nil
        } else {
            expression = words.map { word -> String in
                if Self.isOperator(word) { return String(word) }
                let prefix = word.hasSuffix("*")
                let core = prefix ? word.dropLast() : word[...]
                return "\"\(core)\"" + (prefix ? "*" : "")
            }.joined(separator: " ")
            let isPlain = words.count > 1 && !words.contains { Self.isOperator($0) || $0.hasSuffix("*") }
            phrase = isPlain ? "\"" + words.joined(separator: " ") + "\"" : nil
        }
        inTitle = "{title} : (\(expression))"
    }

    private static func isOperator(_ word: Substring) -> Bool {
        ["AND", "OR", "NOT"].contains(word) || word.allSatisfy { $0 == "(" || $0 == ")" }
    }
}
