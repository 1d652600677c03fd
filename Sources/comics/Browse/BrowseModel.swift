import ComicsKit
import FoundationEssentials

/// One row of a list screen, as read from the cache.
struct BrowseRow: Equatable {
    let ref: ItemRef
    /// The comic's date or the book's authors.
    let detail: String
    let title: String
    var isFavorite: Bool
    /// For a search result: words around the match; in it and in the
    /// title, `SearchMatch.start` and `end` mark what matched.
    var snippet = ""
    /// A book whose text is downloaded, or that has been read: how far.
    var reading: ReadingMark?
}

/// What a books row says of its reading: the text downloaded (a mark),
/// and how far into it reading stopped.
struct ReadingMark: Equatable {
    let downloaded: Bool
    let percent: Int?
}

/// What a list screen lists.
enum BrowseListing: Hashable {
    case source(SourceName)
    /// Books that match a query set from the `:` prompt.
    case books(ListQuery)
    case favorites
    /// Books with a text downloaded or a place where reading stopped.
    case reading
    case search(String)

    /// Listings of the database by position (a source's archive, a books
    /// query's results), which the network fills; favourites and search
    /// results are read whole.
    var isPaged: Bool { window != nil }

    var window: ListingKey? {
        switch self {
        case let .source(source): ListingKey(source: source)
        case let .books(query): ListingKey(source: .books, query: query)
        case .favorites, .reading, .search: nil
        }
    }
}

/// What the cache holds of a listing around the view, by position: read
/// from the database after every change, never kept as a copy of its own.
struct BrowseWindow: Equatable {
    /// How many positions the listing has; nil until anything is known.
    var count: Int?
    var rows: [Int: BrowseRow] = [:]
    /// Positions whose item is known by number but not cached (drawn as placeholders).
    var ids: [Int: Int] = [:]
    /// The oldest fetch among the rows in view: how old what is shown is.
    var oldest: Date?
}

/// What a prompt asks for.
enum BrowsePromptKind: Hashable {
    /// Terms for a search of the cache (`/`).
    case search
    /// A books query (`:`): words, `language:en,fr`, `topic:…`, `sort:…`.
    case booksQuery
    /// A comic number or a book's position to go to (digits, or `:` on xkcd).
    case jump
    /// In the reader: a section number or a percentage to go to.
    case readerGo
    /// In the reader: words to find after the page (`/`) or before it (`?`).
    case readerSearch(forward: Bool)
    /// In the reader's bookmarks: a new name for bookmark N.
    case bookmarkName(Int)
}

/// A screen of rows: a window over a listing of the database, or the
/// favourites and search results read whole.
struct BrowseList: Equatable {
    let listing: BrowseListing
    /// Favourites and search results.
    var rows: [BrowseRow] = []
    /// A source's archive or a books query, around the view.
    var window = BrowseWindow()
    var selected = 0
    var top = 0
    var isLoading = false
    /// How many search results there are, when more matched than are listed.
    var total: Int?
    /// How many search results to read: a page more each time the
    /// selection comes within a screen of the last read.
    var wanted = BrowseList.searchPage

    static let searchPage = 500

    /// How many positions the selection can move through.
    var count: Int { listing.isPaged ? window.count ?? 0 : rows.count }

    /// Screen lines a row takes: a search result has its snippet under it.
    var rowHeight: Int { if case .search = listing { 2 } else { 1 } }

    func row(at position: Int) -> BrowseRow? {
        listing.isPaged ? window.rows[position] : rows.indices.contains(position) ? rows[position] : nil
    }

    /// The item at a position, cached or known only by its number.
    func ref(at position: Int) -> ItemRef? {
        if let row = row(at: position) { return row.ref }
        guard let key = listing.window, (0..<count).contains(position) else { return nil }
        // xkcd's positions are its numbers, newest first.
        if let id = window.ids[position] ?? (key.source == .xkcd ? count - position : nil) { return ItemRef(source: key.source, id: id) }
        return nil
    }

    var selectedRow: BrowseRow? { row(at: selected) }
}

/// An item's text, cut into lines for the width it was laid out for.
struct BrowseDetail: Equatable {
    let ref: ItemRef
    var lines: [String]
    var top = 0
    var isFavorite: Bool
    /// The picture under the text: lines of symbols, or, for a graphics
    /// protocol, blank rows it is drawn over.
    var picture: [String] = []
    /// The picture as kitty, iTerm2 or sixel graphics, drawn over `picture`'s rows.
    var graphics: String?
    /// The colours of `picture`'s symbols, a line a row; empty without colour.
    var pictureColors: [[BrowseRun]] = []
    /// In the picture's pane until it is drawn: "loading picture…", or why there is none.
    var pictureNote: String?
    /// G or End was the last move: the end stays in view when the picture comes.
    var followsEnd = false

    /// What the screen scrolls through: the text, then the picture.
    var shownLines: [String] {
        if picture.isEmpty { return pictureNote.map { lines + ["", $0] } ?? lines }
        return lines + [""] + picture
    }

    /// The screen row where the graphics go, when all of their rows are in
    /// view with `top` first of `height`; nil otherwise.
    func graphicsRow(height: Int) -> Int? {
        guard graphics != nil, !picture.isEmpty else { return nil }
        let first = lines.count + 1
        guard first >= top, first + picture.count <= top + height else { return nil }
        return first - top
    }
}

enum BrowseScreen: Equatable {
    case list(BrowseList)
    case detail(BrowseDetail)
    case reader(BrowseReader)
}

/// What the status line says of the network, before the age of the rows.
enum BrowseFreshness: Equatable {
    /// Nothing to report: the age of the rows in view says how fresh they are.
    case quiet
    case refreshing
    /// The last fetch or refresh failed, at `at`, for `reason`.
    case failed(reason: String, at: Date, refreshing: Bool)
    /// `--offline`: the cache only.
    case offline
}

/// Browse as a value: the stack of screens (a list at the bottom), the
/// status line and any prompt or help over them. `BrowseModel.handle`
/// turns it and an event into the next state and the effects to run; the
/// terminal and the database stay outside.
struct BrowseState: Equatable {
    var rows: Int
    var columns: Int
    var screens: [BrowseScreen]
    var freshness: BrowseFreshness = .quiet
    /// Text being typed after `/` or `:`; nil when no prompt is open.
    var prompt: String?
    /// Where in `prompt` the next character goes, in characters.
    var promptCursor = 0
    var promptKind = BrowsePromptKind.search
    /// What was entered at each kind of prompt, oldest first; ↑ and ↓ go through it.
    var promptHistory: [BrowsePromptKind: [String]] = [:]
    /// Which entry of the history the prompt shows; nil for the text typed.
    var historyIndex: Int?
    /// How far the help screen is scrolled, when it does not fit.
    var helpTop = 0
    /// What `s` switches to for books: the last query set, kept across `s`.
    var booksListing = BrowseListing.source(.books)
    /// Where each listing left by `s` was: its selection and scroll.
    var places: [BrowseListing: BrowsePlace] = [:]
    var showsHelp = false
    /// The reader's column (`reader.width`).
    var readerWidth = BrowseReader.defaultWidth
    /// `comics read`: leaving the reader ends browse.
    var leavesWithReader = false
    /// `comics read` left while its text could not be had: why, for the
    /// command to fail with once the screen is gone.
    var unread: String?
    /// Words a minute, for the minutes left in a section.
    var readingSpeed = ReadingSpeed.standard
    var readerTheme = ReaderTheme.terminal
    /// NO_COLOR or --no-color: the terminal's colours only.
    var colorForbidden = false
    /// A one-line message that replaces the status line until the next key.
    var message: String?
    var isFinished = false

    init(rows: Int, columns: Int, source: SourceName) {
        self.rows = rows
        self.columns = columns
        screens = [.list(BrowseList(listing: .source(source)))]
    }

    /// Rows of items a list screen shows: all but the status line.
    var listHeight: Int { max(1, rows - 1) }

    var visible: BrowseScreen { screens[screens.count - 1] }
}

/// Where a list was left: its selection and the first row in view.
struct BrowsePlace: Equatable {
    let selected: Int
    let top: Int
}

/// What happens to browse.
enum BrowseEvent: Equatable {
    case key(Key)
    case resized(rows: Int, columns: Int)
    /// Favourites or search results, read whole; `total` when more matched.
    case loaded(BrowseListing, [BrowseRow], total: Int?)
    /// What the cache holds around a window listing's view now.
    case windowRead(BrowseListing, BrowseWindow)
    /// A fetch for a listing ended (`refresh` for `r`'s), with why it failed.
    case fetched(BrowseListing, failure: String?, refresh: Bool, at: Date)
    case detailLoaded(BrowseDetail)
    case pictureLoaded(ItemRef, [String], graphics: String?, colors: [[BrowseRun]])
    /// What the picture's pane says instead of a picture, for now or for good.
    case pictureNote(ItemRef, String)
    /// Another connection wrote: favourites as they are now.
    case favoritesChanged(Set<ItemRef>)
    /// The reader's text, as the cache has it (`title` when known).
    case readerOpened(ItemRef, TextMap, title: String?)
    /// Lines laid out around the reader's place.
    case readerPassage(ItemRef, ReaderPassage)
    /// The worker downloaded the text the reader waits for.
    case readerDownloaded(ItemRef)
    case readerFailed(ItemRef, String)
    /// The blocks of the reader's text that hold `query`, in order.
    case readerMatches(ItemRef, query: String, [Int])
    /// A search or a jump that could not be made, said on the status line.
    case readerMessage(ItemRef, String)
    /// The block `percent` of the way into the reader's text.
    case readerBlockFound(ItemRef, Int)
    /// The book's bookmarks as the cache has them (`added` just made).
    case readerBookmarks(ItemRef, [Bookmark], added: Bookmark?)
    /// The reading speed learned from the last page turn.
    case readingSpeed(Double)
    /// How much of the reader's text has come so far.
    case readerProgress(ItemRef, bytes: Int, of: Int?)
}

/// What the model asks the runtime to do. A window listing's rows are
/// read (and what is missing fetched) by the runtime after every event.
enum BrowseEffect: Equatable {
    /// Favourites or search results, read again.
    case load(BrowseListing)
    case showDetail(ItemRef, width: Int)
    /// The detail in view read again (the reader left over it has moved the place).
    case reloadDetail
    case toggleFavorite(ItemRef)
    case open(ItemRef)
    case refresh(BrowseListing)
    /// Ctrl-L: the whole screen painted again.
    case redraw
    /// The reader's text from the cache, downloaded first when it is not.
    case openReader(ItemRef)
    /// Where reading stopped, remembered.
    case saveReading(ItemRef, TextPosition)
    /// The blocks of the text that hold the words, found off the screen's thread.
    case searchText(ItemRef, String)
    /// The block a percentage of the way into the text.
    case findBlock(ItemRef, percent: Double)
    /// `reader.width`, kept for the next time.
    case setReaderWidth(Int)
    /// `reader.theme`, kept for the next time.
    case setReaderTheme(String)
    /// The reader left while its text downloads: the download stops.
    case cancelDownload(ItemRef)
    case addBookmark(ItemRef, TextPosition)
    case renameBookmark(ItemRef, Int, String)
    case removeBookmark(ItemRef, Int)
}

/// Every key browse answers, with what it does: the help overlay and the
/// README list this one table.
enum BrowseKeys {
    static let table: [(keys: String, action: String)] = [
        ("j k ↓ ↑", "move down or up"),
        ("Space b PgDn PgUp", "move a screen down or up (also Ctrl-F, Ctrl-B)"),
        ("Ctrl-D Ctrl-U", "move half a screen down or up"),
        ("g G Home End", "the first or the last row"),
        ("0-9", "go to a comic by its number, or a book by its place (also :)"),
        ("Enter l →", "open the selected item"),
        ("Esc h ←", "back"),
        ("n p", "the next or previous item, in a detail screen"),
        ("f", "favourite or unfavourite the item"),
        ("F", "the favourites of every source"),
        ("L", "the reading list: books downloaded or begun, the last read first, with how far"),
        ("/", "search what is cached (best first; 500 results at a time, more as you near the last)"),
        (":", "books: set a query (words, language:en, topic:poetry, sort:ascending); xkcd: go to a number"),
        ("s", "switch source (xkcd, books)"),
        ("r", "refresh from the network now"),
        ("o", "open the item's page in a browser"),
        ("R", "read the book's text, from where you stopped (downloaded first if needed; also Enter on a book's detail screen)"),
        ("] [ t :", "in the reader: the next or previous section, the contents, a section number or a percentage"),
        ("/ ? n N", "in the reader: search the text forward or backward, then the next or previous hit"),
        ("+ -", "in the reader: a wider or narrower text (kept as reader.width)"),
        ("c", "in the reader: the colours, the terminal's own, dark or light (kept as reader.theme)"),
        ("m '", "in the reader: bookmark the page; the bookmarks (Enter goes, r renames, d deletes, ' again goes back from the last jump)"),
        ("? F1", "this help (in the reader H or F1: the reader's keys)"),
        ("Ctrl-L", "draw the screen again"),
        ("mouse", "the wheel scrolls, a click selects, a double click opens (off: --no-mouse)"),
        ("q", "back one screen; quit from the first"),
        ("Q", "quit from anywhere"),
    ]
}

/// The reader's keys: its help overlay and `comics read --help` list this
/// one table.
enum ReaderKeys {
    static let table: [(keys: String, action: String)] = [
        ("Space b", "a page down or up (also PgDn PgUp, Ctrl-F Ctrl-B; Ctrl-D Ctrl-U half)"),
        ("j k", "a line down or up (also ↓ ↑, Enter, the wheel)"),
        ("] [", "the next or previous section"),
        ("g G", "the start or the end of the book"),
        ("t :", "the contents (Enter goes, or type a section's number); a section number (:0 the front matter) or a percentage (:40%)"),
        ("/ ? n N", "search forward or backward (the words found highlighted), the next or previous hit"),
        ("m '", "a bookmark here, named after its section and its part; the bookmarks (Enter goes, r renames, d deletes)"),
        ("''", "back to where the last jump came from"),
        ("+ -", "a wider or narrower text, kept as reader.width"),
        ("c", "the colours: the terminal's own, dark, light (kept as reader.theme)"),
        ("H F1", "these keys"),
        ("r", "a download that failed: try again"),
        ("q Esc", "leave (Esc over a message dismisses it); the place is saved at each page and on every way out (Q quits browse)"),
    ]
}

enum BrowseModel {
    static func handle(_ state: inout BrowseState, _ event: BrowseEvent) -> [BrowseEffect] {
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
                let lines = BrowseView.help(state).count
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
            return handleKey(&state, key)
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
                    if index == state.screens.count - 1 { effects.append(.showDetail(detail.ref, width: columns)) }
                case .reader:
                    // Laid out again at the new width, from the same place.
                    break
                }
            }
            return effects
        case let .loaded(listing, rows, total):
            updateList(&state, listing) { list in
                let selectedRef = list.selectedRow?.ref
                list.rows = rows
                if let selectedRef, let index = list.rows.firstIndex(where: { $0.ref == selectedRef }) {
                    list.selected = index
                }
                list.selected = min(list.selected, max(0, list.rows.count - 1))
                list.isLoading = false
                list.total = total
            }
            return []
        case let .windowRead(listing, window):
            updateList(&state, listing) { list in
                // Newer comics go on top: the selection stays on its item,
                // and a list scrolled to its top shows them.
                if case .source(.xkcd) = listing, let before = list.window.count, let now = window.count, now > before {
                    list.selected += now - before
                    if list.top > 0 { list.top += now - before }
                }
                list.window = window
                list.selected = max(0, min(list.selected, list.count - 1))
            }
            return []
        case let .fetched(listing, failure, refresh, at):
            guard state.screens.contains(where: { $0.listing == listing }) else { return [] }
            if let failure {
                state.freshness = .failed(reason: failure, at: at, refreshing: refresh)
            } else if refresh || state.freshness != .refreshing {
                state.freshness = .quiet
            }
            return []
        case let .detailLoaded(detail):
            guard case let .detail(shown) = state.visible, shown.ref == detail.ref else { return [] }
            var updated = detail
            updated.top = min(shown.top, max(0, detail.lines.count - 1))
            if updated.picture.isEmpty {
                updated.picture = shown.picture
                updated.graphics = shown.graphics
                updated.pictureColors = shown.pictureColors
                updated.pictureNote = shown.pictureNote
            }
            state.screens[state.screens.count - 1] = .detail(updated)
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
        case let .pictureNote(ref, note):
            guard case var .detail(shown) = state.visible, shown.ref == ref, shown.picture.isEmpty else { return [] }
            shown.pictureNote = note
            state.screens[state.screens.count - 1] = .detail(shown)
            return []
        case let .readingSpeed(speed):
            state.readingSpeed = speed
            return []
        case .readerOpened, .readerPassage, .readerDownloaded, .readerFailed, .readerMatches, .readerMessage, .readerBlockFound, .readerBookmarks,
             .readerProgress:
            return readerEvent(&state, event)
        case let .favoritesChanged(favorites):
            for index in state.screens.indices {
                switch state.screens[index] {
                case var .list(list):
                    for row in list.rows.indices { list.rows[row].isFavorite = favorites.contains(list.rows[row].ref) }
                    list.window.rows = list.window.rows.mapValues { row in
                        var row = row
                        row.isFavorite = favorites.contains(row.ref)
                        return row
                    }
                    state.screens[index] = .list(list)
                case var .detail(detail):
                    detail.isFavorite = favorites.contains(detail.ref)
                    state.screens[index] = .detail(detail)
                case .reader:
                    break
                }
            }
            // The favourites screen lists what is a favourite now.
            return state.screens.contains { if case let .list(list) = $0 { list.listing == .favorites } else { false } }
                ? [.load(.favorites)] : []
        }
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
            return [.load(.favorites)]
        case .character("L"):
            if case let .list(list) = state.visible, list.listing == .reading { return [] }
            state.screens.append(.list(BrowseList(listing: .reading, isLoading: true)))
            return [.load(.reading)]
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
    private static func offset(of key: Key, height: Int) -> Int? {
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
    static func rowsInView(_ list: BrowseList, _ state: BrowseState) -> Int {
        max(1, state.listHeight / list.rowHeight)
    }

    private static func listKey(_ list: inout BrowseList, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let height = rowsInView(list, state)
        if let moved = offset(of: key, height: height) { list.selected += moved } else {
            switch key {
            case let .click(row, _):
                guard row / list.rowHeight < height, list.top + row / list.rowHeight < list.count else { return [] }
                list.selected = list.top + row / list.rowHeight
            case let .doubleClick(row, _):
                guard row / list.rowHeight < height, list.top + row / list.rowHeight < list.count else { return [] }
                list.selected = list.top + row / list.rowHeight
                return listKey(&list, .enter, state: &state)
            case .home, .character("g"): list.selected = 0
            case .end, .character("G"): list.selected = list.count - 1
            case .enter, .right, .character("l"):
                guard let ref = list.ref(at: list.selected) else { return [] }
                state.screens.append(.detail(BrowseDetail(ref: ref, lines: [], isFavorite: list.selectedRow?.isFavorite ?? false)))
                return [.showDetail(ref, width: state.columns)]
            case .character("f"):
                guard let row = list.selectedRow else { return [] }
                if list.listing.isPaged {
                    list.window.rows[list.selected]?.isFavorite.toggle()
                } else {
                    list.rows[list.selected].isFavorite.toggle()
                }
                return [.toggleFavorite(row.ref)]
            case .character("o"):
                return list.ref(at: list.selected).map { [.open($0)] } ?? []
            case .character("R"):
                return openReader(&state, list.ref(at: list.selected), title: list.selectedRow?.title ?? "")
            case .character("r"):
                if state.freshness == .offline {
                    state.message = "--offline: the cache only, nothing is fetched"
                    return []
                }
                state.freshness = .refreshing
                return [.refresh(list.listing)]
            default:
                return []
            }
        }
        list.selected = max(0, min(list.selected, list.count - 1))
        keepVisible(&list, height: height)
        if case .search = list.listing, let total = list.total, list.rows.count < total, list.rows.count >= list.wanted,
           list.selected >= list.rows.count - height {
            list.wanted = list.rows.count + BrowseList.searchPage
            list.isLoading = true
            return [.load(list.listing)]
        }
        return []
    }

    private static func detailKey(_ detail: inout BrowseDetail, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let height = state.listHeight
        detail.followsEnd = key == .end || key == .character("G")
        if let moved = offset(of: key, height: height) { detail.top += moved } else {
            switch key {
            case .home, .character("g"): detail.top = 0
            case .end, .character("G"): detail.top = detail.shownLines.count - height
            case .character("f"):
                detail.isFavorite.toggle()
                return [.toggleFavorite(detail.ref)]
            case .character("o"):
                return [.open(detail.ref)]
            case .character("R"):
                return openReader(&state, detail.ref, title: "")
            case .enter where detail.ref.source == .books:
                return openReader(&state, detail.ref, title: "")
            case .character("n"), .character("p"):
                return step(&detail, by: key == .character("n") ? 1 : -1, state: &state)
            default:
                return []
            }
        }
        detail.top = max(0, min(detail.top, detail.shownLines.count - height))
        return []
    }

    /// The next or previous item of the list under the detail screen.
    private static func step(_ detail: inout BrowseDetail, by offset: Int, state: inout BrowseState) -> [BrowseEffect] {
        let listIndex = state.screens.count - 2
        guard listIndex >= 0, case var .list(list) = state.screens[listIndex] else { return [] }
        let target = list.selected + offset
        guard (0..<list.count).contains(target), let ref = list.ref(at: target) else { return [] }
        list.selected = target
        keepVisible(&list, height: rowsInView(list, state))
        state.screens[listIndex] = .list(list)
        detail = BrowseDetail(ref: ref, lines: [], isFavorite: list.row(at: target)?.isFavorite ?? false)
        return [.showDetail(ref, width: state.columns)]
    }

    static func openPrompt(_ state: inout BrowseState, _ kind: BrowsePromptKind, text: String) {
        state.prompt = text
        state.promptCursor = text.count
        state.promptKind = kind
        state.historyIndex = nil
    }

    /// The prompt is a line editor: the cursor moves (←/→, Home/End,
    /// Ctrl-A/E), Ctrl-U, Ctrl-K and Ctrl-W delete to the start, to the end
    /// and the word before the cursor, ↑/↓ go through what was entered.
    private static func prompt(_ state: inout BrowseState, _ key: Key) -> [BrowseEffect] {
        var text = Array(state.prompt ?? "")
        var cursor = max(0, min(state.promptCursor, text.count))
        let history = state.promptHistory[state.promptKind] ?? []
        switch key {
        case .escape, .control("c"), .control("g"):
            state.prompt = nil
            return []
        case .left, .control("b"): cursor -= 1
        case .right, .control("f"): cursor += 1
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .backspace, .control("h"):
            if cursor > 0 {
                text.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .control("d"):
            if cursor < text.count { text.remove(at: cursor) }
        case .control("u"):
            text.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            text.removeLast(text.count - cursor)
        case .control("w"):
            var start = cursor
            while start > 0, text[start - 1] == " " { start -= 1 }
            while start > 0, text[start - 1] != " " { start -= 1 }
            text.removeSubrange(start..<cursor)
            cursor = start
        case .up, .down:
            guard !history.isEmpty else { return [] }
            let index = key == .up ? max(0, (state.historyIndex ?? history.count) - 1) : (state.historyIndex ?? history.count) + 1
            state.historyIndex = index < history.count ? index : nil
            text = Array(state.historyIndex.map { history[$0] } ?? "")
            cursor = text.count
        case let .character(character):
            guard state.promptKind != .jump || character.isNumber, text.count < 200 else { return [] }
            text.insert(character, at: cursor)
            cursor += 1
        case .enter:
            return enterPrompt(&state, String(text))
        default:
            return []
        }
        state.prompt = String(text)
        state.promptCursor = max(0, min(cursor, text.count))
        return []
    }

    private static func enterPrompt(_ state: inout BrowseState, _ entered: String) -> [BrowseEffect] {
        let terms = entered.trimmingWhitespace()
        if !terms.isEmpty {
            var history = state.promptHistory[state.promptKind] ?? []
            history.removeAll { $0 == terms }
            state.promptHistory[state.promptKind] = Array((history + [terms]).suffix(50))
        }
        state.prompt = nil
        do {
            switch state.promptKind {
            case .search:
                guard !terms.isEmpty else { return [] }
                // A second search replaces the first rather than stacking screens.
                if case let .list(shown) = state.visible, case .search = shown.listing { state.screens.removeLast() }
                state.screens.append(.list(BrowseList(listing: .search(terms), isLoading: true)))
                return [.load(.search(terms))]
            case .jump:
                return jump(&state, to: terms)
            case .readerGo:
                return readerGo(&state, to: terms)
            case let .readerSearch(forward):
                return readerSearch(&state, terms, forward: forward)
            case let .bookmarkName(number):
                guard case let .reader(reader) = state.visible, !terms.isEmpty else { return [] }
                return [.renameBookmark(reader.ref, number, terms)]
            case .booksQuery:
                if !terms.isEmpty, terms.allSatisfy(\.isNumber) { return jump(&state, to: terms) }
                let listing: BrowseListing = terms.isEmpty ? .source(.books) : .books(try booksQuery(terms))
                state.screens = [.list(BrowseList(listing: listing))]
                state.booksListing = listing
                if state.freshness != .offline { state.freshness = .quiet }
                return []
            }
        } catch let error as ComicsError {
            // The CLI's message for the same mistake; the text comes back to be mended.
            state.message = error.hint.map { "\(error.message); \($0)" } ?? error.message
            openPrompt(&state, state.promptKind, text: entered)
            return []
        } catch {
            state.message = "\(error)"
            return []
        }
    }

    /// Comic N (xkcd's position newest − N) or the N-th book of the query.
    private static func jump(_ state: inout BrowseState, to text: String) -> [BrowseEffect] {
        guard case var .list(list) = state.visible, let key = list.listing.window, let number = Int(text) else { return [] }
        let count = list.count
        let position = key.source == .xkcd ? count - number : number - 1
        guard (0..<count).contains(position) else {
            state.message = key.source == .xkcd
                ? "no comic \(number) here: the archive goes from 1 to \(count)"
                : "no book \(number) here: this list has \(count)"
            return []
        }
        list.selected = position
        // The row gone to is put in the middle of the screen.
        list.top = max(0, position - state.listHeight / 2)
        keepVisible(&list, height: state.listHeight)
        state.screens[state.screens.count - 1] = .list(list)
        return []
    }

    /// `jane austen language:en,fr topic:"science fiction" sort:ascending`:
    /// the words searched for, and the filters named, checked as the CLI
    /// checks `--language` and `--sort`. Quotes hold a value of several words.
    static func booksQuery(_ text: String) throws -> ListQuery {
        var words: [String] = [], languages: [String] = [], topic: String?, sort: String?
        for token in tokens(text) {
            let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
            switch (parts.first?.lowercased(), parts.count) {
            case ("language", 2), ("lang", 2): languages.append(parts[1])
            case ("topic", 2): topic = [topic, parts[1]].compactMap { $0 }.joined(separator: " ")
            case ("sort", 2): sort = parts[1]
            default: words.append(token)
            }
        }
        return try CommandContext.booksQuery(
            search: words.isEmpty ? nil : words.joined(separator: " "),
            languages: languages.isEmpty ? nil : languages.joined(separator: ","), topic: topic, sort: sort)
    }

    /// Words split at spaces, but not inside double quotes (which go).
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        return current.isEmpty ? tokens : tokens + [current]
    }

    /// A query as the prompt writes it, so that it reads back the same.
    static func promptText(of query: ListQuery) -> String {
        let quoted = { (text: String) in text.contains(" ") ? "\"\(text)\"" : text }
        var parts: [String] = []
        if let search = query.search { parts.append(search) }
        if !query.languages.isEmpty { parts.append("language:" + query.languages.joined(separator: ",")) }
        if let topic = query.topic { parts.append("topic:" + quoted(topic)) }
        if let sort = query.sort { parts.append("sort:" + sort.rawValue) }
        return parts.joined(separator: " ")
    }

    private static func keepVisible(_ list: inout BrowseList, height: Int) {
        if list.selected < list.top { list.top = list.selected }
        if list.selected >= list.top + height { list.top = list.selected - height + 1 }
        list.top = max(0, min(list.top, max(0, list.count - height)))
    }

    private static func updateList(_ state: inout BrowseState, _ listing: BrowseListing, _ change: (inout BrowseList) -> Void) {
        for index in state.screens.indices {
            guard case var .list(list) = state.screens[index], list.listing == listing else { continue }
            change(&list)
            keepVisible(&list, height: rowsInView(list, state))
            state.screens[index] = .list(list)
        }
    }
}
