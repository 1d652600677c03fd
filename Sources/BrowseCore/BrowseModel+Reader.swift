import ComicsKit
import struct FoundationEssentials.Date

extension BrowseModel {
    /// `R`: the book's text in the reader, from where reading stopped.
    public static func openReader(
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

    public static func readerEvent(_ state: inout BrowseState, _ event: BrowseEvent) -> [BrowseEffect] {
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
        case let .readerDownloading(ref) where ref == reader.ref:
            reader.status = .downloading()
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
            reader.bookmarks = bookmarks.filter { $0.note == nil }
            reader.notes = bookmarks.filter { $0.note != nil }
            if let added {
                state.message = added.note == nil ? "bookmark \(added.number): \(added.name) (' lists them)" : "note added (A lists them)"
            }
        case let .readerNote(ref, label, note, failure) where ref == reader.ref:
            guard reader.note?.label == label else { return [] }
            reader.note?.note = note
            reader.note?.failure = failure ?? (note == nil ? "no note [\(label)] found in \(reader.ref)" : nil)
        case let .readerPicture(ref, key, drawing) where ref == reader.ref:
            guard reader.pictures[key] != nil else { return [] }
            reader.pictures[key] = drawing
        case let .readerBlockFound(ref, block) where ref == reader.ref:
            reader.go(toBlock: block, height: state.listHeight)
            let effects = savePlace(&reader, now: state.now)
            state.screens[state.screens.count - 1] = .reader(reader)
            return effects
        default:
            return []
        }
        state.screens[state.screens.count - 1] = .reader(reader)
        return []
    }

    /// The reader's keys; every way out saves the place first.
    public static func readerKey(_ reader: inout BrowseReader, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let height = state.listHeight
        if reader.fullPicture != nil {
            // Any key goes back to the page from a picture shown alone.
            reader.fullPicture = nil
            return []
        }
        if reader.note != nil {
            let effects = noteKey(&reader, key, state: &state)
            return effects + savePlace(&reader, now: state.now)
        }
        if reader.contents != nil { return contentsKey(&reader, key, height: height, now: state.now) }
        if reader.marks != nil { return marksKey(&reader, key, state: &state) }
        if key == .tab || key == .backTab {
            if selectMark(&reader, forward: key == .tab, height: height) { return [] }
            guard key == .tab else {
                state.message = "no note marks on this page"
                return []
            }
        } else if key == .enter, let mark = reader.selectedMark, reader.marksInView(height: height).contains(mark) {
            reader.note = ReaderNoteBox(label: mark.label)
            return [.findNote(reader.ref, label: mark.label, ordinal: mark.ordinal, block: mark.block)]
        } else {
            reader.selectedMark = nil
        }
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
        case .character("'"), .character("A"):
            reader.listsNotes = key == .character("A")
            reader.marks = ReaderContents(selected: 0)
            return []
        case .character("a"):
            guard reader.status == .ready, reader.passage != nil else { return [] }
            openPrompt(&state, .noteText(nil), text: "")
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
            var save = savePlace(&reader, now: state.now)
            if case .downloading = reader.status { save.append(.cancelDownload(reader.ref)) }
            if key == .character("Q") || state.leavesWithReader {
                if state.leavesWithReader, case let .failed(reason) = reader.status { state.unread = reason }
                state.isFinished = true
                return save
            }
            // The screens under it show what reading left (their queries are
            // declared again, and answered afresh).
            state.screens.removeLast()
            return save
        case .enter where state.showsPictures && !reader.picturesInView(height: height).isEmpty:
            reader.fullPicture = reader.picturesInView(height: height).first
            return []
        case let .click(row, _):
            guard state.showsPictures, let line = reader.passage?.lines.dropFirst(reader.topLine).dropFirst(row).first,
                  let picture = line.picture else { return [] }
            reader.fullPicture = picture.key
            return []
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
            reader.jumped()
            reader.wantsEnd = true
            if let passage = reader.passage, let map = reader.map, passage.endBlock >= map.blockCount {
                reader.show(passage, height: height)
            }
        case .control("o"), .tab:
            let place = key == .tab ? reader.jumps.forward() : reader.jumps.back(from: reader.top)
            guard let place else {
                state.message = key == .tab ? "no jump ahead: Ctrl-O goes back" : "no jump to go back to"
                return []
            }
            reader.go(toBlock: place.block, offset: place.offset, height: height, recordsJump: false)
            return savePlace(&reader, now: state.now)
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
        return savePlace(&reader, now: state.now, turningPage: true)
    }

    /// The table of contents' keys: moving, digits to select a section by
    /// its number, Enter to go, anything else back.
    private static func contentsKey(_ reader: inout BrowseReader, _ key: Key, height: Int, now: Date?) -> [BrowseEffect] {
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
            return savePlace(&reader, now: now)
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
        let count = reader.listedMarks.count
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
            return savePlace(&reader, now: state.now)
        case .enter, .right, .character("l"):
            reader.marks = nil
            guard reader.listedMarks.indices.contains(marks.selected) else { return [] }
            let mark = reader.listedMarks[marks.selected]
            reader.go(toBlock: mark.position.block, offset: mark.position.offset, height: height)
            return savePlace(&reader, now: state.now)
        case .character("r"):
            guard reader.listedMarks.indices.contains(marks.selected) else { return [] }
            let mark = reader.listedMarks[marks.selected]
            if reader.listsNotes {
                openPrompt(&state, .noteText(mark.number), text: mark.note ?? "")
            } else {
                openPrompt(&state, .bookmarkName(mark.number), text: mark.name)
            }
            return []
        case .character("d"):
            guard reader.listedMarks.indices.contains(marks.selected) else { return [] }
            let number = reader.listedMarks[marks.selected].number
            if reader.listsNotes { reader.notes.remove(at: marks.selected) } else { reader.bookmarks.remove(at: marks.selected) }
            marks.selected = min(marks.selected, max(0, reader.listedMarks.count - 1))
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
    public static func readerGo(_ state: inout BrowseState, to text: String) -> [BrowseEffect] {
        guard case var .reader(reader) = state.visible, let map = reader.map, !text.isEmpty else { return [] }
        let height = state.listHeight
        var effects: [BrowseEffect] = []
        if text.hasSuffix("%"), let percent = Double(text.dropLast().trimmingWhitespace()), (0...100).contains(percent) {
            effects = [.findBlock(reader.ref, percent: percent)]
        } else if let number = Int(text), number == 0 || map.outline.indices.contains(number - 1) {
            // 0: the front matter, before the first section (as `-f json` numbers it).
            reader.go(toBlock: number == 0 ? 0 : map.outline[number - 1].section.firstBlock, height: height)
            effects = savePlace(&reader, now: state.now)
        } else {
            state.message = map.outline.isEmpty
                ? "give a percentage, such as 40%: \(reader.ref) has no sections"
                : "a section 0–\(map.outline.count), or a percentage (40%)"
        }
        state.screens[state.screens.count - 1] = .reader(reader)
        return effects
    }

    public static func readerSearch(_ state: inout BrowseState, _ terms: String, forward: Bool) -> [BrowseEffect] {
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
        return savePlace(&reader, now: state.now)
    }

    /// The place saved when it moved; a page turned forward (not a jump),
    /// with how long the page before it was read, teaches the reading speed.
    private static func savePlace(_ reader: inout BrowseReader, now: Date?, turningPage: Bool = false) -> [BrowseEffect] {
        guard reader.status == .ready, reader.passage != nil, reader.saved != reader.top else { return [] }
        reader.saved = reader.top
        var effects: [BrowseEffect] = [.saveReading(reader.ref, reader.top)]
        if let now, let words = reader.wordsBeforeTop {
            // A screen holds a few hundred words: more is a jump.
            if turningPage, let last = reader.lastTurn, words > last.words, words - last.words <= 1_000 {
                effects.append(.learnReadingSpeed(words: words - last.words, seconds: now.timeIntervalSince(last.at)))
            }
            reader.lastTurn = ReaderTurn(words: words, at: now)
        }
        return effects
    }

    /// Every reader on the stack leaves its place saved.
    static func leaving(_ state: inout BrowseState) -> [BrowseEffect] {
        var effects: [BrowseEffect] = []
        for index in state.screens.indices {
            guard case var .reader(reader) = state.screens[index] else { continue }
            effects += savePlace(&reader, now: state.now)
            state.screens[index] = .reader(reader)
        }
        return effects
    }
}
