import struct FoundationEssentials.Date

/// Which of a book's files a text was made from: Gutenberg's HTML edition
/// (whose markup says where the chapters are) or its plain text.
public enum TextEdition: String, CaseIterable, Sendable {
    case html
    case text

    /// The edition a file at `url` is: Gutenberg names every HTML edition
    /// `….html.images`, `pgN-images.html` or `N-h.htm`, and no plain text so.
    public init(url: String) {
        let path = url.lowercased().split(separator: "?").first ?? ""
        self = path.includes(".htm") ? .html : .text
    }
}

/// What the cache knows of a downloaded text without reading it.
public struct TextInfo: Equatable, Sendable {
    public var ref: ItemRef
    /// The URL of the record's format it was downloaded from.
    public var url: String
    public var encoding: String
    public var fetchedAt: Date
    /// When `read` last showed it; nil if never.
    public var readAt: Date?
    /// The file's size as downloaded, and what the cache spends on it.
    public var originalBytes: Int
    public var storedBytes: Int
    public var sectionCount: Int
    public var wordCount: Int
    /// Its edition's pictures: kept (their bytes are in `storedBytes`),
    /// skipped, or still to fetch.
    public var pictures: TextPictureCount
    /// Where its sections were found; nil for none, or a text kept before
    /// comics said.
    public var outlineOrigin: OutlineOrigin?
    /// The edition passed over for this one (an HTML edition that marks
    /// no chapters), if any.
    public var passedOver: TextEdition?

    public var edition: TextEdition { TextEdition(url: url) }

    /// Whether both describe one download of the text: all but when it was
    /// last read, which the reader changes at every page it saves.
    public func isSameDownload(as other: TextInfo) -> Bool {
        var other = other
        other.readAt = readAt
        return self == other
    }

    public init(
        ref: ItemRef, url: String, encoding: String, fetchedAt: Date, readAt: Date? = nil, originalBytes: Int,
        storedBytes: Int = 0, sectionCount: Int, wordCount: Int, pictures: TextPictureCount = TextPictureCount(),
        outlineOrigin: OutlineOrigin? = nil, passedOver: TextEdition? = nil
    ) {
        self.ref = ref
        self.url = url
        self.encoding = encoding
        self.fetchedAt = fetchedAt
        self.readAt = readAt
        self.originalBytes = originalBytes
        self.storedBytes = storedBytes
        self.sectionCount = sectionCount
        self.wordCount = wordCount
        self.pictures = pictures
        self.outlineOrigin = outlineOrigin
        self.passedOver = passedOver
    }
}

extension TextStore {
    /// Replaces any earlier text of the book, in one transaction.
    public func saveText(_ content: BookContent, outline: [OutlineEntry], info: TextInfo) throws {
        _ = try saveText(content.blocks, of: info.ref) { FinishedText(content: content, outline: outline, info: info) }
    }
}

/// A downloaded text as stored: its blocks and sections, its contents,
/// and what the cache says of it.
public struct FinishedText: Sendable {
    public var content: BookContent
    public var outline: [OutlineEntry]
    public var info: TextInfo

    public init(content: BookContent, outline: [OutlineEntry], info: TextInfo) {
        self.content = content
        self.outline = outline
        self.info = info
    }
}

/// One line of a text's table of contents, with what `toc` shows of it.
public struct OutlineEntry: Equatable, Sendable {
    /// 1-based, in reading order: what `--section` takes.
    public var number: Int
    public var section: TextSection
    /// Words before the section begins, and in it (nested ones included).
    public var startWord: Int
    public var words: Int

    public init(number: Int, section: TextSection, startWord: Int, words: Int) {
        self.number = number
        self.section = section
        self.startWord = startWord
        self.words = words
    }
}

/// Where a person stopped in a book, kept apart from the text: it outlives
/// the text's removal and survives a new edition (`anchor` finds the same
/// paragraph in it).
public struct ReadingPosition: Equatable, Sendable {
    public var position: TextPosition
    /// The first words of the block, to find it again in another edition.
    public var anchor: String
    /// How far into the book, 0–100, for when the anchor is not found.
    public var percent: Double
    /// The 1-based section it is in, if any.
    public var section: Int?
    public var at: Date

    public init(position: TextPosition, anchor: String, percent: Double, section: Int?, at: Date) {
        self.position = position
        self.anchor = anchor
        self.percent = percent
        self.section = section
        self.at = at
    }
}

/// A place in a book a person marked, with the name they gave it (the
/// section's title at first).
public struct Bookmark: Equatable, Sendable {
    /// The most a book keeps (a key held down must not fill the disk) and
    /// the most read back (a file may hold more).
    public static let limit = 1_000

    /// Numbers run from 1 to this (a row numbered past it is not read).
    public static let highestNumber = Int(Int32.max)

    public var number: Int
    public var position: TextPosition
    /// The block's first words, to find it again in another edition.
    public var anchor: String
    /// How far into the book, 0–100, for an edition without that block.
    public var percent: Double
    public var name: String
    public var at: Date
    /// What a person wrote on the paragraph (`a` in the reader): a note,
    /// listed apart from the bookmarks.
    public var note: String?

    /// The most of a note that is kept.
    public static let maximumNoteLength = 4_000

    public init(number: Int, position: TextPosition, anchor: String, percent: Double, name: String, at: Date, note: String? = nil) {
        self.number = number
        self.position = position
        self.anchor = anchor
        self.percent = percent
        self.name = name
        self.at = at
        self.note = note
    }
}

/// A run of a text's blocks, and how many words come before it (for how
/// far into the book a place in it is).
public struct TextPassage: Equatable, Sendable {
    public var firstBlock: Int
    public var blocks: [TextBlock]
    public var wordsBefore: Int

    public init(firstBlock: Int, blocks: [TextBlock], wordsBefore: Int) {
        self.firstBlock = firstBlock
        self.blocks = blocks
        self.wordsBefore = wordsBefore
    }

    public var endBlock: Int { firstBlock + blocks.count }

    /// The block at a text's block index, if the passage holds it.
    public func block(_ index: Int) -> TextBlock? {
        blocks.indices.contains(index - firstBlock) ? blocks[index - firstBlock] : nil
    }

    /// The words before block `index` of the text (one the passage holds).
    public func words(before index: Int) -> Int {
        wordsBefore + blocks.prefix(max(0, min(blocks.count, index - firstBlock))).reduce(0) { $0 + $1.wordCount }
    }
}

/// A block of a downloaded text that a search matched.
public struct TextHit: Equatable, Sendable {
    public var ref: ItemRef
    public var block: Int
    /// Words around the match, the matched ones between `SearchMatch` markers.
    public var snippet: String
    /// How far into the book the block begins, 0–100.
    public var percent: Double

    public init(ref: ItemRef, block: Int, snippet: String, percent: Double) {
        self.ref = ref
        self.block = block
        self.snippet = snippet
        self.percent = percent
    }
}

/// What the downloaded texts cost, for `info`.
public struct TextUsage: Equatable, Sendable {
    public var texts = 0
    /// The files as downloaded, and what the cache spends on them.
    public var bytes = 0
    public var storedBytes = 0
    /// Books with a place where reading stopped.
    public var positions = 0
    /// Texts made from an HTML edition (the others from a plain text).
    public var htmlEditions = 0

    public init() {}
}

/// The texts part of the cache: books' texts, their outlines, and the
/// places people stopped reading.
public protocol TextStore: AnyObject {
    /// Replaces any earlier text of `ref`, in one transaction. The words of
    /// the draft's blocks are indexed on this thread while `finish`, on
    /// another, outlines it. What `finish` gives is stored and returned;
    /// when it gives nil, nothing is.
    func saveText(_ draft: [TextBlock], of ref: ItemRef, finishing finish: @escaping @Sendable () -> FinishedText?) throws -> FinishedText?
    func textInfo(_ ref: ItemRef) throws -> TextInfo?
    func textInfos() throws -> [TextInfo]
    /// The downloaded texts among `refs` (a screen of rows, not every text).
    func textInfos(_ refs: [ItemRef]) throws -> [TextInfo]
    /// The text's blocks and sections; nil when none is downloaded.
    func textContent(_ ref: ItemRef) throws -> BookContent?
    /// Blocks `first` up to `end` (nil: the last) alone, the others not
    /// decoded: one section of a long book costs a fraction of the whole.
    func textPassage(_ ref: ItemRef, from first: Int, upTo end: Int?) throws -> TextPassage?
    /// The first block with at least `word` words before it (the last
    /// block when none has): a place asked for as a share of the book is
    /// never shown as less.
    func textBlock(_ ref: ItemRef, atWord word: Int) throws -> Int?
    /// How many blocks the text has, without decoding them all.
    func textBlockCount(_ ref: ItemRef) throws -> Int?
    func outline(_ ref: ItemRef) throws -> [OutlineEntry]
    func textUsage() throws -> TextUsage
    func removeTexts(_ refs: [ItemRef]) throws
    /// The pictures of a text's edition, replacing those of any other.
    func replacePictures(_ ref: ItemRef, _ pictures: [TextPicture]) throws
    /// The text's pictures in reading order, without their bytes.
    func pictures(_ ref: ItemRef) throws -> [TextPicture]
    /// A picture fetched (`body` with `.kept`), skipped or failed.
    func updatePicture(_ ref: ItemRef, path: String, state: TextPicture.State, body: [UInt8]?) throws
    /// A kept picture's bytes.
    func pictureBytes(_ ref: ItemRef, path: String) throws -> [UInt8]?
    /// The sizes of the pictures among `paths` that are kept.
    func pictureSizes(_ ref: ItemRef, paths: [String]) throws -> [String: PictureSize]
    func readingPosition(_ ref: ItemRef) throws -> ReadingPosition?
    func readingPositions(_ refs: [ItemRef]) throws -> [ItemRef: ReadingPosition]
    func allReadingPositions() throws -> [ItemRef: ReadingPosition]
    /// A book's bookmarks, in the order they were made.
    func bookmarks(_ ref: ItemRef) throws -> [Bookmark]
    /// Adds one, numbered after the last; returns it with its number.
    func addBookmark(_ ref: ItemRef, _ bookmark: Bookmark) throws -> Bookmark
    func renameBookmark(_ ref: ItemRef, number: Int, to name: String) throws
    func setNote(_ ref: ItemRef, number: Int, to note: String) throws
    /// Every book's notes, a book's in the order they were written.
    func allNotes() throws -> [(ref: ItemRef, note: Bookmark)]
    func removeBookmark(_ ref: ItemRef, number: Int) throws
    /// A bookmark found again at another place (in a new edition).
    func moveBookmark(_ ref: ItemRef, number: Int, to position: TextPosition) throws
    /// Where reading stopped, and that its text (if cached) was read then:
    /// one write, as the reader saves at every page.
    func setReadingPosition(_ ref: ItemRef, _ position: ReadingPosition) throws
    /// Blocks holding the query (the same language as `search`), best
    /// first, in one book or in every downloaded text; with how many match.
    func searchTexts(_ query: String, in ref: ItemRef?, limit: Int) throws -> (hits: [TextHit], total: Int)
    /// Every block of one text that holds the query, in reading order
    /// (the reader's n and N go through them).
    func textMatches(_ query: String, in ref: ItemRef) throws -> [Int]
}
