import ComicsKit
import struct FoundationEssentials.Date

/// The reader's colours: the terminal's own (its default foreground and
/// background, whatever they are), or one of two of comics's, as indices
/// of the 256 every colour terminal has.
public enum ReaderTheme: String, CaseIterable, Equatable {
    case terminal, dark, light

    /// Foreground and background; -1 is the terminal's default.
    public var colors: (text: Int, heading: Int, dim: Int, background: Int) {
        switch self {
        case .terminal: (-1, -1, -1, -1)
        case .dark: (252, 255, 245, 235)
        case .light: (236, 232, 244, 230)
        }
    }

    public var next: ReaderTheme {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// A piece of a reader's line and how it is drawn.
public struct ReaderRun: Equatable {
    public init(text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    public enum Style: Equatable { case plain, bold, italic, dim }
    public var text: String
    public var style: Style = .plain
}

/// One line of a book as laid out: the place in the text it begins at (a
/// block and a byte offset into its text, width-independent) and its runs.
public struct ReaderLine: Equatable {
    public init(block: Int, offset: Int, runs: [ReaderRun], picture: ReaderPictureRow? = nil) {
        self.block = block
        self.offset = offset
        self.runs = runs
        self.picture = picture
    }

    public let block: Int
    public let offset: Int
    public let runs: [ReaderRun]
    /// A row kept for an illustration's picture, drawn over it.
    public let picture: ReaderPictureRow?

    public var text: String { runs.map(\.text).joined() }
}

/// Blocks of a text laid out at one width: what the reader shows is read
/// from the cache around the place being read, never the whole book.
public struct ReaderPassage: Equatable {
    public init(firstBlock: Int, endBlock: Int, width: Int, wordsBefore: [Int], lines: [ReaderLine]) {
        self.firstBlock = firstBlock
        self.endBlock = endBlock
        self.width = width
        self.wordsBefore = wordsBefore
        self.lines = lines
        // Counted once here, not at every frame: a paragraph may run to
        // thousands of lines.
        var counted: [Int?] = []
        counted.reserveCapacity(lines.count)
        var words: Int?
        for (index, line) in lines.enumerated() {
            if index == 0 || lines[index - 1].block != line.block {
                let block = line.block - firstBlock
                words = wordsBefore.indices.contains(block) ? wordsBefore[block] : nil
            }
            counted.append(words)
            words = words.map { $0 + Self.wordCount(line.text) }
        }
        wordsBeforeLine = counted
    }

    public let firstBlock: Int
    public let endBlock: Int
    public let width: Int
    /// The words of the text before each of the passage's blocks.
    public let wordsBefore: [Int]
    public let lines: [ReaderLine]
    /// The words of the text before each line (`words(beforeLine:)`).
    private let wordsBeforeLine: [Int?]

    public func words(before block: Int) -> Int? {
        wordsBefore.indices.contains(block - firstBlock) ? wordsBefore[block - firstBlock] : nil
    }

    /// The words before line `index`: the blocks before its own, and its
    /// own block's lines above it, so that each page of a long paragraph
    /// counts.
    public func words(beforeLine index: Int) -> Int? {
        wordsBeforeLine.indices.contains(index) ? wordsBeforeLine[index] : nil
    }

    /// Words are what white space separates.
    private static func wordCount(_ text: String) -> Int {
        var count = 0, inWord = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace
            if !isSpace, !inWord { count += 1 }
            inWord = !isSpace
        }
        return count
    }
}

/// The table of contents over the page: which section is selected, and
/// the first one in view.
public struct ReaderContents: Equatable {
    public var selected: Int
    public var top = 0
    /// Digits typed so far: the section they number is selected.
    public var typed = ""
}

/// A search inside the text (`/` forward, `?` backward): the blocks that
/// hold it once the worker found them, and which one the page is at.
public struct ReaderSearch: Equatable {
    public let query: String
    public let forward: Bool
    public let terms: TextSearchTerms?
    public var blocks: [Int]?
    public var current: Int?
}

/// How far into the text (in words) the reader's place was saved, and when.
public struct ReaderTurn: Equatable {
    public let words: Int
    public let at: Date
}

/// Where the reader opens: where reading stopped, the beginning
/// (`--from-start`), or a paragraph (`--at`, a hit of `search --in`).
public enum ReaderStart: Equatable {
    case saved, beginning
    case block(Int)
}

/// Where the reader is with its text.
public enum ReaderStatus: Equatable {
    case opening
    /// The bytes so far, of how many, once the first have come.
    case downloading(bytes: Int = 0, of: Int? = nil)
    case ready
    case failed(String)
}

/// The reader screen: a book's text in a column, from the place reading
/// stopped. It holds a passage of laid-out lines around `top`; the session
/// reads another from the cache whenever the place leaves it.
public struct BrowseReader: Equatable {
    public let ref: ItemRef
    public var title: String
    public var map: TextMap?
    public var passage: ReaderPassage?
    /// The place at the top of the page.
    public var top = TextPosition(block: 0)
    /// `top`'s line in `passage`.
    public var topLine = 0
    /// G was pressed: the last page, once the end is laid out.
    public var wantsEnd = false
    public var status = ReaderStatus.opening
    /// The column's width a person chose (`reader.width`).
    public var width = BrowseReader.defaultWidth
    /// The place last saved as where reading stopped.
    public var saved: TextPosition?
    /// `t`: the outline over the page, with its selection.
    public var contents: ReaderContents?
    /// The last search inside the text.
    public var search: ReaderSearch?
    public var bookmarks: [Bookmark] = []
    /// The notes written on the book's paragraphs (`a`).
    public var notes: [Bookmark] = []
    /// `'` (or `A`): the bookmarks (or the notes) over the page, with the one selected.
    public var marks: ReaderContents?
    public var listsNotes = false
    /// Where the last jump came from, for `''`.
    public var previous: TextPosition?
    /// Every jump's place, for Ctrl-O and Ctrl-I.
    public var jumps = ReaderJumps()
    /// The footnote mark Tab selected, and the note Enter opened over the page.
    public var selectedMark: ReaderMark?
    public var note: ReaderNoteBox?
    /// The last place saved, and when: the next page turned teaches the
    /// reading speed.
    public var lastTurn: ReaderTurn?
    /// The pictures drawn (or being drawn) for the page, by where they fit.
    public var pictures: [ReaderPictureKey: ReaderPictureDrawing] = [:]
    /// Enter on a picture: it alone, on the whole screen, until a key.
    public var fullPicture: ReaderPictureKey?
    /// Where to open, and what to search for once open.
    public var start = ReaderStart.saved
    public var startSearch: String?

    public static let defaultWidth = 72

    public init(ref: ItemRef, title: String, width: Int = BrowseReader.defaultWidth) {
        self.ref = ref
        self.title = title
        self.width = width
    }

    /// The text's width on a screen `columns` wide: the chosen width, or
    /// the screen's less a margin each side when that is narrower.
    public func column(for columns: Int) -> Int {
        max(10, min(width, columns - 2))
    }

    /// How far into the book the top of the page is, 0–100; 100 once the
    /// page `height` lines tall shows the book's last line (G, `:100%`).
    public func percent(height: Int) -> Int? {
        guard let map, let words = passage?.words(before: top.block) else { return nil }
        if showsTheEnd(height: height) { return 100 }
        // Truncated, as `show` and `toc` say it: 100% only at the very end.
        return min(100, Int(Double(words) * 100 / Double(max(1, map.info.wordCount))))
    }

    public func showsTheEnd(height: Int) -> Bool {
        guard let map, let passage else { return false }
        return passage.endBlock >= map.blockCount && topLine + height >= passage.lines.count
    }

    /// Minutes to the next heading at `speed` words a minute, from the
    /// bottom of the page: a part's heading page counts to its first
    /// chapter, not through all of them. Nil once the page shows where the
    /// section ends.
    public func minutesLeft(speed: Double, height: Int) -> Int? {
        guard let map, let section, let passage, !showsTheEnd(height: height) else { return nil }
        let bottomLine = min(passage.lines.count, topLine + height) - 1
        guard passage.lines.indices.contains(bottomLine), let words = passage.words(beforeLine: bottomLine) else { return nil }
        let bottom = passage.lines[bottomLine].block
        let next = map.outline.indices.contains(section.number) ? map.outline[section.number] : nil
        if let next, next.section.firstBlock <= bottom { return nil }
        let left = min(next?.startWord ?? section.startWord + section.words, section.startWord + section.words) - words
        return left > 0 ? Int((Double(left) / max(1, speed)).rounded(.up)) : nil
    }

    /// The words before the top of the page, its paragraph's lines above
    /// it counted: what a page turned has read, for the reading speed.
    public var wordsBeforeTop: Int? {
        guard let passage else { return nil }
        if passage.lines.indices.contains(topLine), passage.lines[topLine].block == top.block {
            return passage.words(beforeLine: topLine)
        }
        return passage.words(before: top.block)
    }

    /// The innermost section the top of the page is in.
    public var section: OutlineEntry? {
        map?.outline.last { $0.section.firstBlock <= top.block }
    }

    /// The blocks to read from the cache for the page to be shown, or nil
    /// when the passage holds the page and a screen's margin each way.
    public func blocksToRead(columns: Int, height: Int) -> Range<Int>? {
        guard let map, map.blockCount > 0 else { return nil }
        let column = column(for: columns)
        let block = min(max(0, top.block), map.blockCount - 1)
        if let passage, passage.width == column, (passage.firstBlock..<passage.endBlock).contains(block) {
            let before = topLine
            let after = passage.lines.count - topLine
            let roomBefore = before >= height || passage.firstBlock == 0
            let roomAfter = after >= 2 * height || passage.endBlock >= map.blockCount
            if roomBefore && roomAfter && !wantsEnd { return nil }
            if wantsEnd && passage.endBlock >= map.blockCount { return nil }
        }
        if wantsEnd { return max(0, map.blockCount - max(40, 2 * height))..<map.blockCount }
        let back = max(40, 2 * height), ahead = max(160, 6 * height)
        return max(0, block - back)..<min(map.blockCount, block + ahead)
    }

    /// The blocks the page needs laid out: those the passage holds while
    /// it holds the page and a screen's margin each way, else new ones.
    public func passageBlocks(columns: Int, height: Int) -> Range<Int>? {
        blocksToRead(columns: columns, height: height) ?? passage.map { $0.firstBlock..<$0.endBlock }
    }

    /// A passage read for the page: the top found in it again (the same
    /// block, the line holding the same place in it).
    public mutating func show(_ passage: ReaderPassage, height: Int) {
        self.passage = passage
        if wantsEnd {
            topLine = max(0, passage.lines.count - height)
            wantsEnd = false
            clampTop(height: height)
            return
        }
        topLine = passage.lines.lastIndex { $0.block == top.block && $0.offset <= top.offset }
            ?? passage.lines.firstIndex { $0.block >= top.block } ?? 0
        // Of lines at the same place (a block's blank line and its first), the first.
        while topLine > 0, passage.lines[topLine - 1].block == passage.lines[topLine].block,
              passage.lines[topLine - 1].offset == passage.lines[topLine].offset {
            topLine -= 1
        }
        // The place itself stays as it was, unless the text ends before a
        // page from it: a width and back finds the same line again.
        let place = top
        clampTop(height: height)
        if passage.lines.indices.contains(topLine), passage.lines[topLine].block == place.block, passage.lines[topLine].offset <= place.offset {
            top = place
        }
    }

    /// Moves the top by `lines`, within the text.
    public mutating func move(by lines: Int, height: Int) {
        topLine += lines
        clampTop(height: height)
    }

    private mutating func clampTop(height: Int) {
        guard let passage, let map else { return }
        let last = passage.endBlock >= map.blockCount ? max(0, passage.lines.count - height) : max(0, passage.lines.count - 1)
        topLine = max(0, min(topLine, last))
        if passage.lines.indices.contains(topLine) {
            let line = passage.lines[topLine]
            top = TextPosition(block: line.block, offset: line.offset)
        }
    }

    /// Goes to a block: at once when the passage holds it, else once the
    /// session has read one that does.
    public mutating func go(toBlock block: Int, offset: Int = 0, height: Int, recordsJump: Bool = true) {
        if top.block != block, recordsJump { jumped() }
        top = TextPosition(block: max(0, block), offset: max(0, offset))
        wantsEnd = false
        guard let passage, passage.lines.contains(where: { $0.block >= block }), block < passage.endBlock, block >= passage.firstBlock else {
            topLine = 0
            return
        }
        show(passage, height: height)
    }

    /// A jump leaves from the top of the page: `''` and Ctrl-O come back.
    public mutating func jumped() {
        previous = top
        jumps.record(top)
    }

    /// What `'` or `A` lists.
    public var listedMarks: [Bookmark] { listsNotes ? notes : bookmarks }

    /// The section after the one the top is in, or the one before (or the
    /// start of this one, from inside it).
    public func sectionStart(next: Bool) -> Int? {
        guard let outline = map?.outline else { return nil }
        if next { return outline.first { $0.section.firstBlock > top.block }?.section.firstBlock }
        let current = outline.last { $0.section.firstBlock <= top.block }
        if let current, current.section.firstBlock < top.block || top.offset > 0 || topLine > firstLine(of: current.section.firstBlock) {
            return current.section.firstBlock
        }
        return outline.last { $0.section.firstBlock < top.block }?.section.firstBlock ?? 0
    }

    private func firstLine(of block: Int) -> Int {
        passage?.lines.firstIndex { $0.block >= block } ?? 0
    }
}
