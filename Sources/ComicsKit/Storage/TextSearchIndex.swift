/// The index that finds words inside downloaded texts: one row per block,
/// no copy of the text and no positions (`detail=none`), so that it costs
/// a sixth of the text (War and Peace: 0.54 MB for 3.4 MB). It says which
/// blocks hold every word; phrases, ranking and snippets are then worked
/// out on those blocks alone, in a full index in memory, with the same
/// tokenizer as `search` (stemming included).
enum TextSearchIndex {
    static let tokenizer = "porter unicode61 remove_diacritics 2 tokenchars ''+#''"

    /// Part of migration 15; a contentless table needs each row's text
    /// again to delete it, which the stored text gives.
    static let definition = """
        CREATE VIRTUAL TABLE text_search USING fts5(body, content = '', detail = none, columnsize = 0, tokenize = '\(tokenizer)')
        """

    /// The in-memory index a search's candidate blocks are put in.
    static let candidatesDefinition = """
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_candidates USING fts5(body, tokenize = '\(tokenizer)')
        """

    /// Blocks past this in one text are not indexed (a hostile text of
    /// millions of one-word paragraphs).
    static let blocksPerText = 1 << 20

    /// A block's row: the book's id in the high bits, the block in the low.
    static func rowID(book id: Int, block: Int) -> Int64 {
        Int64(id) << 20 | Int64(block)
    }

    static func block(of rowID: Int64) -> (book: Int, block: Int) {
        (Int(rowID >> 20), Int(rowID & Int64(blocksPerText - 1)))
    }

    /// The query with its phrases as tokens that must all appear: the
    /// index has no positions to match a phrase by.
    static func loosened(_ expression: String) -> String {
        var result = ""
        var inQuotes = false
        var word = ""
        func endWord() {
            guard !word.isEmpty else { return }
            result += "\"\(word)\" "
            word = ""
        }
        for character in expression {
            if character == "\"" {
                if inQuotes { endWord() }
                inQuotes.toggle()
            } else if inQuotes {
                // What the tokenizer would split ("tea-party") is a phrase too.
                if character.isLetter || character.isNumber || character == "+" || character == "#" { word.append(character) } else { endWord() }
            } else {
                result.append(character)
            }
        }
        endWord()
        return result.replacingEvery("\" *", with: "\"*")
    }
}
