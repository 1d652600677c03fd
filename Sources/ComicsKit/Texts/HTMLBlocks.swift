import CHTML

/// A Project Gutenberg HTML edition read as a stream of tags and text
/// (libxml2's HTML parser, network off, recovering from any markup) into
/// the blocks the plain-text rules make, with the headings the markup
/// marks and the links of the book's own contents list. Nothing is kept
/// as a tree: memory is the blocks, time is linear in the file.
struct HTMLBlocks {
    /// One thing the walk met, in reading order.
    enum Item: Sendable {
        case block(TextBlock)
        /// `h1`…`h6`: its tag's level and its lines (split at `<br>`).
        case heading(tagLevel: Int, lines: [String])

        var isHeading: Bool {
            if case .heading = self { return true }
            return false
        }

        var isFootnote: Bool {
            if case let .block(block) = self { return block.kind == .footnote }
            return false
        }
    }

    var items: [Item] = []
    /// Anchor ids (`id`, `name`) and the item that holds them (or the
    /// next one, for an anchor between items).
    var anchors: [String: Int] = [:]
    /// How much text came before each anchor, and before each heading
    /// began: an anchor with no text between it and a heading names it.
    var textBeforeAnchor: [String: Int] = [:]
    var textBeforeHeading: [Int: Int] = [:]
    /// The targets of the internal links of blocks that are mostly links
    /// (the contents list), in order; those blocks are not kept.
    var contentsTargets: [String] = []
    /// How deep each of `contentsTargets` stands in its list: the lists it
    /// is nested in, and the indent its classes give (`toc2`, `indent1`).
    var contentsDepths: [Int] = []
    /// Whether each of `contentsTargets`' entries gives a page, as a
    /// printed contents does for what it lists but not for the parts
    /// that hold them (a link to a page's anchor, a number after its links).
    var contentsGivesPage: [Bool] = []
    /// Whether each of `contentsTargets`' links is set in bold whole, as a
    /// list sets the parts that hold the entries in plain type after them.
    var contentsBold: [Bool] = []
    /// Whether each of `contentsTargets`' lists is a list of illustrations
    /// (its title says so): its entries name pictures, not sections.
    var contentsNamePictures: [Bool] = []
    /// The rows of contents lists that no link makes an entry: the titles
    /// of the divisions that hold the entries after them (`I. Meinungen
    /// einiger Schriftsteller …` over its paragraphs' entries).
    var contentsGroupTitles: [String] = []
    /// Whether each of `contentsTargets` is a page a contents printed at
    /// the end lists in the book's order (an index lists its pages in the
    /// alphabet's).
    var contentsListedInOrder: [Bool] = []
    /// Which list each of `contentsTargets` stands in, counted from 0.
    var contentsLists: [Int] = []
    /// Where each of `contentsTargets`' entries stands: the items before it.
    var contentsPlaces: [Int] = []
    /// The words of each of `contentsTargets`' links (`CHAPTER I.`).
    var contentsLabels: [String] = []
    /// Links to other HTML files beside this one (`ii.html#canto3`): an
    /// edition split into files links to them from an index.
    var linksToOtherFiles = 0
    /// The internal links in each paragraph's text (by item), read after
    /// the walk as references to notes (`[1]` pointing at `#Footnote_1`).
    var linksInParagraphs: [Int: [InternalLink]] = [:]
    /// The anchors of the notes each heading refers to (by item), as a
    /// paragraph's link holds them.
    var headingNotes: [Int: String] = [:]
    /// The lines of each heading whose marks reach notes, without them:
    /// its section's title.
    var headingTitles: [Int: [String]] = [:]

    /// A link to a place in the same file, as a paragraph holds it.
    struct InternalLink {
        var target: String
        /// Its words are a mark (`[1]`, `*`, `(a)`, `12`), as a note's
        /// reference is, and as a note's way back to it is.
        var isMark: Bool
        /// Its words stand between `markOpen` and `markClose` in the
        /// paragraph's text, to be written `[label]` if it is a note's.
        var isWrapped = false
        /// Its words are a word of the text (`later`, `vroeger`), though
        /// short as a mark: a cross-reference, even where the paragraph it
        /// points to points back (`earlier`).
        var isWord = false
    }

    /// Around a mark's words while the walk cannot yet tell whether it
    /// refers to a note (noncharacters: the text's own are taken out).
    static let markOpen = Unicode.Scalar(UInt32(0xFDD0))!
    static let markClose = Unicode.Scalar(UInt32(0xFDD1))!

    /// `text` without the wrapping of its marks: the words a reader sees.
    static func unwrapped(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != markOpen && $0 != markClose }))
    }
    /// The items whose text holds wrapped marks.
    var itemsWithMarks = Set<Int>()

    /// The most visible characters a note's mark has: `[12]`, `(*)`,
    /// `return` (a note's way back).
    static let maximumMarkCharacters = 6

    static let maximumItems = 2_000_000
    /// The most one paragraph gathers (past it, it is cut between two words),
    /// and the most a flood's paragraphs are joined into.
    static let maximumProseBytes = 64 * 1024
    static let maximumDepth = 256

    /// Reads `text` (UTF-8, already decoded) as HTML.
    static func read(_ text: String) -> HTMLBlocks {
        let walker = HTMLWalker()
        var callbacks = comics_html_callbacks(
            start: { context, name, attributes in
                guard let context, let name else { return }
                Unmanaged<HTMLWalker>.fromOpaque(context).takeUnretainedValue().start(String(cString: name), attributes)
            },
            end: { context, name in
                guard let context, let name else { return }
                Unmanaged<HTMLWalker>.fromOpaque(context).takeUnretainedValue().end(String(cString: name))
            },
            characters: { context, bytes, length in
                guard let context, let bytes, length > 0 else { return }
                bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    Unmanaged<HTMLWalker>.fromOpaque(context).takeUnretainedValue()
                        .characters(UnsafeBufferPointer(start: $0, count: Int(length)))
                }
            })
        let parsed = withExtendedLifetime(walker) {
            var text = text
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    comics_html_parse(chars.baseAddress, chars.count, &callbacks, Unmanaged.passUnretained(walker).toOpaque())
                }
            }
        }
        // A parse cut short (memory ran out) gives nothing rather than a
        // book that silently stops half way.
        guard parsed == 0 else { return HTMLBlocks() }
        walker.finish()
        var result = walker.result
        result.findNotesByTheirLinks()
        result.writeMarks()
        result.linkReferencesToNotes()
        return result
    }

    /// A mark whose link reaches a note is written `[label]`, whatever its
    /// style (`¹`, `(*)`, `†`, `[<a>1</a>]`): the reader's Tab stops at it
    /// and finds its note by it. Any other keeps its words.
    private mutating func writeMarks() {
        for index in itemsWithMarks.sorted() where items.indices.contains(index) {
            let reachesNote = (linksInParagraphs[index] ?? []).filter(\.isWrapped).map { link in
                anchors[link.target].map { items.indices.contains($0) && items[$0].isFootnote } ?? false
            }
            switch items[index] {
            case let .block(block):
                // Made anew: the words are counted again.
                items[index] = .block(TextBlock(block.kind, Self.writingMarks(in: block.text, reachesNote: reachesNote), link: block.link))
            case let .heading(tagLevel, lines):
                let joined = lines.joined(separator: "\n")
                let written = Self.writingMarks(in: joined, reachesNote: reachesNote)
                items[index] = .heading(tagLevel: tagLevel, lines: written.split(separator: "\n").map(String.init))
                let title = Self.writingMarks(in: joined, reachesNote: reachesNote, asTitle: true)
                if title != written { headingTitles[index] = title.split(separator: "\n").map(String.init) }
            }
        }
        itemsWithMarks = []
    }

    /// `text` with each wrapped mark written `[label]` where `reachesNote`
    /// says so (in order; past its end, no), brackets around it taken in;
    /// as it was otherwise. A section's title (`asTitle`) leaves such marks
    /// out: a mark is the heading's, its note no part of what it is called.
    static func writingMarks(in text: String, reachesNote: [Bool], asTitle: Bool = false) -> String {
        let scalars = Array(text.unicodeScalars)
        var written = String.UnicodeScalarView()
        var index = 0
        var ordinal = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == markClose { continue }
            guard scalar == markOpen else {
                written.append(scalar)
                continue
            }
            guard let close = scalars[index...].firstIndex(where: { $0 == markOpen || $0 == markClose }), scalars[close] == markClose else {
                continue
            }
            let words = String(String.UnicodeScalarView(scalars[index..<close]))
            index = close + 1
            let bare = markLabel(words.trimmingWhitespace())
            defer { ordinal += 1 }
            guard ordinal < reachesNote.count, reachesNote[ordinal], NoteMarks.isLabel(bare) else {
                written.append(contentsOf: words.unicodeScalars)
                continue
            }
            // `[<a>1</a>]` and `(<a>*</a>)`: the brackets are the mark's.
            if let opener = written.last, let closer = closing[opener], index < scalars.count, scalars[index] == closer {
                written.removeLast()
                index += 1
            }
            if !asTitle { written.append(contentsOf: "[\(bare)]".unicodeScalars) }
        }
        return String(written)
    }

    private static let closing: [Unicode.Scalar: Unicode.Scalar] = ["[": "]", "(": ")"]

    /// The contents indent an inline style gives (`margin-left: 3em`,
    /// `padding-left: 32px`): its ems, a pixel as a sixteenth of one.
    /// Shares of the page and negative (hanging) margins give none.
    static func styleIndent(_ style: String) -> Int {
        let style = style.lowercased()
        guard style.contains("-left") else { return 0 }
        var indent = 0
        for declaration in style.split(separator: ";").prefix(32) {
            let parts = declaration.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, ["margin-left", "padding-left"].contains(parts[0].trimmingWhitespace()) else { continue }
            let value = parts[1].trimmingWhitespace()
            let number = value.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard let amount = Double(number.prefix(8)), amount > 0 else { continue }
            let ems: Double
            switch value.dropFirst(number.count).trimmingWhitespace() {
            case "em", "rem": ems = amount
            case "px": ems = amount / 16
            case "ex", "ch": ems = amount / 2
            default: continue
            }
            indent = max(indent, min(12, Int(ems.rounded())))
        }
        return indent
    }

    /// A page's number in figures (`15`, `203`).
    static func isFigures(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace()
        return !trimmed.isEmpty && trimmed.count <= 5 && trimmed.allSatisfy { ("0"..."9").contains($0) }
    }

    /// A note's label written out before its way back (`Footnote 1:`,
    /// `Note 12.`, `[3]`).
    static func isNoteLabel(_ text: String) -> Bool {
        var label = Substring(text.trimmingWhitespace())
        while let last = label.last, last == ":" || last == "." { label = label.dropLast() }
        let words = label.split(separator: " ")
        if words.count == 2, ["footnote", "note", "anmerkung", "fußnote", "nota", "noot", "huomautus"].contains(words[0].lowercased()) {
            return NoteMarks.isLabel(unbracketed(String(words[1])))
        }
        return words.count == 1 && NoteMarks.isLabel(markLabel(String(label)))
    }

    /// A note's label in brackets (`[238]`, `(*)`), as a reference's mark
    /// is written.
    static func isBracketedMark(_ text: String) -> Bool {
        let written = text.trimmingWhitespace()
        let label = unbracketed(written)
        return label != written && NoteMarks.isLabel(label)
    }

    /// A note's number (`711`, `71b`): figures, a letter after them at
    /// most; no numeral a chapter's entry would give (`I.`, `12.`).
    static func isNumberedNoteLabel(_ text: String) -> Bool {
        let label = text.trimmingWhitespace()
        let figures = label.prefix { ("0"..."9").contains($0) }
        let rest = label.dropFirst(figures.count)
        return !figures.isEmpty && figures.count <= 4 && (rest.isEmpty || (rest.count == 1 && rest.allSatisfy { ("a"..."z").contains($0) }))
    }

    /// A mark's label without the one pair of brackets around it: `[1]`,
    /// `(*)`, `{a}`.
    static func unbracketed(_ label: String) -> String {
        guard let first = label.first, let last = label.last, label.count > 2,
              (first == "[" && last == "]") || (first == "(" && last == ")") || (first == "{" && last == "}")
        else { return label }
        return String(label.dropFirst().dropLast()).trimmingWhitespace()
    }

    /// Three letters or more and no numeral (`later`, not `iii`).
    static func isWord(_ text: String) -> Bool {
        let word = text.trimmingWhitespace()
        return word.count >= 3 && word.allSatisfy(\.isLetter) && HeadingPattern.romanValue(word, lowercaseToo: true) == nil
    }

    /// A mark's label: `[12]` and `(*)` unbracketed, and `12)` as German
    /// and Dutch books write it.
    static func markLabel(_ written: String) -> String {
        let label = unbracketed(written)
        guard label == written, written.count > 1, written.last == ")", !written.contains("(") else { return label }
        return String(written.dropLast()).trimmingWhitespace()
    }

    /// The most references to notes one paragraph keeps.
    static let maximumReferences = 64

    /// A paragraph that a reference's mark links to, after the reference,
    /// is a note whatever its markup says: when it links back to the
    /// paragraph with the reference (its label, or a "return"), or when
    /// the anchor names a note (`fn3`, `note-12`, `Fodnote_1`).
    private mutating func findNotesByTheirLinks() {
        var bodiesAfterNotes: [Int: (body: String, links: [InternalLink])] = [:]
        for (index, links) in linksInParagraphs.sorted(by: { $0.key < $1.key }) {
            for link in links where link.isMark {
                guard let note = anchors[link.target], note > index, case let .block(block) = items[note],
                      block.kind == .prose || block.kind == .lines
                else { continue }
                let linksBack = !link.isWord && linksInParagraphs[note]?.contains { anchors[$0.target] == index } ?? false
                guard linksBack || Self.namesANote(link.target) else { continue }
                var text = block.kind == .lines ? block.text.split(separator: "\n").joined(separator: " ") : block.text
                if let split = Self.bodyRunOnAfterNote(text) {
                    let marksInNote = split.note.unicodeScalars.lazy.filter { $0 == Self.markOpen }.count
                    let wrapped = (linksInParagraphs[note] ?? []).filter(\.isWrapped)
                    bodiesAfterNotes[note] = (split.body, Array(wrapped.dropFirst(marksInNote)))
                    text = split.note
                }
                items[note] = .block(TextBlock(.footnote, text, link: TerminalText.sanitize(link.target, singleLine: true)))
                linksInParagraphs[note] = nil
            }
        }
        insertParagraphs(after: bodiesAfterNotes)
    }

    /// A note whose words are bracketed (`52 [ Spanheim … &c.]`) and whose
    /// paragraph goes on past the bracket with references to further notes
    /// (`It was once proposed … 53 Without …`): the edition ran the book's
    /// own paragraph on after its note, as its plain text does. The note
    /// ends at its bracket; the rest is the book's.
    static func bodyRunOnAfterNote(_ text: String) -> (note: String, body: String)? {
        guard let open = text.firstIndex(of: "["), isNoteLabel(String(text[..<open])) || text[..<open].allSatisfy(\.isWhitespace),
              let close = NoteMarks.endOfBracket(in: text[open...])
        else { return nil }
        let body = text[text.index(after: close)...].trimmingWhitespace()
        guard body.unicodeScalars.contains(markOpen) else { return nil }
        return (String(text[...close]), body)
    }

    /// Each of `bodies` made a paragraph after the item it is keyed by,
    /// with its links; what the walk keeps by item follows its item.
    private mutating func insertParagraphs(after bodies: [Int: (body: String, links: [InternalLink])]) {
        guard !bodies.isEmpty else { return }
        let before = bodies.keys.sorted()
        /// An item's place once the paragraphs before it are in.
        func moved(_ index: Int) -> Int {
            var low = 0, high = before.count
            while low < high {
                let middle = (low + high) / 2
                if before[middle] < index { low = middle + 1 } else { high = middle }
            }
            return index + low
        }
        var placed: [Item] = []
        placed.reserveCapacity(items.count + bodies.count)
        for (index, item) in items.enumerated() {
            placed.append(item)
            if let body = bodies[index] { placed.append(.block(TextBlock(.prose, body.body))) }
        }
        items = placed
        anchors = anchors.mapValues(moved)
        textBeforeHeading = Dictionary(uniqueKeysWithValues: textBeforeHeading.map { (moved($0.key), $0.value) })
        linksInParagraphs = Dictionary(uniqueKeysWithValues: linksInParagraphs.map { (moved($0.key), $0.value) })
        itemsWithMarks = Set(itemsWithMarks.map(moved))
        for (note, body) in bodies {
            linksInParagraphs[moved(note) + 1] = body.links
            itemsWithMarks.insert(moved(note) + 1)
        }
    }

    /// A page's number in braces (`{7}`, `{xiv}`) or after a page's word in
    /// brackets (`[Pg 7]`, `(p. 12)`): a number in brackets alone (`[7]`)
    /// is as often a note's mark.
    static func isWrittenPageNumber(_ text: String) -> Bool {
        let written = text.trimmingWhitespace().lowercased()
        guard let first = written.first, let last = written.last, written.count >= 3 else { return false }
        let inside = written.dropFirst().dropLast()
        let number: Substring
        switch (first, last) {
        case ("{", "}"): number = inside.drop { $0.isWhitespace }
        case ("[", "]"), ("(", ")"):
            number = HTMLWalker.pageNumberAfterWord(inside)
            guard number.count < inside.count, inside.first?.isLetter == true else { return false }
        default: return false
        }
        var bare = number
        while let end = bare.last, end.isWhitespace || end == "." { bare = bare.dropLast() }
        return !bare.isEmpty && bare.count <= 8 && (bare.allSatisfy { ("0"..."9").contains($0) } || bare.allSatisfy { "ivxlcdm".contains($0) })
    }

    /// `Page_12`, `page-xiv`, `pg012`, `p12a`: an anchor's name that names
    /// a page of the print.
    static func namesAPage(_ anchor: String) -> Bool {
        var rest = Substring(anchor.lowercased())
        guard let prefix = ["page", "pag", "pg", "seite", "sivu", "p"].first(where: { rest.hasPrefix($0) }) else { return false }
        rest = rest.dropFirst(prefix.count)
        if let first = rest.first, "_-.".contains(first) { rest = rest.dropFirst() }
        if let last = rest.last, last.isLetter, !"ivxlcdm".contains(last) { rest = rest.dropLast() }
        return !rest.isEmpty && rest.count <= 8 && (rest.allSatisfy { ("0"..."9").contains($0) } || rest.allSatisfy { "ivxlcdm".contains($0) })
    }

    /// Text ending in a page's number: figures or a small roman numeral
    /// (`9`, `pag. 9.`, `… xiv`, not `il`) after a space or a stop, or alone.
    static func endsWithPageNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] <= 0x20 || bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        var start = end
        let isDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
        let isRoman: (UInt8) -> Bool = { "ivxlcdm".utf8.contains($0) }
        let figures = start > 0 && isDigit(bytes[start - 1])
        while start > 0, (figures ? isDigit : isRoman)(bytes[start - 1]) { start -= 1 }
        guard start < end, start == 0 || bytes[start - 1] <= 0x20 || bytes[start - 1] == UInt8(ascii: ".") || bytes[start - 1] >= 0x80
        else { return false }
        let number = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return figures || HeadingPattern.romanValue(number, lowercaseToo: true) != nil
    }

    /// A link's words that lead back to the contents or the top (`ToC`,
    /// `Back to Contents`, `Go to top`), as editions set under headings.
    static func isWayBackToContents(_ label: String) -> Bool {
        let words = label.lowercased().split { !$0.isLetter }
        guard let last = words.last, ["top", "toc", "contents"].contains(last), words.count <= 4 else { return false }
        return words.dropLast().allSatisfy { ["go", "goto", "to", "back", "return", "the", "table", "of"].contains($0) }
    }

    /// An anchor whose name says it is a note's.
    static func namesANote(_ anchor: String) -> Bool {
        let name = anchor.lowercased()
        return name.includes("note") || name.includes("foot") || name.includes("fodnote") || name.hasPrefix("fn")
    }

    /// Each paragraph that links to notes gets their anchors (each note's
    /// own, whichever of its anchors the link named), space-separated, as
    /// its link, and each heading as its `headingNotes`: the reader finds a
    /// reference's note by them.
    private mutating func linkReferencesToNotes() {
        for (index, targets) in linksInParagraphs.sorted(by: { $0.key < $1.key }) {
            var notes: [String] = []
            var length = 0
            for target in targets.map(\.target) {
                guard let note = anchors[target], case let .block(noteBlock) = items[note], noteBlock.kind == .footnote,
                      let anchor = noteBlock.link, !notes.contains(anchor), length + anchor.utf8.count + 1 <= TextBlock.maximumLinkLength
                else { continue }
                notes.append(anchor)
                length += anchor.utf8.count + 1
            }
            guard !notes.isEmpty else { continue }
            switch items[index] {
            case var .block(block) where block.link == nil:
                block.link = notes.joined(separator: " ")
                items[index] = .block(block)
            case .heading:
                headingNotes[index] = notes.joined(separator: " ")
            case .block:
                break
            }
        }
        linksInParagraphs = [:]
    }
}

/// The walk itself: a stack of open elements and the text of the block
/// being gathered, as UTF-8 bytes (a book is millions of them: no String
/// is made until a block is done).
private final class HTMLWalker {
    var result = HTMLBlocks()

    /// What an open element makes of what is inside it.
    private struct Frame {
        var name: String
        var skipped = false
        var italic = false
        var smallCapitals = false
        var bold = false
        var verse = false
        var note = false
        var contents = false
        var figure = false
        var caption = false
        var link: String?
        /// Whether the link points further on (a contents entry does; a
        /// note's way back to its reference does not).
        var linkIsForward = false
        /// Whether it points back to a reference (a note's label, "return").
        var linkIsWayBack = false
        /// The visible characters before the link began.
        var linkStart = 0
        /// The visible characters in bold before the link began.
        var linkBoldStart = 0
        /// Where in the paragraph's text a link further on began: its
        /// words may be a note's mark, to be wrapped.
        var markStart: MarkStart?
        /// Where a link's words began in the text gathered.
        var wordsStart: MarkStart?
        var list = false
        /// An anchor that names a page (`Page_12`, `pg012`): a page
        /// number in it (`[pg 12]`, `{12}`) is the print's, not the text.
        var pageAnchor = false
        /// Where a page anchor's text began in a paragraph, and how many
        /// page numbers had gone before: a number the parser hands over in
        /// pieces (`[pg`, `&#160;`, `12]`) leaves its opening behind.
        var pageStart: MarkStart?
        var pageNumbersBefore = 0
        /// Where a classed element's text began in a paragraph: all of it a
        /// page's number written as one (`<span class="pn">{7}</span>`) is
        /// the print's.
        var classedStart: MarkStart?
        /// The contents indent open around it before it opened.
        var indentBefore = 0
        /// Where the words of a link to one of the edition's files (a
        /// score's page, a sound) began, in a heading.
        var fileLinkStart: Int?
    }

    /// A place in `lines`, while they hold the same block (`generation`).
    private struct MarkStart {
        var line: Int
        var byte: Int
        var generation: Int
    }

    /// A heading being gathered, apart from the block's text.
    private struct OpenHeading {
        var tagLevel: Int
        var lines: [[UInt8]] = [[]]
        var alt = ""
        var caption: [UInt8] = []
        var pictures = 0
        /// The first picture's address.
        var picture: String?
        /// How much text came before it began.
        var textBefore: Int
        /// Its links that read as marks: a note on the heading.
        var links: [HTMLBlocks.InternalLink] = []
        /// How many links the entry being read had when it began.
        var linksBefore = 0
        /// Its visible characters inside links to the edition's files.
        var fileLinkCharacters = 0
    }

    private var stack: [Frame] = []
    /// The text of the blocks so far, in bytes.
    private var textBytes = 0
    private var skippedDepth = 0
    private var verseDepth = 0
    private var noteDepth = 0
    /// The notes written in the outermost note's frame open.
    private var notesInNoteFrame = 0
    /// Elements open whose class says they hold the contents list.
    private var contentsClassDepth = 0
    private var smallCapitalsDepth = 0
    private var boldDepth = 0
    /// Visible characters written in bold so far.
    private var boldCharacters = 0
    /// The bracket that closes one a dropped way back opened (`13 (return)`).
    private var wayBackCloser: UInt8?
    /// A page reference's opening (`[Page ` before a link to a page's
    /// anchor), and the paragraph's links with its own.
    private var pageReference: (start: MarkStart, links: Int)?
    private var preDepth = 0
    private var tableDepth = 0
    /// How many page numbers in page anchors went so far.
    private var pageNumbersDropped = 0
    /// How many items there were when the outermost table began.
    private var itemsBeforeTable = 0
    private static let maximumGroupHeadings = 64
    private var figureDepth = 0
    private var captionDepth = 0
    private var linkDepth = 0
    private var pageAnchorDepth = 0
    private var forwardLinkDepth = 0

    /// The block being gathered: its lines (a `<br>` or a verse line
    /// starts a new one). Unchecked: the walk is one thread's, and these
    /// are passed `inout` for every piece of text.
    @exclusivity(unchecked) private var lines: [[UInt8]] = [[]]
    /// How many times `lines` were taken: a block's own count.
    private var generation = 0
    /// Marks wrapped since the last block was added.
    private var marksWrapped = 0
    @exclusivity(unchecked) private var pendingSpace = false
    private var italicOpen = false
    private var italicWritten = false
    private var linkCharacters = 0
    /// The gathering (its `generation`) that last linked to a sound or a
    /// score: a table's cell or a heading ends one without a block.
    private var soundLinkGeneration: Int?
    /// The most words a block linking to sounds or scores has and is
    /// still only their links and what the edition says of them.
    private static let mostWordsBesideSoundLinks = 40
    private var allCharacters = 0
    private var linkTargets: [String] = []
    private var linkLabels: [String] = []
    /// For each of `linkTargets`: the column its table row's first text
    /// stands in, when that text is the link (an indented row of a
    /// contents table leaves its first cells empty), nil elsewhere; the
    /// indent the classes open around it give (a row's `<td class="inset">`:
    /// a table's rows are taken together); whether its words are all in
    /// bold; and whether its entry gives a page, known once the entry ends.
    private var linkTargetPlaces: [(column: Int?, indent: Int, isBold: Bool, entryGivesPage: Bool, listedInOrder: Bool)] = []
    /// Where the open entry's links begin in `linkTargets`.
    private var entryLinksStart = 0
    /// The entry's last text outside links, after its last link, is a
    /// number (`Prologo … pag. 9`): the page it gives.
    private var numberAfterLinks = false
    /// The columns the open table row has opened so far (a cell spans
    /// its `colspan`), and the column the open cell began at.
    private var rowColumns = 0
    private var cellColumn = 0
    /// Of the entry being gathered (a block, a table's row): its internal
    /// links, and whether its text begins with one.
    private var linksInEntry = 0
    /// The contents indent the classes of the elements open around the
    /// walk give (`toc2` on a nested list's `div`): an entry after the
    /// nested list closes stands where the list's own entries stand.
    private var openIndent = 0
    /// The contents indent an element of the open table row gave, and
    /// the cell it stood in: a row's title indented in its cell (`<span
    /// style="margin-left: 2em">Floral Decorations</span>`) indents its
    /// page's link in a later one.
    private var rowCellIndent: (column: Int, indent: Int)?
    /// The lists (`ul`, `ol`, `dl`, `blockquote`) open around the walk.
    private var listDepth = 0
    private var sectionLinksInEntry = 0
    /// The tag of the contents title read last (ÍNDICE, TABLE DES
    /// MATIÈRES), until a heading as large ends what it heads, and the
    /// place in the book of the page its last entry links back to.
    private var contentsTitleLevel: Int?
    private var lastPageListed = -1
    /// Links of the entry further on whose words are more than a mark's.
    private var forwardTitleLinksInEntry = 0
    /// Links of the entry that are a note's mark in brackets (`[238]`),
    /// and those that are a note's number (`711`, `71b`).
    private var bracketedMarksInEntry = 0
    private var numberedMarksInEntry = 0
    /// Links of the entry that are a mark whose anchor names a note
    /// (`<a href="#linknote-1">1</a>`).
    private var noteMarksInEntry = 0
    private var startsWithLink: Bool?
    /// Whether the first letter outside links after the entry's first
    /// link is small: a sentence that goes on past the words its link
    /// names (`<a>First call</a> is the first signal …`), where an entry's
    /// title, number or summary begins anew.
    private var runsOnAfterFirstLink: Bool?
    /// The words of the entry's first link, when it leads further on and
    /// is no note's mark.
    private var firstLinkWords: String?
    /// Whether the entry begins with a link back (a contents printed at
    /// the end, `1re Leçon.--Exposition du but …`).
    private var startsWithLinkBack: Bool?
    /// Of the entry's lines (a `<br>` ends one): those with text, those
    /// that begin with a link further on, and whether the open one does.
    private var linesInEntry = 0
    private var linesStartingWithLink = 0
    /// Of the entry's groups of lines (a blank line ends one): those with
    /// text, those that begin with a link further on, and whether a blank
    /// line came last.
    private var groupsInEntry = 0
    private var groupsStartingWithLink = 0
    private var blankLineBefore = false
    private var lineStartsWithLink: Bool?
    /// Visible characters of the entry inside links back to a reference (a
    /// note's label): an entry of nothing else is a note's label alone.
    private var wayBackCharacters = 0
    /// The anchors of links, and of anchors with no text between them and
    /// a link: what a note's way back points to.
    private var referenceAnchors = Set<String>()
    /// The anchors met since the last visible text.
    private var anchorsSinceText: [String] = []
    /// A note's label in a paragraph of its own, waiting for its note's
    /// text (the next block), with the anchors that name the note and its
    /// links (the way back to its reference, which finds the note).
    private var pendingLabel: (text: String, links: [HTMLBlocks.InternalLink])?
    private var tableRowCount = 0
    private var tableContentsRows = 0
    /// Anchors met since the last item: they name the next one.
    private var pendingAnchors: [String] = []
    /// The anchors that name the last item.
    private var anchorsOfLastItem: [String] = []
    /// The internal links of the paragraph being gathered.
    private var paragraphLinks: [HTMLBlocks.InternalLink] = []
    /// Characters other than white space read so far, pictures' captions
    /// aside.
    private var visibleSoFar = 0

    @exclusivity(unchecked) private var heading: OpenHeading?
    /// A figure's caption, and its picture's item once its first picture
    /// is met: the picture stands where it stands, before the text set
    /// under it, and the caption is its text when the figure closes.
    @exclusivity(unchecked) private var figureCaption: [UInt8] = []
    private var figureItem: Int?
    private var figurePicture: String?
    /// A picture without words met where a paragraph's line begins: the
    /// picture itself when nothing follows it on its line, an initial's
    /// ornament when the paragraph's words run on after it.
    private var barePicture: String?
    /// The last picture outside a figure, by its item, and how deep the
    /// element holding it stands, while that is open: a caption set in it
    /// is the picture's.
    private var pictureContainer: (depth: Int, item: Int)?
    /// A table's rows, each its cells.
    private var tableRows: [String] = []
    private var tableCells: [String] = []
    /// The tables a table in a cell stands in, as they were when it began.
    private var outerTables: [OuterTable] = []

    private struct OuterTable {
        var rows: [String], rowCount: Int, contentsRows: Int, cells: [String], rowColumns: Int, cellColumn: Int
        /// The cell's text before the table in it.
        var text: String
    }

    private static let skippedNames: Set<String> = [
        "script", "style", "head", "title", "noscript", "template", "select", "textarea", "object", "iframe", "svg", "math",
        "button", "map",
    ]
    private static let blockNames: Set<String> = [
        "p", "div", "blockquote", "li", "ul", "ol", "dl", "dt", "dd", "section", "article", "body", "center", "address",
        "hr", "table", "tr", "pre", "figure", "figcaption", "header", "footer", "aside", "nav", "main", "h1", "h2", "h3",
        "h4", "h5", "h6", "caption", "tbody", "thead", "tfoot",
    ]
    private static let italicNames: Set<String> = ["i", "em", "cite", "var", "dfn"]

    private func meet(anchorsOf attributes: [String: String]) {
        for anchor in [attributes["id"], attributes["name"]].compactMap({ $0 }) where !anchor.isEmpty {
            // Every anchor met is known (a link to it goes back), however
            // many wait for an item to name.
            if result.textBeforeAnchor[anchor] == nil, result.textBeforeAnchor.count < Self.maximumLinkTargets {
                result.textBeforeAnchor[anchor] = visibleSoFar
            }
            // The newest name the next item (a long contents list's own
            // anchors wait with it, and give way).
            if pendingAnchors.count >= 64 { pendingAnchors.removeFirst() }
            pendingAnchors.append(anchor)
            if anchorsSinceText.count < 64 { anchorsSinceText.append(anchor) }
        }
    }

    func start(_ name: String, _ attributes: UnsafePointer<UnsafePointer<CChar>?>?) {
        if stack.count >= HTMLBlocks.maximumDepth || skippedDepth > 0 {
            // A page's anchor in its number, which goes (`<span
            // class="pagenum"><a id="Page_3">`), is still where a contents
            // entry leads.
            if stack.count < HTMLBlocks.maximumDepth { meet(anchorsOf: Self.attributes(attributes)) }
            stack.append(Frame(name: name, skipped: true))
            skippedDepth += 1
            return
        }
        let attributes = Self.attributes(attributes)
        let classes = attributes["class"]?.lowercased().split(separator: " ").map(String.init) ?? []
        var traits = ClassTraits()
        var classIndent = 0
        for className in classes {
            let facts = facts(of: className)
            traits.formUnion(facts.traits)
            classIndent = max(classIndent, facts.indent)
        }
        if let style = attributes["style"] { classIndent = max(classIndent, HTMLBlocks.styleIndent(style)) }
        let id = attributes["id"] ?? ""
        meet(anchorsOf: attributes)
        if Self.skippedNames.contains(name) || traits.contains(.skipped) || id == "pg-header" || id == "pg-footer" {
            stack.append(Frame(name: name, skipped: true))
            skippedDepth += 1
            return
        }
        var frame = Frame(name: name)
        if Self.headingLevel(name) != nil, figureDepth > 0 {
            // A heading tag inside a picture's frame is its caption.
            frame.caption = true
            captionDepth += 1
        } else if let level = Self.headingLevel(name) {
            flush()
            leaveNoteFrameLeftOpen()
            if heading == nil { heading = OpenHeading(tagLevel: level, textBefore: visibleSoFar, linksBefore: linkTargets.count) }
        } else if Self.blockNames.contains(name) {
            if tableDepth > 0, name == "table" {
                // A table in a cell (a ditto's `Hoofdstuk` over `,,`) is
                // the cell's, its rows apart from the table's around it.
                outerTables.append(OuterTable(rows: tableRows, rowCount: tableRowCount, contentsRows: tableContentsRows, cells: tableCells,
                                              rowColumns: rowColumns, cellColumn: cellColumn, text: takeText()))
                tableDepth += 1
                (tableRows, tableRowCount, tableContentsRows, tableCells, rowColumns) = ([], 0, 0, [], 0)
            } else if tableDepth > 0 {
                // Inside a table, a cell's paragraphs run together.
                if name == "tr" {
                    tableCells = []
                    rowColumns = 0
                    rowCellIndent = nil
                }
                pendingSpace = true
            } else if name == "pre" {
                flush()
                preDepth += 1
            } else {
                if verseDepth > 0 && !lines[lines.count - 1].isEmpty { lines.append([]) } else if verseDepth == 0 { flush() }
                if name == "table" {
                    if tableDepth == 0 { itemsBeforeTable = result.items.count }
                    tableDepth += 1
                    tableRows = []
                    rowCellIndent = nil
                }
            }
        }
        if tableDepth > 0, name == "td" || name == "th" {
            cellColumn = rowColumns
            rowColumns += min(50, max(1, attributes["colspan"].flatMap { Int($0) } ?? 1))
        }
        if name == "ul" || name == "ol" || name == "dl" || name == "blockquote" {
            frame.list = true
            listDepth += 1
        }
        if traits.contains(.verse) {
            frame.verse = true
            verseDepth += 1
        }
        if traits.contains(.note) {
            frame.note = true
            if noteDepth == 0 { notesInNoteFrame = 0 }
            noteDepth += 1
        }
        if traits.contains(.contents) {
            frame.contents = true
            contentsClassDepth += 1
        }
        if name == "figure" || traits.contains(.figure) {
            if figureDepth == 0 {
                flush()
                figureCaption = []
                figureItem = nil
                figurePicture = nil
            }
            frame.figure = true
            figureDepth += 1
        }
        if name == "figcaption" || traits.contains(.caption) {
            frame.caption = true
            captionDepth += 1
        }
        if Self.italicNames.contains(name), !italicOpen, heading == nil, captionDepth == 0 {
            frame.italic = true
            italicOpen = true
            italicWritten = false
        }
        if traits.contains(.smallCapitals) {
            frame.smallCapitals = true
            smallCapitalsDepth += 1
        }
        if name == "b" || name == "strong" {
            frame.bold = true
            boldDepth += 1
        }
        if name == "a" || name == "span", attributes["href"] == nil, [attributes["id"], attributes["name"]].contains(where: { $0.map(HTMLBlocks.namesAPage) ?? false }) {
            frame.pageAnchor = true
            pageAnchorDepth += 1
            if heading == nil { frame.pageStart = MarkStart(line: lines.count - 1, byte: lines[lines.count - 1].count, generation: generation) }
            frame.pageNumbersBefore = pageNumbersDropped
        }
        if !classes.isEmpty, heading == nil, !frame.pageAnchor {
            frame.classedStart = MarkStart(line: lines.count - 1, byte: lines[lines.count - 1].count, generation: generation)
        }
        if name == "a", let href = attributes["href"], Self.isOtherFile(href) { result.linksToOtherFiles += 1 }
        if name == "a", heading == nil, let href = attributes["href"], Self.isSoundOrScore(href) { soundLinkGeneration = generation }
        if name == "a", heading != nil, let href = attributes["href"], Self.isSoundOrScore(href) || Self.isPicture(href) {
            frame.fileLinkStart = allCharacters
        }
        if name == "a", let href = attributes["href"], href.hasPrefix("#"), href.count > 1 {
            let target = String(href.dropFirst())
            frame.link = target
            frame.linkStart = allCharacters
            frame.linkBoldStart = boldCharacters
            if linkedTargets.contains(target) {
                if linkedAgain.count < Self.maximumLinkTargets { linkedAgain.insert(target) }
            } else if linkedTargets.count < Self.maximumLinkTargets {
                linkedTargets.insert(target)
            }
            frame.linkIsForward = result.textBeforeAnchor[target] == nil
            frame.linkIsWayBack = !frame.linkIsForward && referenceAnchors.contains(target)
            // This link's own anchors, and those just before it, name a
            // reference: a link back to one is a note's way back.
            for anchor in anchorsSinceText where referenceAnchors.count < Self.maximumLinkTargets { referenceAnchors.insert(anchor) }
            linkDepth += 1
            if frame.linkIsForward { forwardLinkDepth += 1 }
            if heading == nil { frame.wordsStart = MarkStart(line: lines.count - 1, byte: lines[lines.count - 1].count, generation: generation) }
            if let open = heading, frame.linkIsForward, captionDepth == 0 {
                frame.markStart = MarkStart(line: open.lines.count - 1, byte: open.lines[open.lines.count - 1].count, generation: generation)
            }
            if frame.linkIsForward, heading == nil, captionDepth == 0, figureDepth == 0, preDepth == 0 {
                frame.markStart = MarkStart(line: lines.count - 1, byte: lines[lines.count - 1].count, generation: generation)
            }
        }
        if name == "br" {
            placeBarePicture()
            if lineStartsWithLink == nil, linesInEntry > 0 { blankLineBefore = true }
            lineBreak()
            lineStartsWithLink = nil
        }
        if name == "img" {
            let source = attributes["src"] ?? ""
            // An alternative text that is the picture's file name, or that
            // sends the reader to its caption, says nothing.
            let alt = attributes["alt"].flatMap { Self.isFileName($0, of: source) || Self.pointsToTheCaption($0) ? nil : $0 } ?? ""
            // A height in pixels (`18`, `18px`); a share of the page says nothing.
            let height = attributes["height"].flatMap { $0.hasSuffix("%") ? nil : Int($0.prefix { $0.isNumber }.prefix(6)) }
            image(alt: alt, source: Self.pictureAddress(source), isGlyph: height.map { $0 <= Self.tallestGlyph } ?? false)
        }
        if verseDepth > 0, name == "span", let indent = classes.compactMap(Self.indent).first, lines[lines.count - 1].isEmpty {
            lines[lines.count - 1] = [UInt8](repeating: 0x20, count: indent)
        }
        frame.indentBefore = openIndent
        openIndent = max(openIndent, classIndent)
        if tableDepth > 0, classIndent > 0 {
            rowCellIndent = (cellColumn, max(classIndent, rowCellIndent.flatMap { $0.column == cellColumn ? $0.indent : nil } ?? 0))
        }
        stack.append(frame)
    }

    /// What one class name says of its element.
    private struct ClassTraits: OptionSet {
        let rawValue: UInt8
        /// A page number or Gutenberg's own boilerplate: not the book's text.
        static let skipped = ClassTraits(rawValue: 1 << 0)
        static let verse = ClassTraits(rawValue: 1 << 1)
        static let note = ClassTraits(rawValue: 1 << 2)
        static let figure = ClassTraits(rawValue: 1 << 3)
        static let caption = ClassTraits(rawValue: 1 << 4)
        static let smallCapitals = ClassTraits(rawValue: 1 << 5)
        /// A contents list (`toc`, `toc2`, `contents`).
        static let contents = ClassTraits(rawValue: 1 << 6)
    }

    /// The traits of the class names met so far: a book repeats a few
    /// names thousands of times, and a hostile one cannot grow this past
    /// its bound.
    private var knownClasses: [String: (traits: ClassTraits, indent: Int)] = [:]
    private static let maximumKnownClasses = 1_024

    private func facts(of className: String) -> (traits: ClassTraits, indent: Int) {
        if let known = knownClasses[className] { return known }
        let facts = (Self.traits(of: className), Self.contentsIndent(of: className))
        if knownClasses.count < Self.maximumKnownClasses { knownClasses[className] = facts }
        return facts
    }

    /// The level a contents list's class gives an entry: the digit after
    /// `toc`, `indent`, `ind`, `inset`, `level` or `sub` (`toc2`, `inset3`); one
    /// for a class that says indented without a number (`inset`, `sub`);
    /// else 0.
    private static func contentsIndent(of name: String) -> Int {
        for prefix in ["toc", "indent", "ind", "inset", "level", "sub"] where name.hasPrefix(prefix) {
            if let digit = name.dropFirst(prefix.count).first?.wholeNumberValue { return digit }
        }
        return indentedClasses.contains(name) ? 1 : 0
    }

    private static let indentedClasses: Set<String> = ["inset", "indent", "indented", "ind", "sub", "subentry", "subsection"]

    /// An address of a sound or a score (`music/gone.midi`, `gone.ly`,
    /// `gone.pdf`): the edition's, which a terminal does not play.
    private static func isSoundOrScore(_ href: String) -> Bool {
        fileExtension(of: href).map(soundAndScoreExtensions.contains) ?? false
    }

    private static let soundAndScoreExtensions: Set<String> = [
        "mid", "midi", "kar", "mp3", "ogg", "oga", "wav", "m4a", "flac", "ly", "mus", "mxl", "musicxml", "abc", "sib", "pdf",
    ]

    /// An address of an HTML file (`i.html`, `./ii.htm#intro`, another
    /// edition's `https://…/8799-h.htm#link9`).
    private static func isOtherFile(_ href: String) -> Bool {
        let lowered = href.lowercased()
        guard !href.contains(":") || lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return false }
        let path = lowered.prefix { $0 != "#" && $0 != "?" }
        return path.hasSuffix(".html") || path.hasSuffix(".htm")
    }

    private static func traits(of name: String) -> ClassTraits {
        var traits = ClassTraits()
        if name == "pagenum" || name == "pageno" || name == "pg-boilerplate" { traits.insert(.skipped) }
        if name.includes("poem") || name.includes("stanza") || name.includes("verse") || name == "poetry" { traits.insert(.verse) }
        // A transcriber's note (`tnote`, `trnote`, `transnote`) is the
        // edition's text, not a note of the book's.
        let transcribers = name.hasPrefix("tnote") || name.hasPrefix("trnote") || name.hasPrefix("transnote") || name.includes("transcriber")
        if !transcribers && (name.includes("footnote") || name.includes("tnote") || name == "fnote" || name == "note") {
            traits.insert(.note)
        }
        if name.hasPrefix("fig") || name.includes("illus") { traits.insert(.figure) }
        if name == "caption" { traits.insert(.caption) }
        if name == "toc" || name == "contents" || (name.hasPrefix("toc") && contentsIndent(of: name) > 0) { traits.insert(.contents) }
        if name == "smcap" || name == "sc" || name == "smallcaps" || name == "small-caps" { traits.insert(.smallCapitals) }
        return traits
    }

    func end(_ name: String) {
        // The HTML parser closes what it opened, but a recovered file may
        // close an element that was never open: ignored.
        guard let index = stack.lastIndex(where: { $0.name == name }) else { return }
        while stack.count > index { close(stack.removeLast()) }
    }

    private func close(_ frame: Frame) {
        if frame.skipped {
            skippedDepth -= 1
            return
        }
        defer { openIndent = frame.indentBefore }
        if let depth = pictureContainer?.depth, stack.count < depth { pictureContainer = nil }
        let name = frame.name
        if frame.italic { closeItalic() }
        if frame.smallCapitals { smallCapitalsDepth -= 1 }
        if frame.bold { boldDepth -= 1 }
        if frame.caption { captionDepth -= 1 }
        if let start = frame.fileLinkStart, heading != nil { heading!.fileLinkCharacters += max(0, allCharacters - start) }
        if let level = Self.headingLevel(name), let open = heading, open.tagLevel == level {
            finishHeading()
        } else if tableDepth > 0 && (name == "td" || name == "th") {
            tableCells.append(takeText())
        } else if tableDepth > 0 && name == "tr" {
            let cells = tableCells + [takeText()]
            let row = cells.filter { !$0.isEmpty }.joined(separator: "  ")
            if !row.isEmpty {
                tableRows.append(row)
                tableRowCount += 1
                if tableDepth == 1, linksInEntry == 0, tableRowsWithoutLinks.count < Self.mostGroupTitles { tableRowsWithoutLinks.append(row) }
                // A row that links to a place in the book (a chapter, a
                // page of a list of illustrations) is a contents row.
                let listedInOrder = linksBackInTheBooksOrder()
                if sectionLinksInEntry > 0 || listedInOrder { tableContentsRows += 1 }
            }
            // A link that is its row's page number alone (`On Love | 15`)
            // is named by the row's title, its number's cell and its
            // words' (`§ 4. | Die Aufgabe dieses Buches. | 4`); a row of
            // many numbers (a book's chapters, `BOOK IX | 1 2 3 … 46`)
            // numbers, and names nothing by the row.
            let figures = (min(entryLinksStart, linkLabels.count)..<linkLabels.count).filter { link in
                HTMLBlocks.isFigures(linkLabels[link]) || (HTMLBlocks.namesAPage(linkTargets[link]) && Self.isRomanPage(linkLabels[link]))
            }
            if figures.count == 1 {
                let page = HTMLBlocks.unwrapped(linkLabels[figures[0]]).trimmingWhitespace()
                let title = cells.filter { !$0.isEmpty && !HTMLBlocks.isFigures($0) && !Self.isPageCell($0, page: page) }.joined(separator: " ")
                if !title.isEmpty { linkLabels[figures[0]] = UpstreamText.capped(title, 200) }
            }
            endEntryLinks()
            startEntry()
            tableCells = []
        } else if name == "table" && tableDepth > 0 {
            tableDepth -= 1
            let rest = takeText()
            if !rest.isEmpty { tableRows.append(rest) }
            let isContents = tableContentsRows > 0 && tableContentsRows * 2 >= tableRowCount
            // A contents table's headings (its groups: SONGS OF INNOCENCE,
            // SONGS OF EXPERIENCE) go with it; each look reads every
            // anchor, so a few dozen at most.
            var groupHeadings = 0
            while isContents, tableDepth == 0, groupHeadings < Self.maximumGroupHeadings, result.items.count > itemsBeforeTable,
                  case let .heading(_, lines) = result.items.last {
                recordGroupTitle(lines.joined(separator: " "))
                removeLastItem(names: result.anchors.filter { $0.value == result.items.count - 1 }.map(\.key))
                groupHeadings += 1
            }
            if tableDepth == 0 {
                if isContents { tableRowsWithoutLinks.forEach(recordGroupTitle) }
                tableRowsWithoutLinks = []
            }
            if tableDepth > 0, let outer = outerTables.popLast() {
                // A contents table in a cell (a page laid out in a table)
                // is taken as any; any other is its cell's text.
                let text = isContents && takeContentsLinks(true) ? outer.text : ([outer.text] + tableRows).filter { !$0.isEmpty }.joined(separator: " ")
                lines = [Array(text.utf8)]
                pendingSpace = !text.isEmpty
                (tableRows, tableRowCount, tableContentsRows, tableCells) = (outer.rows, outer.rowCount, outer.contentsRows, outer.cells)
                (rowColumns, cellColumn) = (outer.rowColumns, outer.cellColumn)
            } else {
                if !takeContentsLinks(isContents), !tableRows.isEmpty {
                    if noteDepth > 0 {
                        // A table in a note (a vote's names, for and
                        // against) is the note's words, after its label.
                        let rows = tableRows.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: " ")
                        let label = pendingLabel.map { $0.text + " " } ?? ""
                        pendingLabel = nil
                        notesInNoteFrame += 1
                        emit(.footnote, [label + rows])
                    } else {
                        emit(.lines, tableRows)
                    }
                }
                tableRows = []
                tableRowCount = 0
                tableContentsRows = 0
            }
        } else if name == "pre" && preDepth > 0 {
            flush()
            preDepth -= 1
        } else if Self.blockNames.contains(name) && tableDepth == 0 && heading == nil {
            if verseDepth > 0 && !frame.verse {
                if !lines[lines.count - 1].isEmpty { lines.append([]) }
            } else {
                flush()
            }
        }
        if frame.figure {
            figureDepth -= 1
            if figureDepth == 0 {
                flush()
                let caption = Self.text(of: figureCaption)
                if let item = figureItem, !caption.isEmpty, result.items.indices.contains(item),
                   case let .block(picture) = result.items[item], picture.kind == .illustration, picture.link == figurePicture {
                    result.items[item] = .block(TextBlock(.illustration, caption, link: figurePicture))
                } else if figureItem == nil, !caption.isEmpty {
                    add(.block(TextBlock(.illustration, caption, link: nil)))
                }
            }
        }
        if frame.verse {
            verseDepth -= 1
            if verseDepth == 0 { flush() }
        }
        if frame.note { noteDepth -= 1 }
        if frame.contents { contentsClassDepth -= 1 }
        if frame.list { listDepth -= 1 }
        if frame.pageAnchor {
            pageAnchorDepth -= 1
            if let start = frame.pageStart, pageNumbersDropped > frame.pageNumbersBefore { dropPageNumberOpening(from: start) }
        }
        if let start = frame.classedStart { dropWrittenPageNumber(from: start) }
        if let target = frame.link {
            linkDepth -= 1
            numberAfterLinks = false
            let label = max(0, allCharacters - frame.linkStart)
            let isMark = label <= HTMLBlocks.maximumMarkCharacters
            // The link's own words, read once (a way back's are dropped).
            let linkWords = frame.linkIsWayBack ? "" : frame.wordsStart.map(wordsSince) ?? ""
            let written = linkWords.trimmingWhitespace()
            let readsAsMark = isMark && NoteMarks.isLabel(HTMLBlocks.markLabel(written))
            // A bare figure or letter is as often a page's number or an
            // index's letter; a mark in brackets or a sign is a note's,
            // unless it leads to a page (a contents table's `[12]`).
            let isNoteMark = readsAsMark && !HTMLBlocks.namesAPage(target)
                && (HTMLBlocks.namesANote(target) || written.contains { !$0.isLetter && !$0.isNumber })
            if frame.linkIsForward {
                forwardLinkDepth -= 1
                if !isMark { forwardTitleLinksInEntry += 1 }
                if isMark, HTMLBlocks.isBracketedMark(linkWords) { bracketedMarksInEntry += 1 }
                if isMark, HTMLBlocks.isNumberedNoteLabel(linkWords) { numberedMarksInEntry += 1 }
                if readsAsMark, HTMLBlocks.namesANote(target) { noteMarksInEntry += 1 }
            } else if frame.linkIsWayBack {
                wayBackCharacters += label
                if let start = frame.wordsStart { dropWayBackWord(from: start) }
            }
            if !frame.linkIsWayBack {
                // Back to a place: a contents list or an index after the
                // text, a way back to the contents, a cross-reference.
                if !frame.linkIsForward { linkCharacters += label }
                if linksInEntry == 0, frame.linkIsForward, !readsAsMark { firstLinkWords = UpstreamText.capped(written, 200) }
                linkTargets.append(target)
                linkLabels.append(linkWords)
                let isBold = label > 0 && boldCharacters - frame.linkBoldStart == label
                let rowIndent = rowCellIndent.flatMap { tableDepth > 0 && $0.column < cellColumn ? $0.indent : nil } ?? 0
                linkTargetPlaces.append((tableDepth > 0 && frame.linkStart == 0 ? cellColumn : nil, max(openIndent, rowIndent), isBold, false, false))
                linksInEntry += 1
                // A table's row that links to a section (a heading, or
                // further on) is a contents row; one that links back to a
                // paragraph cites it, and one whose link is a note's mark
                // (a song's verse ending `[50]`) refers to its note.
                if !isNoteMark, frame.linkIsForward || (result.anchors[target].map { result.items.indices.contains($0) && result.items[$0].isHeading } ?? false) {
                    sectionLinksInEntry += 1
                }
            }
            if heading == nil, captionDepth == 0, paragraphLinks.count < HTMLBlocks.maximumReferences {
                let isWrapped = isMark && frame.markStart.map { wrapMark(from: $0, in: &lines) } == true
                paragraphLinks.append(HTMLBlocks.InternalLink(target: target, isMark: isMark, isWrapped: isWrapped, isWord: HTMLBlocks.isWord(linkWords)))
            } else if heading != nil, isMark, let start = frame.markStart, heading!.links.count < HTMLBlocks.maximumReferences {
                let isWrapped = wrapMark(from: start, in: &heading!.lines)
                heading!.links.append(HTMLBlocks.InternalLink(target: target, isMark: true, isWrapped: isWrapped))
            }
            if heading == nil, HTMLBlocks.namesAPage(target), HTMLBlocks.isFigures(linkWords), let start = frame.wordsStart {
                pageReference = pageReferenceOpening(before: start).map { ($0, paragraphLinks.count) }
            }
        }
    }

    /// Where `[Page `, `[Pg. `, `[p. ` opens before a link's words, to
    /// a page's anchor: a reference to a page of the print that closes
    /// its paragraph (`[Page <a href="#Page_374">374</a>.]` after a plate's
    /// caption) goes, as a text without the print's pages cannot follow
    /// it. One the sentence goes on after is the book's.
    private func pageReferenceOpening(before start: MarkStart) -> MarkStart? {
        guard start.generation == generation, start.line == lines.count - 1, start.byte <= lines[start.line].count else { return nil }
        let before = lines[start.line][..<start.byte].suffix(12)
        guard let bracket = before.lastIndex(of: UInt8(ascii: "[")) else { return nil }
        let word = String(decoding: before[(bracket + 1)...], as: UTF8.self).trimmingWhitespace().lowercased()
        guard Self.pageWords.contains(word.hasSuffix(".") ? String(word.dropLast()) : word) else { return nil }
        return MarkStart(line: start.line, byte: bracket, generation: generation)
    }

    private static let pageWords: Set<String> = ["page", "pg", "p", "pag", "pág", "seite", "s", "sivu", "blz"]

    /// Wraps the words written since `start`, when they are a mark's
    /// (`12`, `[12]`, `(*)`, `†`), in `markOpen` and `markClose`.
    private func wrapMark(from start: MarkStart, in lines: inout [[UInt8]]) -> Bool {
        guard start.generation == generation, start.line == lines.count - 1 else { return false }
        let line = lines.count - 1
        var from = start.byte
        while from < lines[line].count, lines[line][from] == 0x20 { from += 1 }
        guard from < lines[line].count else { return false }
        let words = String(decoding: lines[line][from...], as: UTF8.self)
        guard NoteMarks.isLabel(HTMLBlocks.markLabel(words)) else { return false }
        lines[line].insert(contentsOf: Self.markOpenBytes, at: from)
        lines[line] += Self.markCloseBytes
        marksWrapped += 1
        return true
    }

    /// What is left of a page's number whose figures went on their own
    /// (`[pg`, `[Page`), when that is all its anchor held.
    private func dropPageNumberOpening(from start: MarkStart) {
        let line = lines.count - 1
        guard start.generation == generation, start.line == line, start.byte < lines[line].count else { return }
        let left = String(decoding: lines[line][start.byte...], as: UTF8.self).trimmingWhitespace().lowercased()
        guard Self.pageNumberAfterWord(Substring(left)).isEmpty else { return }
        lines[line].removeSubrange(start.byte...)
        while lines[line].last == 0x20 {
            lines[line].removeLast()
            pendingSpace = true
        }
    }

    /// The text from `start` when it is a page's number written as the
    /// print's (`{7}`, `[Pg 7]`), or a few, a line each (`{14}<br>{15}`),
    /// nothing else: gone.
    private func dropWrittenPageNumber(from start: MarkStart) {
        // Most classed elements (a small capital's) end in no bracket: they
        // are let go at once.
        let lastWritten = lines[lines.count - 1].last { $0 != 0x20 }
        guard lastWritten.map({ $0 == 0x7D || $0 == 0x5D || $0 == 0x29 }) ?? (lines.count > start.line + 1),
              start.generation == generation, start.line < lines.count, start.byte <= lines[start.line].count,
              lines.count - start.line <= Self.mostPageNumbersTogether
        else { return }
        let pieces = [lines[start.line][start.byte...]] + lines[(start.line + 1)...].map { $0[...] }
        guard pieces.contains(where: { !$0.isEmpty }), pieces.allSatisfy({ piece in
            piece.isEmpty || (piece.count <= Self.longestWrittenPageNumber && HTMLBlocks.isWrittenPageNumber(String(decoding: piece, as: UTF8.self)))
        }) else { return }
        lines.removeSubrange((start.line + 1)...)
        lines[start.line].removeSubrange(start.byte...)
        while lines[start.line].last == 0x20 {
            lines[start.line].removeLast()
            pendingSpace = true
        }
    }

    private static let mostPageNumbersTogether = 4

    private static let longestWrittenPageNumber = 24

    /// The page reference the paragraph ends with, if it ends with one
    /// (`[Page 374.]`), taken out with its link.
    private func dropPageReferenceAtTheEnd() {
        defer { pageReference = nil }
        guard let (start, links) = pageReference, start.generation == generation, start.line == lines.count - 1,
              start.byte <= lines[start.line].count
        else { return }
        var inside = HTMLBlocks.unwrapped(Self.text(of: Array(lines[start.line][start.byte...]))).trimmingWhitespace()
        guard inside.hasPrefix("["), inside.hasSuffix("]") else { return }
        inside = String(inside.dropFirst().dropLast()).trimmingWhitespace()
        if inside.hasSuffix(".") { inside.removeLast() }
        // `[Page 374.]`: its word and its number, nothing more.
        let words = inside.split(separator: " ")
        guard words.count == 2, HTMLBlocks.isFigures(String(words[1])) else { return }
        lines[start.line].removeSubrange(start.byte...)
        while lines[start.line].last == 0x20 { lines[start.line].removeLast() }
        if paragraphLinks.count == links, let link = paragraphLinks.popLast(), link.isWrapped { marksWrapped -= 1 }
    }

    /// The words a note's way back to its reference says of itself
    /// (`13 (return)`, `[back]`, `↩`) are the edition's, not the book's:
    /// only the note's label stays.
    private func dropWayBackWord(from start: MarkStart) {
        guard start.generation == generation, start.line == lines.count - 1, start.byte <= lines[start.line].count else { return }
        let line = lines.count - 1
        let gathered = String(decoding: lines[line][start.byte...], as: UTF8.self)
        let words = gathered.trimmingWhitespace()
        let cut: String.Index, word: Substring
        if let last = words.last, last == ")" || last == "]", let open = words.lastIndex(of: last == ")" ? "(" : "[") {
            (cut, word) = (open, words[words.index(after: open)..<words.index(before: words.endIndex)])
        } else {
            cut = words.lastIndex(where: \.isWhitespace).map { words.index(after: $0) } ?? words.startIndex
            word = words[cut...]
        }
        guard Self.wayBackWords.contains(String(word).trimmingWhitespace().lowercased()) else { return }
        let before = String(words[..<cut]).trimmingWhitespace()
        let leadingSpaces = gathered.prefix { $0.isWhitespace }.utf8.count
        lines[line].removeLast(gathered.utf8.count - leadingSpaces - before.utf8.count)
        // `13 (<a>return</a>)`: the brackets around the link go with it.
        if let opening = lines[line].lastIndex(where: { $0 > 0x20 }), [UInt8(ascii: "("), UInt8(ascii: "[")].contains(lines[line][opening]) {
            wayBackCloser = lines[line][opening] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")
            lines[line].removeSubrange(opening...)
        }
        while lines[line].last == 0x20 {
            lines[line].removeLast()
            pendingSpace = true
        }
    }

    /// What a note's way back calls itself, in the editions' languages.
    private static let wayBackWords: Set<String> = ["return", "back", "retour", "zurück", "terug", "ritorno", "volver", "voltar", "↩", "↑", "^"]

    /// The words gathered since `start`, if the block is the same.
    private func wordsSince(_ start: MarkStart) -> String {
        guard start.generation == generation, start.line == lines.count - 1, start.byte <= lines[start.line].count else { return "" }
        return Self.text(of: Array(lines[start.line][start.byte...].prefix(200)))
    }

    private static let markOpenBytes = Array(String(HTMLBlocks.markOpen).utf8)
    private static let markCloseBytes = Array(String(HTMLBlocks.markClose).utf8)

    private func closeItalic() {
        guard italicOpen else { return }
        italicOpen = false
        if italicWritten { lines[lines.count - 1].append(0x5F) }
        italicWritten = false
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard skippedDepth == 0 else { return }
        if pageAnchorDepth > 0, Self.isPageNumber(bytes) {
            pageNumbersDropped += 1
            return
        }
        if let closer = wayBackCloser {
            wayBackCloser = nil
            if let first = bytes.firstIndex(where: { $0 > 0x20 }), bytes[first] == closer {
                return characters(UnsafeBufferPointer(rebasing: bytes[(first + 1)...]))
            }
        }
        // The text's own noncharacters would read as a mark's wrapping.
        if ByteScan.contains(0xEF, in: bytes), let clean = Self.withoutMarkWrapping(bytes) {
            return clean.withUnsafeBufferPointer { characters($0) }
        }
        if smallCapitalsDepth > 0 {
            let upper = Array(String(decoding: bytes, as: UTF8.self).uppercased().utf8)
            upper.withUnsafeBufferPointer { gathered($0) }
        } else {
            gathered(bytes)
        }
    }

    private func gathered(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Bytes past the space, less those that continue a character (a
        // sum without branches, which the compiler runs many bytes at once).
        var visible = 0
        for byte in bytes { visible &+= (byte > 0x20 ? 1 : 0) &- (byte & 0xC0 == 0x80 ? 1 : 0) }
        // A no-break space is space (`&nbsp;&nbsp;<a>VII.</a>` begins
        // with its link).
        if visible > 0, ByteScan.contains(0xA0, in: bytes) {
            for index in bytes.indices where Self.isNoBreakSpace(bytes, at: index) { visible -= 1 }
        }
        if forwardLinkDepth > 0 { linkCharacters += visible }
        if visible > 0, startsWithLink == nil { startsWithLink = forwardLinkDepth > 0 }
        if visible > 0, startsWithLinkBack == nil { startsWithLinkBack = linkDepth > 0 && forwardLinkDepth == 0 }
        if visible > 0, lineStartsWithLink == nil {
            lineStartsWithLink = forwardLinkDepth > 0
            if linesInEntry == 0 || blankLineBefore {
                groupsInEntry += 1
                if forwardLinkDepth > 0 { groupsStartingWithLink += 1 }
            }
            blankLineBefore = false
            linesInEntry += 1
            if forwardLinkDepth > 0 { linesStartingWithLink += 1 }
        }
        if visible > 0, !anchorsSinceText.isEmpty { anchorsSinceText = [] }
        if visible > 0, linkDepth == 0, linksInEntry > 0, startsWithLink == true, runsOnAfterFirstLink == nil {
            runsOnAfterFirstLink = String(decoding: bytes, as: UTF8.self).first(where: \.isLetter).map(\.isLowercase)
        }
        // Only text after an entry's links can give its page.
        if visible > 0, linkDepth == 0, linksInEntry > 0 { numberAfterLinks = HTMLBlocks.endsWithPageNumber(bytes) }
        allCharacters += visible
        if boldDepth > 0 { boldCharacters += visible }
        // A picture's caption between an anchor and its heading is no text
        // between them.
        if figureDepth == 0 && captionDepth == 0 { visibleSoFar += visible }
        if preDepth > 0 && heading == nil {
            for (index, piece) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                if index > 0 { lines.append([]) }
                for byte in piece {
                    if byte == 0x09 {
                        lines[lines.count - 1] += [UInt8](repeating: 0x20, count: 8 - lines[lines.count - 1].count % 8)
                    } else {
                        lines[lines.count - 1].append(byte)
                    }
                }
            }
            return
        }
        var noItalic = false
        if captionDepth > 0 && heading != nil {
            Self.appendFolded(bytes, to: &heading!.caption, pendingSpace: &pendingSpace, openingItalic: &noItalic)
        } else if captionDepth > 0 && figureDepth > 0 {
            Self.appendFolded(bytes, to: &figureCaption, pendingSpace: &pendingSpace, openingItalic: &noItalic)
        } else if heading != nil {
            let last = heading!.lines.count - 1
            Self.appendFolded(bytes, to: &heading!.lines[last], pendingSpace: &pendingSpace, openingItalic: &noItalic)
        } else {
            // A paragraph past the bound is cut between two words.
            if lines[lines.count - 1].count > HTMLBlocks.maximumProseBytes, pendingSpace || bytes.first.map(Self.isSpace) == true {
                flush()
            }
            var opening = italicOpen && !italicWritten
            Self.appendFolded(bytes, to: &lines[lines.count - 1], pendingSpace: &pendingSpace, openingItalic: &opening)
            if italicOpen && !opening { italicWritten = true }
            if barePicture != nil, lines[lines.count - 1].contains(where: { $0 > 0x20 }) { barePicture = nil }
        }
    }

    /// `bytes` without `markOpen` and `markClose`; nil when it has none
    /// (most text with other characters of U+F000–U+FFFF: nothing copied).
    private static func withoutMarkWrapping(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        func isWrapping(at index: Int) -> Bool {
            index + 2 < bytes.count && bytes[index] == 0xEF && bytes[index + 1] == 0xB7 && (bytes[index + 2] == 0x90 || bytes[index + 2] == 0x91)
        }
        guard let first = bytes.indices.first(where: isWrapping) else { return nil }
        var kept = Array(bytes[..<first])
        var index = first
        while index < bytes.count {
            if isWrapping(at: index) {
                index += 3
            } else {
                kept.append(bytes[index])
                index += 1
            }
        }
        return kept
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
    }

    /// U+00A0 in UTF-8, folded like a space.
    private static func isNoBreakSpace(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        bytes[index] == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0
    }

    /// `bytes` after `target`, white space (and no-break spaces) folded to
    /// one space and none at the start; an opening italic mark before the
    /// first word.
    private static func appendFolded(
        _ bytes: UnsafeBufferPointer<UInt8>, to target: inout [UInt8], pendingSpace: inout Bool, openingItalic: inout Bool
    ) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isSpace(byte) {
                pendingSpace = true
                index += 1
                continue
            }
            if isNoBreakSpace(bytes, at: index) {
                pendingSpace = true
                index += 2
                continue
            }
            if pendingSpace, let last = target.last, last != 0x20 { target.append(0x20) }
            pendingSpace = false
            if openingItalic {
                target.append(0x5F)
                openingItalic = false
            }
            // The bytes up to the next white space that folding changes,
            // copied at once: a lone space between two words stays as it is.
            var end = index + 1
            while end < bytes.count {
                let byte = bytes[end]
                if byte == 0x20, end + 1 < bytes.count, !isSpace(bytes[end + 1]), !isNoBreakSpace(bytes, at: end + 1) {
                    end += 2
                } else if isSpace(byte) || isNoBreakSpace(bytes, at: end) {
                    break
                } else {
                    end += 1
                }
            }
            target.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            index = end
        }
    }

    private func lineBreak() {
        // A picture's caption is one line: its breaks are spaces.
        if captionDepth > 0 && (heading != nil || figureDepth > 0) {
            pendingSpace = true
            return
        }
        pendingSpace = false
        // Italics are closed at the end of each line and opened again on
        // the next: a line is read on its own.
        if italicOpen && italicWritten && heading == nil {
            lines[lines.count - 1].append(0x5F)
            italicWritten = false
        }
        if heading != nil {
            if captionDepth == 0 && !(heading!.lines.last?.isEmpty ?? true) { heading!.lines.append([]) }
        } else if tableDepth > 0 {
            pendingSpace = true
        } else if !lines[lines.count - 1].isEmpty || verseDepth > 0 {
            lines.append([])
        }
    }

    /// `isGlyph`: no taller than a line of type (a symbol, a worn
    /// inscription's letters drawn as a picture).
    private func image(alt rawAlt: String, source: String?, isGlyph: Bool) {
        var folded: [UInt8] = [], space = false, noItalic = false
        Array(rawAlt.utf8).withUnsafeBufferPointer { Self.appendFolded($0, to: &folded, pendingSpace: &space, openingItalic: &noItalic) }
        let alt = Self.withoutMarkerWord(Self.text(of: folded))
        let lineHasText = lines[lines.count - 1].contains(where: { $0 > 0x20 })
        if heading != nil {
            heading!.pictures += 1
            heading!.alt += heading!.alt.isEmpty ? alt : " " + alt
            if heading!.picture == nil { heading!.picture = source }
        } else if figureDepth > 0 {
            guard figureItem == nil else { return }
            flush()
            let count = result.items.count
            add(.block(TextBlock(.illustration, figureCaption.isEmpty ? alt : Self.text(of: figureCaption), link: source)))
            guard result.items.count > count else { return }
            figurePicture = source
            figureItem = count
            // Text set in the figure after it that says its words again is
            // its caption, said once.
            if let depth = stack.firstIndex(where: \.figure) { pictureContainer = (depth + 1, count) }
        } else if alt.isEmpty ? isGlyph || lineHasText : (alt.count <= 2 && alt.allSatisfy(\.isLetter)) || (isGlyph && lineHasText) {
            // A drop capital drawn as a picture: its letter is the word's
            // first. A glyph within a line reads as its words there; one
            // without words says nothing there.
            var opening = italicOpen && !italicWritten
            Array(alt.utf8).withUnsafeBufferPointer {
                Self.appendFolded($0, to: &lines[lines.count - 1], pendingSpace: &pendingSpace, openingItalic: &opening)
            }
            if italicOpen && !opening { italicWritten = true }
            pendingSpace = false
        } else if alt.isEmpty, stack.contains(where: { $0.name == "p" }) {
            placeBarePicture()
            barePicture = source
        } else {
            flush()
            add(.block(TextBlock(.illustration, alt, link: source)))
            pictureContainer = stack.last.flatMap { ["body", "html"].contains($0.name) ? nil : (stack.count, result.items.count - 1) }
        }
    }

    private func placeBarePicture() {
        guard let picture = barePicture else { return }
        barePicture = nil
        add(.block(TextBlock(.illustration, "", link: picture)))
    }

    /// The tallest picture, in pixels, that stands in a line of type.
    private static let tallestGlyph = 32

    /// An alternative text that begins with the word the marker gives
    /// (`Illustration: VULCAN.`, `[Illustration: …]`) says it once.
    static func withoutMarkerWord(_ alt: String) -> String {
        var text = Substring(alt)
        if text.first == "[", text.last == "]" { text = text.dropFirst().dropLast() }
        guard text.lowercased().hasPrefix("illustration") else { return alt }
        let rest = text.dropFirst("illustration".count).drop { $0 == " " }
        // `Illustrations of …` is a caption's own word.
        guard rest.first.map({ ":.—-".contains($0) }) ?? true else { return alt }
        return String(rest.drop { $0 == " " || ":.—-".contains($0) })
    }

    /// Whether `alt` is the name of the file `source` names (`{0010}` for
    /// `images/{0010}.jpg` or `images/0010.jpg`, `i_012` for `images/i_012.png`),
    /// or a picture file's name all the same (`link01-023.jpg (147K)` for
    /// `images/01-023.jpg`): no caption.
    static func isFileName(_ alt: String, of source: String) -> Bool {
        let written = alt.trimmingWhitespace().lowercased()
        var bare = Substring(written)
        if bare.count > 2, let first = bare.first, let last = bare.last, "{[(".contains(first), "}])".contains(last) {
            bare = bare.dropFirst().dropLast()
        }
        // `bookcover.jpg (153K)`: the file's name and size.
        if bare.last == ")", let open = bare.lastIndex(of: "(") {
            let size = bare[bare.index(after: open)..<bare.index(before: bare.endIndex)]
            let digits = size.prefix { $0.isNumber || $0 == "." || $0 == "," }
            if !digits.isEmpty, ["k", "kb", "m", "mb", "b"].contains(String(size.dropFirst(digits.count)).trimmingWhitespace()) {
                bare = Substring(String(bare[..<open]).trimmingWhitespace())
            }
        }
        guard !bare.isEmpty, let file = source.split(separator: "/").last?.lowercased() else { return false }
        if !bare.contains(" "), isPicture(String(bare)) { return true }
        let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        return [file, stem].contains { !$0.isEmpty && ($0 == bare || $0 == written) }
    }

    /// `see caption`: the producers' alternative text for a picture
    /// whose caption the book prints beside it.
    static func pointsToTheCaption(_ alt: String) -> Bool {
        let words = alt.lowercased().split { !$0.isLetter }
        return ["see caption", "see the caption", "caption", "see legend", "see the legend"].contains(words.joined(separator: " "))
    }

    private static let pictureExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "svg", "webp", "bmp", "tif", "tiff"]

    /// A relative address of a picture file (`images/spwheel1.png`).
    private static func isPicture(_ href: String) -> Bool {
        fileExtension(of: href).map(pictureExtensions.contains) ?? false
    }

    /// The extension of the file an address names (`mid` for
    /// `music/spinning.mid`), lowercased.
    private static func fileExtension(of href: String) -> String? {
        let path = href.prefix { $0 != "#" && $0 != "?" }.lowercased()
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return String(path[path.index(after: dot)...])
    }

    /// A picture's address as the edition writes it, kept when it is a
    /// path beside the edition or an address on gutenberg.org (nothing is
    /// fetched here; a picture elsewhere is never to be), cut to
    /// `TextBlock.maximumLinkLength` and without controls.
    static func pictureAddress(_ source: String) -> String? {
        let address = TerminalText.sanitize(UpstreamText.capped(source.trimmingWhitespace(), TextBlock.maximumLinkLength), singleLine: true)
        guard !address.isEmpty, !address.hasPrefix("//"), !address.hasPrefix("#") else { return nil }
        guard let colon = address.firstIndex(of: ":"), !address[..<colon].contains("/") else { return address }
        guard !address.contains("@"), let origin = URLOrigin(address), ["http", "https"].contains(origin.scheme),
              origin.host == "gutenberg.org" || origin.host.hasSuffix(".gutenberg.org")
        else { return nil }
        return address
    }

    private func finishHeading() {
        guard let open = heading else { return }
        heading = nil
        var titleLines = open.lines.map { Self.text(of: $0) }.filter { !$0.isEmpty }
        var pictureIsTitle = false
        if titleLines.isEmpty, !open.alt.isEmpty {
            titleLines = [open.alt]
            pictureIsTitle = true
        }
        // A heading whose words are mostly a link further on is a contents
        // list's entry set in heading tags, unless a contents list points
        // to it (a chapter's number linking on to its vocabulary).
        if forwardTitleLinksInEntry > 0, linkCharacters * 10 >= allCharacters * 3, !pendingAnchors.contains(where: listedTargets.contains),
           takeContentsLinks(true) {
            pendingSpace = false
            return
        }
        // A heading made of links to the edition's files (`Spinning Wheel
        // Song, Sheet Music, Page 1`, `…, MIDI`) is its way to them, not
        // the book's: it goes, and an anchor before it names the heading
        // straight before it (the song's title).
        if open.fileLinkCharacters > 0, open.fileLinkCharacters >= titleLines.joined().count(where: { !$0.isWhitespace }) {
            if case .heading = result.items.last {
                for anchor in pendingAnchors where result.anchors[anchor] == nil { result.anchors[anchor] = result.items.count - 1 }
                pendingAnchors = []
            }
            titleLines = []
        }
        // A heading that says again the caption of the picture just
        // before it is that caption, set under the picture; the picture of
        // a numbered heading (`CHAPTER II.` drawn) is the heading's.
        if !titleLines.isEmpty, repeatsThePicturesCaption(titleLines.joined(separator: " ")), case let .block(picture) = result.items.last {
            if HeadingPattern.match(titleLines.joined(separator: " ")) != nil {
                result.items[result.items.count - 1] = .block(TextBlock(.illustration, "", link: picture.link))
            } else {
                titleLines = []
            }
        }
        if !titleLines.isEmpty {
            result.textBeforeHeading[result.items.count] = open.textBefore
            let count = result.items.count
            add(.heading(tagLevel: open.tagLevel, lines: titleLines.map { UpstreamText.capped($0, 200) }))
            let index = result.items.count - 1
            // Its marks, once it is in (an item past the bound is not).
            if !open.links.isEmpty, result.items.count > count, result.items[index].isHeading {
                result.linksInParagraphs[index] = open.links
                if titleLines.contains(where: { $0.unicodeScalars.contains(HTMLBlocks.markOpen) }) { result.itemsWithMarks.insert(index) }
            }
        }
        // A picture in a heading's tag (a chapter's headpiece) is an
        // illustration after the heading, unless it is the heading.
        let caption = Self.text(of: open.caption)
        if !caption.isEmpty || (open.pictures > 0 && !pictureIsTitle) { add(.block(TextBlock(.illustration, caption, link: open.picture))) }
        pendingSpace = false
        // A heading that links back to the contents is no contents entry;
        // in a table, the rows' links before it still are.
        let kept = tableDepth > 0 ? min(open.linksBefore, linkTargets.count) : 0
        linkTargets.removeSubrange(kept...)
        linkLabels.removeSubrange(min(kept, linkLabels.count)...)
        linkTargetPlaces.removeSubrange(min(kept, linkTargetPlaces.count)...)
        if tableDepth == 0 { startEntry() } else { entryLinksStart = min(entryLinksStart, linkTargetPlaces.count) }
    }

    /// Whatever text is gathered, taken out as one line.
    private func takeText() -> String {
        closeItalicForBlockEnd()
        let text = Self.text(of: Array(lines.filter { !$0.isEmpty }.joined(separator: [0x20])))
        lines = [[]]
        generation += 1
        pendingSpace = false
        return text
    }

    private func closeItalicForBlockEnd() {
        if italicOpen && italicWritten {
            lines[lines.count - 1].append(0x5F)
            italicWritten = false
        }
    }

    /// The gathered text as a block of its kind: verse and `<pre>` line by
    /// line; a paragraph of short lines set apart with `<br>` (an address,
    /// a letter's close) too; otherwise prose.
    private func flush() {
        // A paragraph's links go with it, or with nothing (a contents entry).
        defer { paragraphLinks = [] }
        defer { placeBarePicture() }
        closeItalicForBlockEnd()
        if pageReference != nil { dropPageReferenceAtTheEnd() }
        let keepsIndent = preDepth > 0 || verseDepth > 0
        var kept = lines.map { keepsIndent ? Self.trimmedEnd(Self.text(of: $0, folding: false)) : Self.text(of: $0) }
        lines = [[]]
        let linksToSounds = soundLinkGeneration == generation
        generation += 1
        defer { marksWrapped = 0 }
        pendingSpace = false
        while kept.last?.isEmpty == true { kept.removeLast() }
        while kept.first?.isEmpty == true { kept.removeFirst() }
        let isLabelAlone = wayBackCharacters > 0 && kept.count == 1 && (wayBackCharacters == allCharacters || HTMLBlocks.isNoteLabel(kept[0]))
        if tableDepth == 0 { nameItsPageLink(by: kept) }
        // In a table, the links gathered so far are its rows' until it ends.
        guard tableDepth > 0 || !takeContentsLinks(isContentsEntry()), !kept.isEmpty, !TextBlocks.isPictureMarker(kept) else { return }
        // `[Listen] [PDF] [Lilypond]`, `To listen to this music (MIDI
        // file) click here.`: the edition's ways to its sound files, not
        // the book's words.
        if linksToSounds, kept.reduce(0, { $0 + TextBlock(.prose, $1).wordCount }) <= Self.mostWordsBesideSoundLinks { return }
        if noteDepth == 0, !keepsIndent, repeatsThePicturesCaption(kept.joined(separator: " ")) { return }
        if isLabelAlone, pendingLabel == nil {
            pendingLabel = (kept[0], paragraphLinks)
            return
        }
        if let label = pendingLabel {
            pendingLabel = nil
            kept[0] = kept[0].hasPrefix(" ") ? label.text + kept[0] : label.text + " " + kept[0]
            paragraphLinks = label.links + paragraphLinks
        }
        if noteDepth > 0 {
            notesInNoteFrame += 1
            emit(.footnote, [kept.joined(separator: " ")])
        } else if keepsIndent {
            emit(.lines, kept)
        } else if kept.count > 1 {
            let nonEmpty = kept.filter { !$0.isEmpty }
            let short = nonEmpty.allSatisfy { $0.count <= 60 }
            emit(short ? .lines : .prose, short ? nonEmpty : [nonEmpty.joined(separator: " ")])
        } else {
            emit(.prose, kept)
        }
    }

    /// Whether `text` is, word for word, the caption of the picture just
    /// before it in the element that holds it (an `alt` that the caption
    /// set under the picture repeats): the picture says it once. A
    /// heading after a figure that closed is the heading its picture
    /// illustrates.
    private func repeatsThePicturesCaption(_ text: String) -> Bool {
        guard pictureContainer?.item == result.items.count - 1, case let .block(picture) = result.items.last, picture.kind == .illustration
        else { return false }
        let caption = SectionOutline.comparable(picture.text)
        return !caption.isEmpty && caption == SectionOutline.comparable(text)
    }

    /// A page numbered in roman figures (`III`, `xiv`), as a book's front
    /// matter is.
    private static func isRomanPage(_ label: String) -> Bool {
        HeadingPattern.romanValue(HTMLBlocks.unwrapped(label).trimmingWhitespace(), lowercaseToo: true) != nil
    }

    /// A cell that gives a row's page, a word before it at most (`pag. 5`).
    private static func isPageCell(_ cell: String, page: String) -> Bool {
        let text = HTMLBlocks.unwrapped(cell).trimmingWhitespace()
        guard !page.isEmpty, text.hasSuffix(page) else { return false }
        return text.dropLast(page.count).split(whereSeparator: \.isWhitespace).count <= 1
    }

    /// A paragraph whose one link is its page's number (`EGG GRUEL. 31`,
    /// `De la cocina,5`): the link is named by the paragraph's words, as
    /// a row's is by its title, so the entry finds its heading within the
    /// page.
    private func nameItsPageLink(by lines: [String]) {
        guard linkTargets.count == 1, linkLabels.count == 1, HTMLBlocks.namesAPage(linkTargets[0]) else { return }
        let number = HTMLBlocks.unwrapped(linkLabels[0]).trimmingWhitespace()
        let text = HTMLBlocks.unwrapped(lines.joined(separator: " ")).trimmingWhitespace()
        guard HTMLBlocks.isFigures(number), text.hasSuffix(number) else { return }
        let title = text.dropLast(number.count)
        guard let before = title.last, !before.isNumber, title.contains(where: \.isLetter) else { return }
        linkLabels[0] = UpstreamText.capped(title.trimmingWhitespace(), 200)
    }

    /// An entry of a contents list (or a list of illustrations): links to
    /// places in the book make most of it, or it is short and begins with
    /// one further on, or it is a whole list in one paragraph, nearly every
    /// line of it beginning with one. A note's mark is a link too, but
    /// never begins its line; a note begins with a mark that links back to
    /// its reference, and one in a note's frame is none.
    private func isContentsEntry() -> Bool {
        // A note that is a cross-reference (`(118) <a href="#Page_361">Siehe
        // unten p. 361</a> ff.`) is the note's text; a line whose links
        // are notes' marks in brackets (`[238]Coquedicot, …`) is the book's,
        // and so is a paragraph that opens with its note's number (`711 But
        // the humanity of the reader …`), and one whose links are all marks
        // whose anchors name notes (a reference alone in its paragraph).
        guard linksInEntry > 0, noteDepth == 0, bracketedMarksInEntry < linksInEntry, noteMarksInEntry < linksInEntry,
              numberedMarksInEntry < linksInEntry || allCharacters <= Self.longestNumberedEntry, !namesSeveralThingsInOnePlace()
        else { return false }
        // In a list its class calls the contents, any link to a section
        // (a page number's, `I Fatali pag. 5`) makes an entry.
        if contentsClassDepth > 0 && sectionLinksInEntry > 0 && allCharacters <= 300 { return true }
        if allCharacters <= 300 && linksBackInTheBooksOrder() { return true }
        // Under a contents' title, one that begins with a link back to a
        // heading (the list printed after the text).
        if contentsTitleLevel != nil && allCharacters <= 300 && startsWithLinkBack == true && sectionLinksInEntry > 0 { return true }
        return linkCharacters * 10 >= allCharacters * 6 || (startsWithLink == true && allCharacters <= 300 && !runsOnAsProse())
            || (linesInEntry >= 3 && linesStartingWithLink * 10 >= linesInEntry * 8)
            // Or each group of lines in it begins with one, the chapter's
            // summary under it (`CHAPTER I.` / `Civilizing Huck.`).
            || (groupsInEntry >= 3 && groupsInEntry < linesInEntry && groupsStartingWithLink * 10 >= groupsInEntry * 8)
    }

    /// A paragraph that opens with a cross-reference in words and goes on
    /// as a sentence (`<a>Baba Yaga</a> came home just then.`) is the
    /// book's text; an entry whose words run on to a page number
    /// (`<a>A Formal Dinner</a> facing page 177`) is a list's.
    private func runsOnAsProse() -> Bool {
        // Its first link names a title in words, no number or heading
        // (`CHAPTER I`, `12`) that a summary may follow.
        guard runsOnAfterFirstLink == true, !numberAfterLinks, let words = firstLinkWords, words.contains(where: \.isLetter),
              HeadingPattern.match(words) == nil, HeadingPattern.numberAlone(words) == nil
        else { return false }
        return !linkTargets[min(entryLinksStart, linkTargets.count)...].contains(where: HTMLBlocks.namesAPage)
    }

    /// A contents printed at the end of the book, under its title (as
    /// Spanish, Italian and French books print their Índice, their Table
    /// des matières): each entry links back to its page, and the pages
    /// go in the book's order, where an index's go in the alphabet's. An
    /// entry that does is the last one listed.
    private func linksBackInTheBooksOrder() -> Bool {
        guard contentsTitleLevel != nil,
              let link = linkTargets[min(entryLinksStart, linkTargets.count)...].firstIndex(where: HTMLBlocks.namesAPage),
              let place = result.anchors[linkTargets[link]], place >= lastPageListed
        else { return false }
        lastPageListed = place
        if linkTargetPlaces.indices.contains(link) { linkTargetPlaces[link].listedInOrder = true }
        return true
    }

    /// Links with names of their own that all lead to one place (`Cf.
    /// Astarte, Atargatis, …`, each to the edition's word on articles in
    /// other volumes) are cross-references: a contents entry's links to
    /// one place are its number and its title (`CHAPTER I.`, `The Birth`).
    private func namesSeveralThingsInOnePlace() -> Bool {
        guard linkTargets.count >= 2, linkTargets.dropFirst().allSatisfy({ $0 == linkTargets[0] }) else { return false }
        return linkLabels.count { !HTMLBlocks.isFigures($0) && HeadingPattern.match($0) == nil } >= 2
    }

    /// The most characters of a contents entry that a note's number alone
    /// links (`12 The Inn`); more is a paragraph opening with its note's
    /// reference.
    private static let longestNumberedEntry = 120

    /// A heading after a note in the note's frame: the frame was left open
    /// (a `<div class="footnote">` never closed), and the book goes on
    /// outside it. A frame of notes under their own heading (FOOTNOTES)
    /// holds the heading before its first note.
    private func leaveNoteFrameLeftOpen() {
        guard noteDepth > 0, notesInNoteFrame > 0 else { return }
        for index in stack.indices where stack[index].note { stack[index].note = false }
        noteDepth = 0
    }

    /// Whether the entry ending gives a page, told to each of its links.
    private func endEntryLinks() {
        guard entryLinksStart < linkTargetPlaces.count else { return }
        let givesPage = numberAfterLinks || linkTargets[entryLinksStart...].contains(where: HTMLBlocks.namesAPage)
        for index in entryLinksStart..<linkTargetPlaces.count { linkTargetPlaces[index].entryGivesPage = givesPage }
        // Its page's link beside a link to the place the book named (`I |
        // ON JOURNEYS … | 3`) is the same entry's page, no entry of its own.
        let entry = entryLinksStart..<min(linkTargetPlaces.count, linkTargets.count, linkLabels.count)
        func isPage(_ index: Int) -> Bool {
            // Its words, without the wrapping of a mark (a title cell's `I`).
            let label = HTMLBlocks.unwrapped(linkLabels[index]).trimmingWhitespace()
            return HTMLBlocks.namesAPage(linkTargets[index])
                && (HTMLBlocks.isFigures(label) || HeadingPattern.romanValue(label, lowercaseToo: true) != nil)
        }
        let kept = entry.filter { !isPage($0) }
        if !kept.isEmpty, kept.count < entry.count {
            linkTargets.replaceSubrange(entry, with: kept.map { linkTargets[$0] })
            linkLabels.replaceSubrange(entry, with: kept.map { linkLabels[$0] })
            linkTargetPlaces.replaceSubrange(entry, with: kept.map { linkTargetPlaces[$0] })
        }
        entryLinksStart = linkTargetPlaces.count
    }

    private func startEntry() {
        entryLinksStart = linkTargetPlaces.count
        numberAfterLinks = false
        wayBackCharacters = 0
        linksInEntry = 0
        sectionLinksInEntry = 0
        forwardTitleLinksInEntry = 0
        bracketedMarksInEntry = 0
        numberedMarksInEntry = 0
        noteMarksInEntry = 0
        linkCharacters = 0
        allCharacters = 0
        startsWithLink = nil
        runsOnAfterFirstLink = nil
        firstLinkWords = nil
        startsWithLinkBack = nil
        linesInEntry = 0
        linesStartingWithLink = 0
        groupsInEntry = 0
        groupsStartingWithLink = 0
        blankLineBefore = false
        lineStartsWithLink = nil
    }

    /// The targets of the links met so far (at most `maximumLinkTargets`):
    /// a heading one of them names is a section, not a contents list's own.
    private var linkedTargets = Set<String>()
    private static let maximumLinkTargets = 100_000
    /// How many items there were after the last contents entry: a contents
    /// entry after more is the first of a new list.
    private var itemsAfterContentsEntry: Int?

    /// The heading of a contents list (CONTENTS, ILLUSTRATIONS) goes with
    /// it: the heading, or a line of a few words, straight before the
    /// list's first entry, unless a link before names it (a chapter's own
    /// list of its parts keeps its chapter).
    private func dropContentsHeading() {
        defer { itemsAfterContentsEntry = result.items.count }
        guard itemsAfterContentsEntry != result.items.count else { return }
        // A list's ornament (a picture without words) between its title
        // and its first entry goes with the list.
        let count = result.items.count
        if count >= 2, Self.isDecoration(result.items[count - 1]), Self.isListTitle(result.items[count - 2]) {
            removeLastItem(names: result.anchors.filter { $0.value == count - 1 }.map(\.key), passingAnchorsOn: false)
            anchorsOfLastItem = result.anchors.filter { $0.value == count - 2 }.map(\.key)
        }
        if dropRowsBetweenLists() { return }
        guard let last = result.items.last else { return }
        if dropListTitleOverANote() { return }
        let isHeading = Self.isLineWithoutLink(last, mostWords: Self.mostWordsOfAListsLine) || Self.isListTitle(last)
        let index = result.items.count - 1
        let names = anchorsOfLastItem
        // A link that is a list of its own (INDICE at the front of a book
        // whose contents stand at its end) is the way to the contents.
        // A list's own title (LIST OF ILLUSTRATIONS) goes with it even
        // where the contents links to it: its anchors then name nothing.
        let isListTitle = Self.isListTitle(last)
        let isNamed = !isListTitle && names.contains(where: namesASection)
        guard isHeading, !isNamed, result.linksInParagraphs[index] == nil else { return }
        // A list's title that names a division (`Book II` over its
        // chapters' table) is a row of the contents without a link.
        if case let .heading(_, lines) = last, !isListTitle, let division = HeadingPattern.match(lines.joined(separator: " ")),
           division.kind <= .book, division.kind != .outermost {
            recordGroupTitle(lines.joined(separator: " "))
        }
        removeLastItem(names: names, passingAnchorsOn: !isListTitle)
        if case let .heading(tagLevel, _) = last, outerContentsHeading == nil { findOuterContentsHeading(above: tagLevel) }
        // A line between a list's title and its first entry (the page
        // column's `Blz.`, the first entry's number `CHAPTER I.` set apart)
        // left the title above it: it goes too.
        if case .block = last, contentsRunEntries == 1, let title = result.items.last, Self.isListTitle(title) {
            let index = result.items.count - 1
            removeLastItem(names: result.anchors.filter { $0.value == index }.map(\.key), passingAnchorsOn: false)
        }
    }

    /// Between two lists of a contents under its title, its rows without
    /// a link (`CHAPITRE II.`, `SECTION Ire.`, `Nœuds et Amarrages.` over
    /// the next table) go with it, every one: the printed contents goes
    /// whole. Whether they went.
    private func dropRowsBetweenLists() -> Bool {
        guard contentsTitleLevel != nil, !result.contentsTargets.isEmpty, let start = itemsAfterContentsEntry,
              (2...Self.mostRowsBetweenLists).contains(result.items.count - start), rowsBetweenListsRead < Self.mostRowsBetweenListsRead
        else { return false }
        let between = start..<result.items.count
        guard between.allSatisfy({ result.linksInParagraphs[$0] == nil && Self.isLineWithoutLink(result.items[$0], mostWords: Self.mostWordsOfARow) })
        else { return false }
        rowsBetweenListsRead += 1
        let names = result.anchors.filter { between.contains($0.value) }
        guard !names.keys.contains(where: namesASection) else { return false }
        for index in between {
            switch result.items[index] {
            case let .heading(_, lines): recordGroupTitle(lines.joined(separator: " "))
            case let .block(block): recordGroupTitle(block.text)
            }
        }
        for index in between.reversed() { removeLastItem(names: names.filter { $0.value == index }.map(\.key)) }
        return true
    }

    /// A contents' row without a link, kept as the title of a division it
    /// may name, its white space folded; a few thousand at most.
    private func recordGroupTitle(_ text: String) {
        let title = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !title.isEmpty, title.count <= 200, result.contentsGroupTitles.count < Self.mostGroupTitles else { return }
        result.contentsGroupTitles.append(title)
    }

    private static let mostGroupTitles = 2_000
    /// The rows of the table being read that hold no link.
    private var tableRowsWithoutLinks: [String] = []

    /// A heading, or a paragraph of at most `mostWords` words without a
    /// link: a line of a list that is no entry (its title, a group's).
    private static func isLineWithoutLink(_ item: HTMLBlocks.Item, mostWords: Int) -> Bool {
        switch item {
        case .heading: true
        case let .block(block): (block.kind == .prose || block.kind == .lines) && block.wordCount <= mostWords && block.link == nil
        }
    }

    /// Whether an anchor is a section a link leads to, not only a link
    /// that is a list of its own (INDICE at the front, to the contents).
    private func namesASection(_ anchor: String) -> Bool {
        linkedTargets.contains(anchor) && (linkedAgain.contains(anchor) || !loneContentsTargets.contains(anchor))
    }

    /// The most rows without links a contents sets between two of its
    /// lists, and how many such runs a book's contents looks at (each
    /// reads every anchor).
    private static let mostRowsBetweenLists = 4
    /// A division's title in a row of its own (`Des Manœuvres qui
    /// n'appartiennent pas au Gréement.`).
    private static let mostWordsOfARow = 12
    private static let mostRowsBetweenListsRead = 1_000
    private var rowsBetweenListsRead = 0

    private static func isPicturesListTitle(_ item: HTMLBlocks.Item) -> Bool {
        listTitleWords(of: item).map(ContentsList.isPicturesListTitle) ?? false
    }

    /// An entry that says it is a picture's (`Illustration: Beverley with
    /// potion`) names no section.
    private static func namesAPicture(_ label: String) -> Bool {
        let words = HTMLBlocks.unwrapped(label).trimmingWhitespace().lowercased()
        guard words.hasPrefix("illustration") else { return false }
        let rest = words.dropFirst("illustration".count).drop { $0 == "s" }
        return rest.first.map { $0 == ":" || $0 == "." } ?? true
    }

    /// A list's title (CONTENTS., INHOUD) alone in its heading or
    /// paragraph, or drawn (a picture whose words are the title).
    private static func isListTitle(_ item: HTMLBlocks.Item) -> Bool {
        listTitleWords(of: item).map(ContentsList.isListTitle) ?? false
    }

    /// The words of an item that may be a list's title: a heading of one
    /// line, a paragraph without a link, a picture.
    private static func listTitleWords(of item: HTMLBlocks.Item) -> String? {
        switch item {
        case let .heading(_, lines): lines.first
        case let .block(block):
            (block.kind == .prose || block.kind == .lines) && block.link == nil || block.kind == .illustration ? block.text : nil
        }
    }

    /// A list's title with a note on the list between it and the list
    /// (LIST OF ILLUSTRATIONS, then `[Transcriber's Note: illustrations
    /// were moved …]`): the title goes, the note stays.
    private func dropListTitleOverANote() -> Bool {
        let count = result.items.count
        guard count >= 2, case let .block(note) = result.items[count - 1], note.kind == .prose, note.link == nil,
              note.wordCount > Self.mostWordsOfAListsLine, note.wordCount <= Self.mostWordsOfAListsNote, result.linksInParagraphs[count - 1] == nil,
              result.items[count - 2].isHeading, Self.isListTitle(result.items[count - 2])
        else { return false }
        let noteNames = anchorsOfLastItem, waiting = pendingAnchors
        removeLastItem(names: noteNames, passingAnchorsOn: false)
        removeLastItem(names: result.anchors.filter { $0.value == count - 2 }.map(\.key), passingAnchorsOn: false)
        pendingAnchors = noteNames
        add(.block(note))
        pendingAnchors = waiting
        return true
    }

    /// The most words of a note on a list between its title and the list.
    private static let mostWordsOfAListsNote = 80
    /// The most words of a list's line of its own before its first entry
    /// (its title, the page column's `PAGE`): fewer than a note's.
    private static let mostWordsOfAListsLine = 4

    /// Takes out the last item, a heading of the contents: its anchors
    /// name what follows it, unless they name the contents or the list.
    private func removeLastItem(names: [String], passingAnchorsOn: Bool = true) {
        result.items.removeLast()
        result.textBeforeHeading[result.items.count] = nil
        for name in names {
            result.anchors[name] = nil
            if passingAnchorsOn, pendingAnchors.count < 64, !loneContentsTargets.contains(name) { pendingAnchors.insert(name, at: 0) }
        }
    }

    /// The contents list being read: its entries, its first targets, and
    /// whether its title calls it a list of illustrations.
    private var contentsRunEntries = 0
    private var contentsRunNamesPictures = false
    private var contentsListsRead = 0
    private var contentsRunTargets: [String] = []
    /// The targets of contents lists of one entry and one link.
    private var loneContentsTargets = Set<String>()
    /// Every contents list's targets so far: what one points to is no
    /// entry itself.
    private var listedTargets = Set<String>()
    /// The targets linked to more than once.
    private var linkedAgain = Set<String>()

    /// A heading above the heading of a contents list's first group
    /// (`INHOUD.` over `OP ZEE.`), a picture without words between them at
    /// most: the contents' own heading if the list is all it holds.
    private var outerContentsHeading: (index: Int, tagLevel: Int)?
    private var outerHeadingsLookedAt = 0
    private static let maximumOuterHeadings = 100

    private func findOuterContentsHeading(above tagLevel: Int) {
        // Each look reads every anchor: a book has a few contents lists.
        guard outerHeadingsLookedAt < Self.maximumOuterHeadings else { return }
        outerHeadingsLookedAt += 1
        guard let index = result.items.lastIndex(where: { !Self.isDecoration($0) }),
              case let .heading(outerLevel, _) = result.items[index], outerLevel < tagLevel
        else { return }
        let names = result.anchors.filter { $0.value == index }.map(\.key)
        guard !names.contains(where: linkedTargets.contains) else { return }
        outerContentsHeading = (index, outerLevel)
    }

    /// What comes after a contents list decides its outer heading: a
    /// heading at its level or above (or the end) ends what it held, so
    /// it goes; text is what it holds, so it stays, unless the heading is
    /// the list's title (ÍNDICE over its groups I, II, then the printer's
    /// line).
    private func settleOuterContentsHeading(before item: HTMLBlocks.Item?) {
        guard let outer = outerContentsHeading else { return }
        // A list's title (CONTENTS) holds no text, whatever follows it.
        let isTitle = result.items.indices.contains(outer.index) && Self.isListTitle(result.items[outer.index])
        switch item {
        case let .heading(level, _)? where level > outer.tagLevel && !isTitle: return
        case let item? where Self.isDecoration(item): return
        case .heading?, nil: break
        case .block? where isTitle: break
        case .block?:
            outerContentsHeading = nil
            return
        }
        outerContentsHeading = nil
        guard result.items.indices.contains(outer.index), result.items[(outer.index + 1)...].allSatisfy(Self.isDecoration) else { return }
        for index in outer.index..<result.items.count { result.textBeforeHeading[index] = nil }
        result.items.removeSubrange(outer.index...)
        result.anchors = result.anchors.filter { $0.value < outer.index }
        anchorsOfLastItem = []
        // The list ended where its title stood.
        if let after = itemsAfterContentsEntry, after > result.items.count { itemsAfterContentsEntry = result.items.count }
    }

    /// A picture without words (an ornament) between a heading and what
    /// it heads.
    private static func isDecoration(_ item: HTMLBlocks.Item) -> Bool {
        if case let .block(block) = item { return block.kind == .illustration && block.text.isEmpty }
        return false
    }

    /// A contents list's targets are kept as the book's own outline, its
    /// text is not (true). The entry's counts start again either way.
    private func takeContentsLinks(_ isContents: Bool) -> Bool {
        defer {
            linkTargets = []
            linkLabels = []
            linkTargetPlaces = []
            startEntry()
        }
        guard isContents else { return false }
        // A way back to the contents (`ToC` under a chapter's subtitle) is
        // the edition's, and names no section: it goes alone.
        if linkLabels.count == 1, HTMLBlocks.isWayBackToContents(linkLabels[0]) { return true }
        endEntryLinks()
        if itemsAfterContentsEntry != result.items.count {
            // A new list: the last one was a link alone if it had one entry.
            if contentsRunEntries == 1, contentsRunTargets.count == 1, loneContentsTargets.count < 1_000 {
                loneContentsTargets.insert(contentsRunTargets[0])
            }
            contentsRunEntries = 0
            contentsRunTargets = []
            contentsRunNamesPictures = result.items.suffix(2).contains(where: Self.isPicturesListTitle)
            contentsListsRead += 1
        }
        contentsRunEntries += 1
        if contentsRunTargets.count < 2 { contentsRunTargets += linkTargets.prefix(2) }
        dropContentsHeading()
        let taken = linkTargets.prefix(max(0, 10_000 - result.contentsTargets.count))
        result.contentsTargets.append(contentsOf: taken)
        listedTargets.formUnion(taken)
        result.contentsLabels.append(contentsOf: linkLabels.prefix(taken.count))
        // A table's rows are as deep as their first text stands right of
        // the leftmost row's.
        let leftmost = linkTargetPlaces.lazy.compactMap(\.column).min() ?? 0
        for (offset, place) in linkTargetPlaces.prefix(taken.count).enumerated() {
            let label = linkLabels.indices.contains(offset) ? linkLabels[offset] : ""
            result.contentsDepths.append(listDepth + place.indent + (place.column.map { $0 - leftmost } ?? 0))
            result.contentsGivesPage.append(place.entryGivesPage)
            result.contentsBold.append(place.isBold)
            result.contentsNamePictures.append(contentsRunNamesPictures || Self.namesAPicture(label))
            result.contentsLists.append(contentsListsRead)
            result.contentsListedInOrder.append(place.listedInOrder)
            result.contentsPlaces.append(result.items.count)
        }
        return true
    }

    /// A block, cut where the plain-text rules cut theirs.
    private func emit(_ kind: TextBlock.Kind, _ blockLines: [String]) {
        let blockLines = blockLines.filter { kind == .lines || !$0.isEmpty }
        guard !blockLines.isEmpty else { return }
        if kind == .lines {
            var cut: [String] = []
            for line in blockLines {
                var rest = Substring(line)
                repeat {
                    let piece = rest.prefix(TextBlocks.maximumLineLength)
                    cut.append(String(piece))
                    rest = rest.dropFirst(piece.count)
                } while !rest.isEmpty
            }
            var start = 0
            while start < cut.count {
                let end = min(cut.count, start + TextBlocks.maximumLines)
                let text = cut[start..<end].joined(separator: "\n")
                if !text.allSatisfy({ $0 == " " || $0 == "\n" }) { add(.block(TextBlock(.lines, text))) }
                start = end
            }
        } else {
            add(.block(TextBlock(kind, blockLines.joined(separator: " "))))
        }
    }

    /// An item, named by the anchors met since the last one. In a flood
    /// (`TextBlocks.isFlood`), a paragraph joins the one before it.
    private func add(_ item: HTMLBlocks.Item) {
        settleOuterContentsHeading(before: item)
        if case let .heading(tagLevel, _) = item {
            if Self.isListTitle(item) {
                (contentsTitleLevel, lastPageListed) = (tagLevel, -1)
            } else if let level = contentsTitleLevel, tagLevel <= level {
                contentsTitleLevel = nil
            }
        }
        if let label = pendingLabel {
            // A label whose note did not follow stays where it stood.
            pendingLabel = nil
            let following = paragraphLinks
            paragraphLinks = label.links
            add(.block(TextBlock(noteDepth > 0 ? .footnote : .prose, label.text)))
            paragraphLinks = following
        }
        // An anchor after a paragraph's last words, where another names
        // the paragraph, names what comes next (an edition that closes
        // each note with the next one's anchor).
        var nextItemAnchors: [String] = []
        if case .block = item, pendingAnchors.count > 1, let first = result.textBeforeAnchor[pendingAnchors[0]], first < visibleSoFar {
            nextItemAnchors = pendingAnchors.dropFirst().filter { result.textBeforeAnchor[$0] == visibleSoFar }
            pendingAnchors.removeAll(where: nextItemAnchors.contains)
        }
        defer { pendingAnchors += nextItemAnchors }
        // A note is named by its anchor, the target of its references.
        if case let .block(block) = item, block.kind == .footnote, block.link == nil, let anchor = pendingAnchors.first {
            let link = TerminalText.sanitize(UpstreamText.capped(anchor, TextBlock.maximumLinkLength), singleLine: true)
            return add(.block(TextBlock(.footnote, block.text, link: link)))
        }
        if case let .block(block) = item {
            textBytes += block.text.utf8.count
            let holdsMarks = marksWrapped > 0 && block.text.unicodeScalars.contains(HTMLBlocks.markOpen)
            if block.kind == .prose, pendingAnchors.isEmpty, TextBlocks.isFlood(blocks: result.items.count, textBytes: textBytes),
               joinsTheLast(block), case var .block(joined) = result.items.removeLast() {
                // Taken out and put back: the text grows in place.
                joined.text += " " + block.text
                result.items.append(.block(joined))
                if holdsMarks { result.itemsWithMarks.insert(result.items.count - 1) }
                return
            }
            if holdsMarks, result.items.count < HTMLBlocks.maximumItems { result.itemsWithMarks.insert(result.items.count) }
        }
        guard result.items.count < HTMLBlocks.maximumItems else { return }
        if case let .block(block) = item, block.kind != .footnote, block.kind != .illustration, !paragraphLinks.isEmpty {
            result.linksInParagraphs[result.items.count] = paragraphLinks
            paragraphLinks = []
        }
        anchorsOfLastItem = []
        for anchor in pendingAnchors where result.anchors[anchor] == nil && result.anchors.count < HTMLBlocks.maximumItems {
            result.anchors[anchor] = result.items.count
            anchorsOfLastItem.append(anchor)
        }
        pendingAnchors = []
        result.items.append(item)
    }

    private func joinsTheLast(_ block: TextBlock) -> Bool {
        guard case let .block(last)? = result.items.last else { return false }
        return last.kind == .prose && last.text.utf8.count + block.text.utf8.count < HTMLBlocks.maximumProseBytes
    }

    func finish() {
        while let frame = stack.popLast() { close(frame) }
        finishHeading()
        flush()
        if let label = pendingLabel {
            pendingLabel = nil
            paragraphLinks = label.links
            add(.block(TextBlock(.prose, label.text)))
        }
        settleOuterContentsHeading(before: nil)
    }

    private static func headingLevel(_ name: String) -> Int? {
        guard name.utf8.count == 2, name.hasPrefix("h"), let digit = name.last?.wholeNumberValue, (1...6).contains(digit) else { return nil }
        return digit
    }

    /// A page number as a page's anchor holds it: `12`, `[12]`, `[pg 12]`,
    /// `{xiv}`, `[Pg 012]`, `(p. 12)`, and nothing else.
    static func isPageNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Text a page anchor wraps is read as a page number only when short.
        guard bytes.count <= 64 else { return false }
        let written = String(decoding: bytes, as: UTF8.self).trimmingWhitespace().lowercased()
        guard !written.isEmpty, written.utf8.count <= 24 else { return false }
        var text = pageNumberAfterWord(Substring(written))
        if let last = text.last, "])}".contains(last) { text = text.dropLast() }
        return !text.isEmpty && text.count <= 8 && (text.allSatisfy { ("0"..."9").contains($0) } || text.allSatisfy { "ivxlcdm".contains($0) })
    }

    /// What follows a page number's opening (`[`, `pg`, `Page`, `p.`) in
    /// lowercased text; a line may break between the word and the number
    /// (`[pg⏎ x]`).
    static func pageNumberAfterWord(_ text: Substring) -> Substring {
        var text = text
        if let first = text.first, "[({".contains(first) { text = text.dropFirst() }
        for prefix in ["page", "pag.", "pg", "p."] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        return text.drop { $0.isWhitespace || $0 == "." }
    }

    /// `i2`, `i10`: a verse line indented by that many ems, as spaces.
    private static func indent(_ className: String) -> Int? {
        guard className.hasPrefix("i"), let value = Int(className.dropFirst()), (0...40).contains(value) else { return nil }
        return value
    }

    private static func attributes(_ pointer: UnsafePointer<UnsafePointer<CChar>?>?) -> [String: String] {
        guard var cursor = pointer else { return [:] }
        var attributes: [String: String] = [:]
        var count = 0
        while let name = cursor.pointee, count < 64 {
            let value = cursor.advanced(by: 1).pointee
            let key = String(cString: name).lowercased()
            if key == "id" || key == "name" || key == "class" || key == "href" || key == "alt" || key == "src" || key == "height" || key == "style" {
                attributes[key] = value.map { String(String(cString: $0).prefix(1_000)) } ?? ""
            }
            cursor = cursor.advanced(by: 2)
            count += 1
        }
        return attributes
    }

    /// The text of gathered bytes: nothing a terminal would act on, no
    /// search marker or BOM (a character reference can write any of them),
    /// white space folded again where something was taken out.
    static func text(of bytes: [UInt8], folding: Bool = true) -> String {
        let raw = String(decoding: bytes, as: UTF8.self)
        let clean = TerminalText.sanitize(raw, singleLine: true).removingInvisibleMarks()
        guard folding, clean != raw else { return clean }
        var result = String.UnicodeScalarView()
        var space = false
        for scalar in clean.unicodeScalars {
            if scalar.properties.isWhitespace {
                space = !result.isEmpty
            } else {
                if space { result.append(" ") }
                space = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func trimmedEnd(_ text: String) -> String {
        guard let last = text.lastIndex(where: { $0 != " " }) else { return "" }
        return String(text[...last])
    }
}
