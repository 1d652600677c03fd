import BrowseCore
import ComicsKit

/// The lines of a passage, with the rules `comics read` prints by:
/// `TextLayout`'s reflow, headings in bold, illustrations and footnotes dim, `_italics_`
/// in italics; the text sanitized on the way.
enum ReaderLayout {
    /// The kept pictures of a passage's illustrations, and the most rows
    /// one may take: each takes its rows in the page, its caption under it.
    struct Pictures {
        let sizes: [String: PictureSize]
        let maximumRows: Int
    }

    /// `sectionStarts`: the blocks of the book that open sections.
    static func passage(_ passage: TextPassage, width: Int, sectionStarts: Set<Int>, pictures: Pictures? = nil) -> ReaderPassage {
        let plain = Terminal(isTerminal: false, width: width, height: nil, cellSize: nil, colorForbidden: true)
        let layout = TextLayout(width: width, terminal: plain)
        var lines: [ReaderLine] = []
        var wordsBefore: [Int] = []
        var words = passage.wordsBefore
        for (index, block) in passage.blocks.enumerated() {
            let number = passage.firstBlock + index
            wordsBefore.append(words)
            words += block.wordCount
            var picture: ReaderPictureKey?
            var laid: [String]
            if block.kind == .illustration, let path = block.link, let pictures, let size = pictures.sizes[path] {
                picture = ReaderPictureFit.key(path: path, size: size, column: width, maximumRows: pictures.maximumRows)
                laid = block.text.isEmpty ? [] : DisplayWidth.wrap(block.text, width: width)
            } else {
                laid = layout.lines(of: block)
            }
            if let picture {
                // The picture's rows, then its caption: every row at the
                // block's start, so a page never begins inside a picture.
                if !lines.isEmpty || number > 0 { lines.append(ReaderLine(block: number, offset: 0, runs: [])) }
                for row in 0..<picture.rows {
                    lines.append(ReaderLine(block: number, offset: 0, runs: [], picture: ReaderPictureRow(key: picture, row: row)))
                }
                for text in laid {
                    let indent = String(repeating: " ", count: max(0, (width - DisplayWidth.of(text)) / 2))
                    lines.append(ReaderLine(block: number, offset: 0, runs: [ReaderRun(text: indent + text, style: .dim)]))
                }
                continue
            }
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
                // A note's lines hang under its first word: the indent is
                // not its text.
                let words = block.kind == .footnote ? text.drop { $0 == " " } : Substring(text)
                if !words.isEmpty { offset += words.utf8.count + 1 }
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
