/// A Project Gutenberg plain-text file made into a `BookContent`: decoded
/// by its bytes, its header, licence and credits taken away, its
/// paragraphs told apart and its sections found. Linear in its size.
public enum GutenbergText {
    /// Bumped whenever these rules (or the HTML editions', `GutenbergHTML`)
    /// change what a file becomes, so that a text cleaned by older rules
    /// can be told apart. 2: HTML editions, contents lists, ordinals. 3:
    /// pictures' addresses and notes' anchors kept, floods of paragraphs
    /// joined. 4: a plain text's title paragraph is a heading block of its
    /// own, not joined to the heading above it; a paragraph of an HTML
    /// edition keeps the anchors of the notes it refers to.
    public static let rulesVersion = 4

    public static func content(of bytes: [UInt8]) -> (content: BookContent, encoding: TextDecoding.Encoding) {
        let draft = draft(of: bytes)
        return (draft.outlined().content, draft.encoding)
    }

    /// The file's paragraphs as blocks, one each; its headings are found
    /// when the draft is outlined. A title that takes the paragraph after
    /// its heading (`CHAPTER I` over `THE TITLE`) makes both headings.
    public static func draft(of bytes: [UInt8]) -> TextDraft {
        SpelledNumbers.prepareTables()
        let (text, encoding) = TextDecoding.decode(bytes)
        // Split on the byte: splitting on the Character would walk grapheme
        // boundaries through the whole text.
        let lines = TextLines(text)
        let work = GutenbergFrame.work(in: lines)
        let paragraphs = TextBlocks.paragraphs(of: lines[work])
        // Each paragraph read once on every core: its text, and whether its
        // line reads as a heading (what the outline then only orders).
        let read = paragraphs.parallelMap { paragraph in
            (block: TextBlock(paragraph.kind, TextBlocks.text(of: paragraph)), heading: SectionOutline.headingLine(of: paragraph))
        }
        let headingLines = read.map(\.heading)
        return TextDraft(blocks: read.map(\.block), encoding: encoding) { blocks in
            let (headings, sections, fromContents) = SectionOutline.outline(paragraphs, headingLines: headingLines)
            var blocks = blocks
            for (index, titleLines) in headings where paragraphs[index].kind != .illustration
                && titleLines.count > paragraphs[index].lines.count && index + 1 < blocks.count && blocks[index + 1].kind != .illustration {
                blocks[index + 1].kind = .heading
            }
            return OutlinedText(blocks: blocks, sections: sections, origin: sections.count < 2 ? nil : fromContents ? .contents : .headings)
        }
    }
}
