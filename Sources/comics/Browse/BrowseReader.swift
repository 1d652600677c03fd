import ComicsKit

/// The reader's colours: the terminal's own (its default foreground and
/// background, whatever they are), or one of two of comics's, as indices
/// of the 256 every colour terminal has.
enum ReaderTheme: String, CaseIterable, Equatable {
    case terminal, dark, light

    /// Foreground and background; -1 is the terminal's default.
    var colors: (text: Int, heading: Int, dim: Int, background: Int) {
        switch self {
        case .terminal: (-1, -1, -1, -1)
        case .dark: (252, 255, 245, 235)
        case .light: (236, 232, 244, 230)
        }
    }

    var next: ReaderTheme {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// A piece of a reader's line and how it is drawn.
struct ReaderRun: Equatable {
    enum Style: Equatable { case plain, bold, italic, dim }
    var text: String
    var style: Style = .plain
}

/// One line of a book as laid out: the place in the text it begins at (a
/// block and a byte offset into its text, width-independent) and its runs.
struct ReaderLine: Equatable {
    let block: Int
    let offset: Int
    let runs: [ReaderRun]

    var text: String { runs.map(\.text).joined() }
}

/// Blocks of a text laid out at one width: what the reader shows is read
/// from the cache around the place being read, never the whole book.
struct ReaderPassage: Equatable {
    let firstBlock: Int
    let endBlock: Int
    let width: Int
    /// The words of the text before each of the passage's blocks.
    let wordsBefore: [Int]
    let lines: [ReaderLine]

    func words(before block: Int) -> Int? {
        wordsBefore.indices.contains(block - firstBlock) ? wordsBefore[block - firstBlock] : nil
    }
}

/// The table of contents over the page: which section is selected, and
/// the first one in view.
struct ReaderContents: Equatable {
    var selected: Int
    var top = 0
    /// Digits typed so far: the section they number is selected.
    var typed = ""
}

/// A search inside the text (`/` forward, `?` backward): the blocks that
/// hold it once the worker found them, and which one the page is at.
struct ReaderSearch: Equatable {
    let query: String
    let forward: Bool
    let terms: TextSearchTerms?
    var blocks: [Int]?
    var current: Int?
}

/// Where the reader opens: where reading stopped, the beginning
/// (`--from-start`), or a paragraph (`--at`, a hit of `search --in`).
enum ReaderStart: Equatable {
    case saved, beginning
    case block(Int)
}

/// Where the reader is with its text.
enum ReaderStatus: Equatable {
    case opening
    /// The bytes so far, of how many, once the first have come.
    case downloading(bytes: Int = 0, of: Int? = nil)
    case ready
    case failed(String)
}

/// The reader screen: a book's text in a column, from the place reading
/// stopped. It holds a passage of laid-out lines around `top`; the session
/// reads another from the cache whenever the place leaves it.
struct BrowseReader: Equatable {
    let ref: ItemRef
    var title: String
    var map: TextMap?
    var passage: ReaderPassage?
    /// The place at the top of the page.
    var top = TextPosition(block: 0)
    /// `top`'s line in `passage`.
    var topLine = 0
    /// G was pressed: the last page, once the end is laid out.
    var wantsEnd = false
    var status = ReaderStatus.opening
    /// The column's width a person chose (`reader.width`).
    var width = BrowseReader.defaultWidth
    /// The place last saved as where reading stopped.
    var saved: TextPosition?
    /// `t`: the outline over the page, with its selection.
    var contents: ReaderContents?
    /// The last search inside the text.
    var search: ReaderSearch?
    var bookmarks: [Bookmark] = []
    /// `'`: the bookmarks over the page, with the one selected.
    var marks: ReaderContents?
    /// Where the last jump came from, for `''`.
    var previous: TextPosition?
    /// Where to open, and what to search for once open.
    var start = ReaderStart.saved
    var startSearch: String?

    static let defaultWidth = 72

    init(ref: ItemRef, title: String, width: Int = BrowseReader.defaultWidth) {
        self.ref = ref
        self.title = title
        self.width = width
    }

    /// The text's width on a screen `columns` wide: the chosen width, or
    /// the screen's less a margin each side when that is narrower.
    func column(for columns: Int) -> Int {
        max(10, min(width, columns - 2))
    }

    /// How far into the book the top of the page is, 0–100; 100 once the
    /// page `height` lines tall shows the book's last line (G, `:100%`).
    func percent(height: Int) -> Int? {
        guard let map, let words = passage?.words(before: top.block) else { return nil }
        if showsTheEnd(height: height) { return 100 }
        // Truncated, as `show` and `toc` say it: 100% only at the very end.
        return min(100, Int(Double(words) * 100 / Double(max(1, map.info.wordCount))))
    }

    func showsTheEnd(height: Int) -> Bool {
        guard let map, let passage else { return false }
        return passage.endBlock >= map.blockCount && topLine + height >= passage.lines.count
    }

    /// Minutes to the next heading at `speed` words a minute, from the
    /// bottom of the page: a part's heading page counts to its first
    /// chapter, not through all of them. Nil once the page shows where the
    /// section ends.
    func minutesLeft(speed: Double, height: Int) -> Int? {
        guard let map, let section, let passage, !showsTheEnd(height: height) else { return nil }
        let bottom = passage.lines.dropFirst(topLine).prefix(height).last?.block ?? top.block
        guard let words = passage.words(before: bottom) else { return nil }
        let next = map.outline.indices.contains(section.number) ? map.outline[section.number] : nil
        if let next, next.section.firstBlock <= bottom { return nil }
        let left = min(next?.startWord ?? section.startWord + section.words, section.startWord + section.words) - words
        return left > 0 ? Int((Double(left) / max(1, speed)).rounded(.up)) : nil
    }

    /// The innermost section the top of the page is in.
    var section: OutlineEntry? {
        map?.outline.last { $0.section.firstBlock <= top.block }
    }

    /// The blocks to read from the cache for the page to be shown, or nil
    /// when the passage holds the page and a screen's margin each way.
    func blocksToRead(columns: Int, height: Int) -> Range<Int>? {
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

    /// A passage read for the page: the top found in it again (the same
    /// block, the line holding the same place in it).
    mutating func show(_ passage: ReaderPassage, height: Int) {
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
    mutating func move(by lines: Int, height: Int) {
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
    mutating func go(toBlock block: Int, offset: Int = 0, height: Int) {
        if top.block != block { previous = top }
        top = TextPosition(block: max(0, block), offset: max(0, offset))
        wantsEnd = false
        guard let passage, passage.lines.contains(where: { $0.block >= block }), block < passage.endBlock, block >= passage.firstBlock else {
            topLine = 0
            return
        }
        show(passage, height: height)
    }

    /// The section after the one the top is in, or the one before (or the
    /// start of this one, from inside it).
    func sectionStart(next: Bool) -> Int? {
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

extension BrowseModel {
    /// `R`: the book's text in the reader, from where reading stopped.
    static func openReader(
        _ state: inout BrowseState, _ ref: ItemRef?, title: String, from start: ReaderStart = .saved, searching terms: String? = nil
    ) -> [BrowseEffect] {
        guard let ref else { return [] }
        guard ref.source == .books else {
            state.message = "\(ref) is a comic; R reads a book's text"
            return []
        }
        var reader = BrowseReader(ref: ref, title: title, width: state.readerWidth)
        reader.start = start
        reader.startSearch = terms
        state.screens.append(.reader(reader))
        return [.openReader(ref)]
    }

    static func readerEvent(_ state: inout BrowseState, _ event: BrowseEvent) -> [BrowseEffect] {
        guard case var .reader(reader) = state.visible else { return [] }
        switch event {
        case let .readerOpened(ref, map, title) where ref == reader.ref:
            reader.map = map
            if let title { reader.title = title }
            let saved = map.position?.position
            switch reader.start {
            case .saved: reader.top = saved ?? TextPosition(block: 0)
            case .beginning: reader.top = TextPosition(block: 0)
            case let .block(block): reader.top = TextPosition(block: min(max(0, block), max(0, map.blockCount - 1)))
            }
            reader.start = .saved
            // Opened elsewhere than where reading stopped: '' goes back there.
            if let saved, saved != reader.top { reader.previous = saved }
            reader.saved = saved
            reader.status = .ready
            if let terms = reader.startSearch {
                reader.startSearch = nil
                state.screens[state.screens.count - 1] = .reader(reader)
                return readerSearch(&state, terms, forward: true)
            }
        case let .readerPassage(ref, passage) where ref == reader.ref:
            reader.show(passage, height: state.listHeight)
        case let .readerDownloaded(ref) where ref == reader.ref:
            state.screens[state.screens.count - 1] = .reader(reader)
            return [.openReader(ref)]
        case let .readerFailed(ref, reason) where ref == reader.ref:
            reader.status = .failed(reason)
        case let .readerMatches(ref, query, blocks) where ref == reader.ref && reader.search?.query == query:
            reader.search?.blocks = blocks
            state.message = nil
            if blocks.isEmpty {
                state.message = "nothing in \(reader.ref) matches \(query)"
            } else {
                let effects = goToMatch(&reader, next: reader.search?.forward ?? true, height: state.listHeight, state: &state)
                state.screens[state.screens.count - 1] = .reader(reader)
                return effects
            }
        case let .readerMessage(ref, message) where ref == reader.ref:
            state.message = message
        case let .readerProgress(ref, bytes, expected) where ref == reader.ref:
            guard case .downloading = reader.status else { return [] }
            reader.status = .downloading(bytes: bytes, of: expected)
        case let .readerBookmarks(ref, bookmarks, added) where ref == reader.ref:
            reader.bookmarks = bookmarks
            if let added { state.message = "bookmark \(added.number): \(added.name) (' lists them)" }
        case let .readerBlockFound(ref, block) where ref == reader.ref:
            reader.go(toBlock: block, height: state.listHeight)
            let effects = savePlace(&reader)
            state.screens[state.screens.count - 1] = .reader(reader)
            return effects
        default:
            return []
        }
        state.screens[state.screens.count - 1] = .reader(reader)
        return []
    }

    /// The reader's keys; every way out saves the place first.
    static func readerKey(_ reader: inout BrowseReader, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let height = state.listHeight
        if reader.contents != nil { return contentsKey(&reader, key, height: height) }
        if reader.marks != nil { return marksKey(&reader, key, state: &state) }
        let before = reader.top
        var turnsPage = true
        switch key {
        case .character("t"):
            guard let outline = reader.map?.outline, !outline.isEmpty else {
                state.message = "\(reader.ref) has no sections"
                return []
            }
            let current = reader.section.map { $0.number - 1 } ?? 0
            reader.contents = ReaderContents(selected: current, top: max(0, current - height / 2))
            return []
        case .character(":"):
            guard reader.status == .ready else { return [] }
            openPrompt(&state, .readerGo, text: "")
            return []
        case .character("/"), .character("?"):
            guard reader.status == .ready else { return [] }
            openPrompt(&state, .readerSearch(forward: key == .character("/")), text: "")
            return []
        case .character("n"), .character("N"):
            guard let search = reader.search else {
                state.message = "no search yet: / or ? searches"
                return []
            }
            guard search.blocks != nil else {
                state.message = "still searching for \(search.query)…"
                return []
            }
            return goToMatch(&reader, next: (key == .character("n")) == search.forward, height: height, state: &state)
        case .character("m"):
            guard reader.status == .ready, reader.passage != nil else { return [] }
            return [.addBookmark(reader.ref, reader.top)]
        case .character("'"):
            reader.marks = ReaderContents(selected: 0)
            return []
        case .character("c"):
            guard !state.colorForbidden else {
                state.message = "NO_COLOR or --no-color: the terminal's own colours"
                return []
            }
            state.readerTheme = state.readerTheme.next
            state.message = "colours: \(state.readerTheme.rawValue)"
            return [.setReaderTheme(state.readerTheme.rawValue)]
        case .character("+"), .character("-"):
            let width = max(20, min(200, reader.width + (key == .character("+") ? 4 : -4)))
            guard width != reader.width else { return [] }
            reader.width = width
            state.readerWidth = width
            state.message = "text width \(width) columns"
            return [.setReaderWidth(width)]
        case .character("r"):
            // A download that failed (a timeout, the server down) is tried again.
            guard case .failed = reader.status else { return [] }
            reader.status = .opening
            return [.openReader(reader.ref)]
        case .character("q"), .escape, .left, .character("h"), .character("Q"):
            var save = savePlace(&reader)
            if case .downloading = reader.status { save.append(.cancelDownload(reader.ref)) }
            if key == .character("Q") || state.leavesWithReader {
                if state.leavesWithReader, case let .failed(reason) = reader.status { state.unread = reason }
                state.isFinished = true
                return save
            }
            state.screens.removeLast()
            // The reading list under it, and a detail screen in view, as reading left them.
            let underneath = state.screens.contains { if case let .list(list) = $0 { list.listing == .reading } else { false } }
            let detail = if case .detail = state.visible { true } else { false }
            return save + (underneath ? [.load(.reading)] : []) + (detail ? [.reloadDetail] : [])
        case .down, .character("j"), .enter, .wheelDown:
            reader.move(by: key == .wheelDown ? 3 : 1, height: height)
            turnsPage = false
        case .up, .character("k"), .wheelUp:
            reader.move(by: key == .wheelUp ? -3 : -1, height: height)
            turnsPage = false
        case .pageDown, .character(" "), .control("f"):
            reader.move(by: max(1, height - 1), height: height)
        case .pageUp, .character("b"), .control("b"):
            reader.move(by: -max(1, height - 1), height: height)
        case .control("d"):
            reader.move(by: max(1, height / 2), height: height)
        case .control("u"):
            reader.move(by: -max(1, height / 2), height: height)
        case .home, .character("g"):
            reader.go(toBlock: 0, height: height)
        case .end, .character("G"):
            reader.previous = reader.top
            reader.wantsEnd = true
            if let passage = reader.passage, let map = reader.map, passage.endBlock >= map.blockCount {
                reader.show(passage, height: height)
            }
        case .character("]"), .character("["):
            guard let block = reader.sectionStart(next: key == .character("]")) else { return [] }
            reader.go(toBlock: block, height: height)
        case .character("H"), .f1:
            state.showsHelp = true
            return []
        case .control("l"):
            return [.redraw]
        default:
            return []
        }
        guard turnsPage, reader.top != before else { return [] }
        return savePlace(&reader)
    }

    /// The table of contents' keys: moving, digits to select a section by
    /// its number, Enter to go, anything else back.
    private static func contentsKey(_ reader: inout BrowseReader, _ key: Key, height: Int) -> [BrowseEffect] {
        guard var contents = reader.contents, let outline = reader.map?.outline else { return [] }
        if case let .character(digit) = key, digit.isASCII, digit.isNumber {
            // A number past the last section starts again from this digit.
            let typed = contents.typed + String(digit)
            contents.typed = Int(typed).map { (1...outline.count).contains($0) } == true ? typed : String(digit)
            if let number = Int(contents.typed), number >= 1 { contents.selected = number - 1 }
        } else if key == .backspace, !contents.typed.isEmpty {
            contents.typed.removeLast()
            if let number = Int(contents.typed), number >= 1 { contents.selected = number - 1 }
        } else {
            contents.typed = ""
        }
        switch key {
        case .character(let digit) where digit.isASCII && digit.isNumber:
            break
        case .backspace:
            break
        case .down, .character("j"): contents.selected += 1
        case .up, .character("k"): contents.selected -= 1
        case .pageDown, .character(" "), .control("f"): contents.selected += height
        case .pageUp, .character("b"), .control("b"): contents.selected -= height
        case .home, .character("g"): contents.selected = 0
        case .end, .character("G"): contents.selected = outline.count - 1
        case .enter, .right, .character("l"):
            reader.contents = nil
            reader.go(toBlock: outline[max(0, min(contents.selected, outline.count - 1))].section.firstBlock, height: height)
            return savePlace(&reader)
        default:
            reader.contents = nil
            return []
        }
        contents.selected = max(0, min(contents.selected, outline.count - 1))
        if contents.selected < contents.top { contents.top = contents.selected }
        if contents.selected >= contents.top + height { contents.top = contents.selected - height + 1 }
        reader.contents = contents
        return []
    }

    /// The bookmarks' keys: Enter goes, ' again goes back to where the last
    /// jump came from, r renames, d deletes, anything else closes them.
    private static func marksKey(_ reader: inout BrowseReader, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        guard var marks = reader.marks else { return [] }
        let height = state.listHeight
        let count = reader.bookmarks.count
        switch key {
        case .down, .character("j"): marks.selected += 1
        case .up, .character("k"): marks.selected -= 1
        case .home, .character("g"): marks.selected = 0
        case .end, .character("G"): marks.selected = count - 1
        case .character("'"):
            reader.marks = nil
            guard let previous = reader.previous else {
                state.message = "no jump to go back from yet"
                return []
            }
            reader.go(toBlock: previous.block, offset: previous.offset, height: height)
            return savePlace(&reader)
        case .enter, .right, .character("l"):
            reader.marks = nil
            guard reader.bookmarks.indices.contains(marks.selected) else { return [] }
            let mark = reader.bookmarks[marks.selected]
            reader.go(toBlock: mark.position.block, offset: mark.position.offset, height: height)
            return savePlace(&reader)
        case .character("r"):
            guard reader.bookmarks.indices.contains(marks.selected) else { return [] }
            let mark = reader.bookmarks[marks.selected]
            openPrompt(&state, .bookmarkName(mark.number), text: mark.name)
            return []
        case .character("d"):
            guard reader.bookmarks.indices.contains(marks.selected) else { return [] }
            let number = reader.bookmarks[marks.selected].number
            reader.bookmarks.remove(at: marks.selected)
            marks.selected = min(marks.selected, max(0, reader.bookmarks.count - 1))
            reader.marks = marks
            return [.removeBookmark(reader.ref, number)]
        default:
            reader.marks = nil
            return []
        }
        marks.selected = max(0, min(marks.selected, count - 1))
        if marks.selected < marks.top { marks.top = marks.selected }
        if marks.selected >= marks.top + height { marks.top = marks.selected - height + 1 }
        reader.marks = marks
        return []
    }

    /// `:`: a section by its number, or a place by its percentage.
    static func readerGo(_ state: inout BrowseState, to text: String) -> [BrowseEffect] {
        guard case var .reader(reader) = state.visible, let map = reader.map, !text.isEmpty else { return [] }
        let height = state.listHeight
        var effects: [BrowseEffect] = []
        if text.hasSuffix("%"), let percent = Double(text.dropLast().trimmingWhitespace()), (0...100).contains(percent) {
            effects = [.findBlock(reader.ref, percent: percent)]
        } else if let number = Int(text), number == 0 || map.outline.indices.contains(number - 1) {
            // 0: the front matter, before the first section (as `-f json` numbers it).
            reader.go(toBlock: number == 0 ? 0 : map.outline[number - 1].section.firstBlock, height: height)
            effects = savePlace(&reader)
        } else {
            state.message = map.outline.isEmpty
                ? "give a percentage, such as 40%: \(reader.ref) has no sections"
                : "a section 0–\(map.outline.count), or a percentage (40%)"
        }
        state.screens[state.screens.count - 1] = .reader(reader)
        return effects
    }

    static func readerSearch(_ state: inout BrowseState, _ terms: String, forward: Bool) -> [BrowseEffect] {
        guard case var .reader(reader) = state.visible, !terms.isEmpty else { return [] }
        reader.search = ReaderSearch(query: terms, forward: forward, terms: TextSearchTerms(query: terms))
        state.message = "searching for \(terms)…"
        state.screens[state.screens.count - 1] = .reader(reader)
        return [.searchText(reader.ref, terms)]
    }

    /// The next match after the top of the page (or the one before it).
    private static func goToMatch(_ reader: inout BrowseReader, next: Bool, height: Int, state: inout BrowseState) -> [BrowseEffect] {
        guard var search = reader.search, let blocks = search.blocks, !blocks.isEmpty else { return [] }
        let here = reader.top.block
        let index: Int
        if next {
            index = blocks.firstIndex { $0 > here || ($0 == here && search.current == nil) } ?? 0
        } else {
            index = blocks.lastIndex { $0 < here } ?? blocks.count - 1
        }
        let wrapped = next ? blocks[index] < here : blocks[index] > here
        search.current = index
        reader.search = search
        reader.go(toBlock: blocks[index], height: height)
        if wrapped { state.message = next ? "past the end: from the start again" : "past the start: from the end again" }
        return savePlace(&reader)
    }

    private static func savePlace(_ reader: inout BrowseReader) -> [BrowseEffect] {
        guard reader.status == .ready, reader.passage != nil, reader.saved != reader.top else { return [] }
        reader.saved = reader.top
        return [.saveReading(reader.ref, reader.top)]
    }
}
