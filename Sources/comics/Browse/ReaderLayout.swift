import BrowseCore
import ComicsKit

/// The lines of a passage, with the rules `comics read` prints by:
/// `TextLayout`'s reflow, headings in bold, illustrations and footnotes dim, `_italics_`
/// in italics; the text sanitized on the way.
enum ReaderLayout {
    /// `sectionStarts`: the blocks of the book that open sections.
    static func passage(_ passage: TextPassage, width: Int, sectionStarts: Set<Int>) -> ReaderPassage {
        let plain = Terminal(isTerminal: false, width: width, height: nil, cellSize: nil, colorForbidden: true)
        let layout = TextLayout(width: width, terminal: plain)
        var lines: [ReaderLine] = []
        var wordsBefore: [Int] = []
        var words = passage.wordsBefore
        for (index, block) in passage.blocks.enumerated() {
            let number = passage.firstBlock + index
            wordsBefore.append(words)
            words += block.wordCount
            var laid = layout.lines(of: block)
            if index > 0, TextLayout.continuesHeading(block, after: passage.blocks[index - 1].kind, opensSection: sectionStarts.contains(number)) {
                laid = Array(laid.drop { $0.isEmpty })
            } else if !lines.isEmpty || number > 0 {
                laid.insert("", at: 0)
            }
            // Where each line begins in the block's text: its lines or
            // words, one separator apart.
            var offset = 0
            var italic = false
            for text in laid {
                let runs: [ReaderRun] = switch block.kind {
                case .heading: [ReaderRun(text: text, style: .bold)]
                case .illustration, .footnote: [ReaderRun(text: text, style: .dim)]
                case .prose, .lines: italicized(text, italic: &italic)
                }
                lines.append(ReaderLine(block: number, offset: min(offset, block.text.utf8.count), runs: runs))
                if !text.isEmpty { offset += text.utf8.count + 1 }
            }
        }
        return ReaderPassage(firstBlock: passage.firstBlock, endBlock: passage.endBlock, width: width, wordsBefore: wordsBefore, lines: lines)
    }

    /// `_italics_` as italic runs, the underscores dropped; a pair may
    /// span lines of a block.
    private static func italicized(_ text: String, italic: inout Bool) -> [ReaderRun] {
        guard text.contains("_") || italic else { return [ReaderRun(text: text)] }
        return TextLayout.italicRuns(text, italic: &italic).map { ReaderRun(text: $0.text, style: $0.isItalic ? .italic : .plain) }
    }
}
