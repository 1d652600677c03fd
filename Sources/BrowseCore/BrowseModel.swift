import ComicsKit

public enum BrowseModel {
    public static func handle(_ state: inout BrowseState, _ event: BrowseEvent) -> [BrowseEffect] {
        let effects = update(&state, event)
        return effects + picturesWanted(&state)
    }

    private static func update(_ state: inout BrowseState, _ event: BrowseEvent) -> [BrowseEffect] {
        switch event {
        case let .key(key):
            // Esc over a message (an error after `:`) dismisses it alone.
            if key == .escape, state.message != nil, state.prompt == nil, !state.showsHelp {
                state.message = nil
                return []
            }
            state.message = nil
            if state.showsHelp {
                // Moving keys scroll a help that does not fit; any other closes it.
                let lines = BrowseHelp.lines(state).count
                if let offset = offset(of: key, height: state.listHeight) {
                    state.helpTop += offset
                } else {
                    state.showsHelp = false
                    state.helpTop = 0
                }
                state.helpTop = max(0, min(state.helpTop, lines - state.listHeight))
                return []
            }
            if state.prompt != nil { return prompt(&state, key) }
            return handleKey(&state, telling(key, &state))
        case let .resized(rows, columns):
            state.rows = rows
            state.columns = columns
            var effects: [BrowseEffect] = []
            for index in state.screens.indices {
                switch state.screens[index] {
                case var .list(list):
                    keepVisible(&list, height: rowsInView(list, state))
                    state.screens[index] = .list(list)
                case let .detail(detail):
                    if index == state.screens.count - 1 { effects.append(.showDetail(detail.ref, width: columns, height: state.listHeight)) }
                case .reader:
                    // Laid out again at the new width, from the same place.
                    break
                }
            }
            return effects
        case let .answered(query, answer):
            return answered(&state, query, answer)
        case let .unanswered(query, reason):
            return unanswered(&state, query, reason)
        case let .time(now):
            state.now = now
            return []
        case let .said(message):
            state.message = message
            return []
        case .leaving:
            state.isFinished = true
            return leaving(&state)
        case let .startReading(ref, title, start, terms):
            state.leavesWithReader = true
            return openReader(&state, ref, title: title, from: start, searching: terms)
        case let .fetched(listing, failure, refresh, at):
            // The fetches browse makes by itself are said through the
            // refresh record the database keeps; `r`'s is said here.
            guard refresh, state.screens.contains(where: { $0.listing == listing }) else { return [] }
            state.freshness = failure.map { .failed(reason: $0, at: at, refreshing: true) } ?? .quiet
            return []
        case let .pictureLoaded(ref, picture, graphics, colors):
            guard case var .detail(shown) = state.visible, shown.ref == ref else { return [] }
            shown.picture = picture
            shown.graphics = graphics
            shown.pictureColors = colors
            shown.pictureNote = nil
            if shown.followsEnd { shown.top = max(0, shown.shownLines.count - state.listHeight) }
            state.screens[state.screens.count - 1] = .detail(shown)
            return []
        case let .itemUnavailable(ref, reason):
            guard case var .detail(shown) = state.visible, shown.ref == ref else { return [] }
            if shown.lines.isEmpty { shown.lines = [reason] }
            shown.pictureNote = nil
            state.screens[state.screens.count - 1] = .detail(shown)
            return []
        case let .pictureNote(ref, note):
            guard case var .detail(shown) = state.visible, shown.ref == ref, shown.picture.isEmpty else { return [] }
            shown.pictureNote = note
            state.screens[state.screens.count - 1] = .detail(shown)
            return []
        case let .terminalOpened(hasColors):
            if !hasColors && !state.picturesAsGraphics { state.showsPictures = false }
            return []
        case let .readingSpeed(speed):
            state.readingSpeed = speed
            return []
        case .readerOpened, .readerDownloading, .readerDownloaded, .readerFailed, .readerMatches, .readerMessage, .readerBlockFound, .readerBookmarks,
             .readerProgress, .readerPicture, .readerNote:
            return readerEvent(&state, event)
        }
    }

    /// A second click on the same row soon after the first is a double click.
    static func telling(_ key: Key, _ state: inout BrowseState) -> Key {
        guard case let .click(row, column) = key, let now = state.now else { return key }
        if let last = state.lastClick, last.row == row, now.timeIntervalSince(last.at) < 0.4 {
            state.lastClick = nil
            return .doubleClick(row: row, column: column)
        }
        state.lastClick = BrowseClick(row: row, at: now)
        return key
    }

    private static func handleKey(_ state: inout BrowseState, _ key: Key) -> [BrowseEffect] {
        if case var .reader(reader) = state.visible {
            let index = state.screens.count - 1
            let effects = readerKey(&reader, key, state: &state)
            if state.screens.count > index { state.screens[index] = .reader(reader) }
            return effects
        }
        switch key {
        case .character("q"):
            if state.screens.count > 1 { state.screens.removeLast() } else { state.isFinished = true }
            return []
        case .character("Q"):
            state.isFinished = true
            return []
        case .control("l"):
            return [.redraw]
        case .character("?"), .f1:
            state.showsHelp = true
            return []
        case .character("/"):
            openPrompt(&state, .search, text: "")
            return []
        case .character(":"):
            guard case let .list(bottom) = state.screens[0] else { return [] }
            if bottom.listing == .source(.xkcd) {
                openPrompt(&state, .jump, text: "")
            } else {
                // Pre-filled with the query shown, to be edited.
                let current = if case let .books(query) = bottom.listing { promptText(of: query) } else { "" }
                openPrompt(&state, .booksQuery, text: current)
            }
            return []
        case let .character(digit) where digit.isASCII && digit.isNumber:
            guard case let .list(list) = state.visible, list.listing.isPaged else { return [] }
            openPrompt(&state, .jump, text: String(digit))
            return []
        case .escape, .left, .character("h"):
            if state.screens.count > 1 { state.screens.removeLast() }
            return []
        case .character("F"):
            if case let .list(list) = state.visible, list.listing == .favorites { return [] }
            state.screens.append(.list(BrowseList(listing: .favorites, isLoading: true)))
            return []
        case .character("L"):
            if case let .list(list) = state.visible, list.listing == .reading { return [] }
            state.screens.append(.list(BrowseList(listing: .reading, isLoading: true)))
            return []
        case .character("s"):
            guard case let .list(list) = state.screens[0] else { return [] }
            let next: BrowseListing = list.listing == .source(.xkcd) ? state.booksListing : .source(.xkcd)
            // Each listing is found again where it was left.
            state.places[list.listing] = BrowsePlace(selected: list.selected, top: list.top)
            var shown = BrowseList(listing: next)
            if let place = state.places[next] { (shown.selected, shown.top) = (place.selected, place.top) }
            state.screens = [.list(shown)]
            if state.freshness != .offline { state.freshness = .quiet }
            return []
        default:
            break
        }
        let index = state.screens.count - 1
        switch state.visible {
        case var .list(list):
            // A detail screen the key opens goes above `index`.
            let effects = listKey(&list, key, state: &state)
            state.screens[index] = .list(list)
            return effects
        case var .detail(detail):
            let effects = detailKey(&detail, key, state: &state)
            state.screens[index] = .detail(detail)
            return effects
        case .reader:
            return []
        }
    }

    /// How far a moving key moves on a screen `height` rows tall, in rows;
    /// nil for any other key.
    static func offset(of key: Key, height: Int) -> Int? {
        switch key {
        case .down, .character("j"): 1
        case .up, .character("k"): -1
        case .pageDown, .character(" "), .control("f"): height
        case .pageUp, .character("b"), .control("b"): -height
        case .control("d"): max(1, height / 2)
        case .control("u"): -max(1, height / 2)
        case .wheelDown: 3
        case .wheelUp: -3
        default: nil
        }
    }

    /// How many rows of a list fit on the screen.
    public static func rowsInView(_ list: BrowseList, _ state: BrowseState) -> Int {
        max(1, state.listHeight / list.rowHeight)
    }
}
