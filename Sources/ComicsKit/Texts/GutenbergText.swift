/// A Project Gutenberg plain-text file made into a `BookContent`: decoded
/// by its bytes, its header, licence and credits taken away, its
/// paragraphs told apart and its sections found. Linear in its size.
public enum GutenbergText {
    /// Bumped whenever these rules (or the HTML editions', `GutenbergHTML`)
    /// change what a file becomes, so that a text cleaned by older rules
    /// can be told apart. 2: HTML editions, contents lists, ordinals. 3:
    /// pictures' addresses and notes' anchors kept, floods of paragraphs
    /// joined.
    public static let rulesVersion = 3

    public static func content(of bytes: [UInt8]) -> (content: BookContent, encoding: TextDecoding.Encoding) {
        let (text, encoding) = TextDecoding.decode(bytes)
        // Split on the byte: splitting on the Character would walk grapheme
        // boundaries through the whole text.
        let lines = TextLines(text)
        let work = GutenbergFrame.work(in: lines)
        let paragraphs = TextBlocks.paragraphs(of: lines[work])
        let (headings, sections) = SectionOutline.outline(paragraphs)
        var blocks: [TextBlock] = []
        blocks.reserveCapacity(paragraphs.count)
        var blockOfParagraph = [Int](repeating: 0, count: paragraphs.count)
        var index = 0
        while index < paragraphs.count {
            blockOfParagraph[index] = blocks.count
            let paragraph = paragraphs[index]
            if let titleLines = headings[index], paragraph.kind != .illustration {
                blocks.append(TextBlock(.heading, titleLines.joined(separator: "\n")))
                if titleLines.count > paragraph.lines.count, index + 1 < paragraphs.count {
                    index += 1
                    blockOfParagraph[index] = blocks.count - 1
                }
            } else {
                blocks.append(TextBlock(paragraph.kind, TextBlocks.text(of: paragraph)))
            }
            index += 1
        }
        var placed = sections.map { section in
            TextSection(level: section.level, title: section.title, firstBlock: blockOfParagraph[section.firstBlock])
        }
        // No heading found (or a flood of them): the book is one section,
        // named by its first line.
        if placed.isEmpty, let first = blocks.first {
            let line = first.text.split(separator: "\n").first.map { $0.trimmingWhitespace() } ?? ""
            placed = [TextSection(level: 0, title: UpstreamText.capped(line.isEmpty ? "Text" : line, 80), firstBlock: 0)]
        }
        return (BookContent(blocks: blocks, sections: placed), encoding)
    }
}
