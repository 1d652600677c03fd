/// A book's text as comics keeps and shows it: the work alone (no header,
/// licence or credits), as blocks in reading order, and the sections its
/// headings open. Positions in it are a block and an offset into that
/// block's text, so they do not depend on the width it is shown at.
public struct BookContent: Equatable, Sendable {
    public var blocks: [TextBlock]
    public var sections: [TextSection]

    /// A block's text is at most this many bytes (a longer one is cut at
    /// spaces into several): the store's chunks, and so what it inflates
    /// for one, stay bounded whatever one paragraph of a file holds.
    public static let maximumBlockBytes = 1 << 20

    /// The most a text's blocks hold together: a download is at most 64 MiB,
    /// and decoding a single-byte encoding at most triples it in UTF-8.
    public static let maximumTextBytes = 3 * 64 * 1024 * 1024

    /// Blocks longer than `maximumBlockBytes` are cut into several of that
    /// size at most (the sections follow their blocks), losing no word.
    public init(blocks: [TextBlock], sections: [TextSection]) {
        guard blocks.contains(where: { $0.text.utf8.count > Self.maximumBlockBytes }) else {
            self.blocks = blocks
            self.sections = sections
            return
        }
        var bounded: [TextBlock] = []
        var newIndex: [Int] = []
        newIndex.reserveCapacity(blocks.count)
        for block in blocks {
            newIndex.append(bounded.count)
            for (index, piece) in Self.pieces(of: block.text).enumerated() {
                bounded.append(TextBlock(index > 0 && block.kind == .heading ? .prose : block.kind, piece, link: index == 0 ? block.link : nil))
            }
        }
        self.blocks = bounded
        self.sections = sections.map { section in
            var moved = section
            moved.firstBlock = newIndex.indices.contains(section.firstBlock) ? newIndex[section.firstBlock] : bounded.count
            return moved
        }
    }

    /// `text` in pieces of at most `maximumBlockBytes`, each ending before a
    /// space or line break where one is in its second half (the break is
    /// dropped), else at a character's boundary.
    static func pieces(of text: String) -> [String] {
        var utf8 = Array(text.utf8)[...]
        var pieces: [String] = []
        while utf8.count > maximumBlockBytes {
            var end = utf8.startIndex + maximumBlockBytes
            // Back to the first byte of a scalar.
            while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            let half = utf8.startIndex + maximumBlockBytes / 2
            let space = utf8[half..<end].lastIndex { $0 == 0x20 || $0 == 0x0A }
            pieces.append(String(decoding: utf8[..<(space ?? end)], as: UTF8.self))
            utf8 = utf8[(space.map { $0 + 1 } ?? end)...]
        }
        pieces.append(String(decoding: utf8, as: UTF8.self))
        return pieces
    }

    public var wordCount: Int { blocks.reduce(0) { $0 + $1.wordCount } }

    /// The blocks of section `index` (0-based) and those nested in it.
    public func blockRange(ofSection index: Int) -> Range<Int> {
        let section = sections[index]
        let next = sections[(index + 1)...].first { $0.level <= section.level }
        return section.firstBlock..<(next?.firstBlock ?? blocks.count)
    }

    /// The sections with their numbers, where each begins (in words) and
    /// how many words each holds, nested sections included.
    public func outline() -> [OutlineEntry] {
        var wordsBefore = [Int](repeating: 0, count: blocks.count + 1)
        for (index, block) in blocks.enumerated() { wordsBefore[index + 1] = wordsBefore[index] + block.wordCount }
        return sections.indices.map { index in
            let range = blockRange(ofSection: index)
            return OutlineEntry(
                number: index + 1, section: sections[index], startWord: wordsBefore[range.lowerBound],
                words: wordsBefore[range.upperBound] - wordsBefore[range.lowerBound])
        }
    }

    /// The innermost section a block belongs to, if any.
    public func sectionIndex(containing block: Int) -> Int? {
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].firstBlock <= block { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}

public struct TextBlock: Equatable, Sendable {
    public enum Kind: Character, Sendable {
        /// A paragraph: its lines joined, to be reflowed to any width.
        case prose = "p"
        /// Verse, tables, indented blocks: lines kept as they are, with
        /// their indentation.
        case lines = "l"
        /// A heading that opens a section (its lines as in the file).
        case heading = "h"
        /// The caption of an `[Illustration: …]` (may be empty).
        case illustration = "i"
        /// A note, `[1] …` or `[Footnote …]`, reflowed like prose.
        case footnote = "f"
    }

    public var kind: Kind
    public var text: String
    /// Where a block points, as an HTML edition writes it: an
    /// illustration's picture (`images/i_001.jpg`, relative to the edition),
    /// a note's anchor (`Footnote_1_1`, the target of its references), the
    /// anchors of the notes a paragraph refers to, space-separated.
    /// Plain texts have none. At most `maximumLinkLength` characters.
    public var link: String?

    public static let maximumLinkLength = 1_000

    public init(_ kind: Kind, _ text: String, link: String? = nil) {
        self.kind = kind
        self.text = text
        self.link = link
    }

    public var wordCount: Int {
        var text = text
        return text.withUTF8 { Self.wordCount(in: $0) }
    }

    /// Words are what spaces and line breaks separate. Eight bytes at a
    /// time: searches count the words before every block of a book.
    static func wordCount(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// The high bit of each byte of `word` that is a space or a line break.
        func spaces(_ word: UInt64) -> UInt64 {
            func zeros(_ value: UInt64) -> UInt64 { ~((((value & lows) &+ lows) | value)) & highs }
            return zeros(word ^ (0x20 &* ones)) | zeros(word ^ (0x0A &* ones))
        }
        var count = 0
        var previousIsSpace = true
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let space = spaces(word)
            let before = (space << 8) | (previousIsSpace ? 0x80 : 0)
            count += (~space & highs & before).nonzeroBitCount
            previousIsSpace = space & (0x80 << 56) != 0
            index += 8
        }
        while index < bytes.count {
            let isSpace = bytes[index] == 0x20 || bytes[index] == 0x0A
            if !isSpace && previousIsSpace { count += 1 }
            previousIsSpace = isSpace
            index += 1
        }
        return count
    }
}

public struct TextSection: Equatable, Sendable {
    /// 0 for the outermost headings (books, acts, or the chapters of a
    /// book that has nothing above them).
    public var level: Int
    public var title: String
    public var firstBlock: Int

    public init(level: Int, title: String, firstBlock: Int) {
        self.level = level
        self.title = title
        self.firstBlock = firstBlock
    }
}

/// Where a person is in a book: a block and a character offset in it.
public struct TextPosition: Equatable, Sendable {
    public var block: Int
    public var offset: Int

    public init(block: Int, offset: Int = 0) {
        self.block = block
        self.offset = offset
    }
}
