/// A downloaded file made into the blocks comics stores, its outline still
/// to be found. The blocks' texts are final (the outline only decides which
/// of them are headings), so storing can index their words on one core
/// while the outline is found on the other.
public struct TextDraft: Sendable {
    public let blocks: [TextBlock]
    public let encoding: TextDecoding.Encoding
    private let findOutline: @Sendable ([TextBlock]) -> OutlinedText

    init(blocks: [TextBlock], encoding: TextDecoding.Encoding, findOutline: @escaping @Sendable ([TextBlock]) -> OutlinedText) {
        self.blocks = blocks
        self.encoding = encoding
        self.findOutline = findOutline
    }

    /// The text with its sections, its headings' blocks marked as such.
    public func outlined() -> OutlinedText { findOutline(blocks) }
}

/// Where a text's sections were found, as `show` says.
public enum OutlineOrigin: String, Sendable {
    /// The book's own contents: an HTML edition's links to its chapters,
    /// a plain text's list of them.
    case contents
    /// Its headings: tags, or lines that read as headings.
    case headings
}

public struct OutlinedText: Sendable {
    public var content: BookContent
    /// Where two sections or more were found; nil when none were: a book
    /// without them is read as one section, named by its first line.
    public var origin: OutlineOrigin?
    public var hasOutline: Bool { origin != nil }

    /// `blocks` with those that open `sections` marked as headings (an
    /// illustration whose caption names a chapter stays one, and so does
    /// a paragraph in `titledByEntries`, which a contents entry names
    /// from outside it); a text without sections is one, named by its
    /// first line.
    init(blocks: [TextBlock], sections: [TextSection], origin: OutlineOrigin?, titledByEntries: Set<Int> = []) {
        var blocks = blocks
        for section in sections where blocks.indices.contains(section.firstBlock) && blocks[section.firstBlock].kind != .illustration
            && !titledByEntries.contains(section.firstBlock) {
            blocks[section.firstBlock].kind = .heading
        }
        var placed = sections
        if placed.isEmpty, let first = blocks.first {
            let line = first.text.split(separator: "\n").first.map { $0.trimmingWhitespace() } ?? ""
            placed = [TextSection(level: 0, title: UpstreamText.capped(line.isEmpty ? "Text" : line, 80), firstBlock: 0)]
        }
        content = BookContent(blocks: blocks, sections: placed)
        self.origin = origin
    }
}
