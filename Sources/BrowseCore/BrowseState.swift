import ComicsKit
import struct FoundationEssentials.Date

/// One row of a list screen, as read from the cache.
public struct BrowseRow: Equatable {
    public init(ref: ItemRef, detail: String, title: String, isFavorite: Bool, snippet: String = "", reading: ReadingMark? = nil) {
        self.ref = ref
        self.detail = detail
        self.title = title
        self.isFavorite = isFavorite
        self.snippet = snippet
        self.reading = reading
    }

    public let ref: ItemRef
    /// The comic's date or the book's authors.
    public let detail: String
    public let title: String
    public var isFavorite: Bool
    /// For a search result: words around the match; in it and in the
    /// title, `SearchMatch.start` and `end` mark what matched.
    public var snippet = ""
    /// A book whose text is downloaded, or that has been read: how far.
    public var reading: ReadingMark?
}

/// What a books row says of its reading: the text downloaded (a mark),
/// and how far into it reading stopped.
public struct ReadingMark: Equatable {
    public init(downloaded: Bool, percent: Int? = nil) {
        self.downloaded = downloaded
        self.percent = percent
    }

    public let downloaded: Bool
    public let percent: Int?
}

/// What a list screen lists.
public enum BrowseListing: Hashable {
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
    public var isPaged: Bool { window != nil }

    public var window: ListingKey? {
        switch self {
        case let .source(source): ListingKey(source: source)
        case let .books(query): ListingKey(source: .books, query: query)
        case .favorites, .reading, .search: nil
        }
    }
}

/// What the cache holds of a listing around the view, by position: read
/// from the database after every change, never kept as a copy of its own.
public struct BrowseWindow: Equatable {
    /// How many positions the listing has; nil until anything is known.
    public var count: Int?
    public var rows: [Int: BrowseRow] = [:]
    /// Positions whose item is known by number but not cached (drawn as placeholders).
    public var ids: [Int: Int] = [:]
    /// Positions whose number upstream had no item for (a 404), or none
    /// it could read, and why.
    public var absent: [Int: BrowseAbsence] = [:]
    /// When each row was fetched: the oldest in view says how old what is
    /// shown is.
    public var cachedAt: [Int: Date] = [:]

    public init(count: Int? = nil) {
        self.count = count
    }

    public func oldest(in positions: Range<Int>) -> Date? {
        positions.compactMap { cachedAt[$0] }.min()
    }
}

/// A number upstream had no item for, or none it could read, and why.
public struct BrowseAbsence: Equatable {
    public let id: Int
    public let reason: String

    public init(id: Int, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// What a prompt asks for.
public enum BrowsePromptKind: Hashable {
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
    /// In the reader: a note's text, new (`a`) or one to edit (`r` in `A`'s list).
    case noteText(Int?)
}

/// A screen of rows: a window over a listing of the database, or the
/// favourites and search results read whole.
public struct BrowseList: Equatable {
    public let listing: BrowseListing
    /// Favourites and search results.
    public var rows: [BrowseRow] = []
    /// A source's archive or a books query, around the view.
    public var window = BrowseWindow()
    public var selected = 0
    public var top = 0
    public var isLoading = false
    /// Why the database could not give this list's rows.
    public var failure: String?
    /// Which way the selection last moved: the rows that way are fetched
    /// before they are reached.
    public var movingDown = true
    /// How many search results there are, when more matched than are listed.
    public var total: Int?
    /// How many search results to read: a page more each time the
    /// selection comes within a screen of the last read.
    public var wanted = BrowseList.searchPage

    public static let searchPage = 500

    /// How many positions the selection can move through.
    public var count: Int { listing.isPaged ? window.count ?? 0 : rows.count }

    /// Screen lines a row takes: a search result has its snippet under it.
    public var rowHeight: Int { if case .search = listing { 2 } else { 1 } }

    public func row(at position: Int) -> BrowseRow? {
        listing.isPaged ? window.rows[position] : rows.indices.contains(position) ? rows[position] : nil
    }

    /// The item at a position, cached or known only by its number.
    public func ref(at position: Int) -> ItemRef? {
        if let row = row(at: position) { return row.ref }
        guard let key = listing.window, (0..<count).contains(position) else { return nil }
        // xkcd's positions are its numbers, newest first.
        if let id = window.ids[position] ?? window.absent[position]?.id ?? (key.source == .xkcd ? count - position : nil) { return ItemRef(source: key.source, id: id) }
        return nil
    }

    public var selectedRow: BrowseRow? { row(at: selected) }
}

/// An item's text, cut into lines for the width it was laid out for.
public struct BrowseDetail: Equatable {
    public init(ref: ItemRef, lines: [String], top: Int = 0, isFavorite: Bool, picture: [String] = [], graphics: String? = nil, pictureColors: [[BrowseRun]] = [], pictureNote: String? = nil, followsEnd: Bool = false) {
        self.ref = ref
        self.lines = lines
        self.top = top
        self.isFavorite = isFavorite
        self.picture = picture
        self.graphics = graphics
        self.pictureColors = pictureColors
        self.pictureNote = pictureNote
        self.followsEnd = followsEnd
    }

    public let ref: ItemRef
    public var lines: [String]
    public var top = 0
    public var isFavorite: Bool
    /// The picture under the text: lines of symbols, or, for a graphics
    /// protocol, blank rows it is drawn over.
    public var picture: [String] = []
    /// The picture as kitty, iTerm2 or sixel graphics, drawn over `picture`'s rows.
    public var graphics: String?
    /// The colours of `picture`'s symbols, a line a row; empty without colour.
    public var pictureColors: [[BrowseRun]] = []
    /// In the picture's pane until it is drawn: "loading picture…", or why there is none.
    public var pictureNote: String?
    /// G or End was the last move: the end stays in view when the picture comes.
    public var followsEnd = false

    /// What the screen scrolls through: the text, then the picture.
    public var shownLines: [String] {
        if picture.isEmpty { return pictureNote.map { lines + ["", $0] } ?? lines }
        return lines + [""] + picture
    }

    /// The screen row where the graphics go, when all of their rows are in
    /// view with `top` first of `height`; nil otherwise.
    public func graphicsRow(height: Int) -> Int? {
        guard graphics != nil, !picture.isEmpty else { return nil }
        let first = lines.count + 1
        guard first >= top, first + picture.count <= top + height else { return nil }
        return first - top
    }
}

public enum BrowseScreen: Equatable {
    case list(BrowseList)
    case detail(BrowseDetail)
    case reader(BrowseReader)
}

/// What the status line says of the network, before the age of the rows.
public enum BrowseFreshness: Equatable {
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
public struct BrowseState: Equatable {
    public var rows: Int
    public var columns: Int
    public var screens: [BrowseScreen]
    public var freshness: BrowseFreshness = .quiet
    /// How the last refreshes of each source went, as the database keeps it.
    public var refreshRecords: [SourceName: RefreshRecord] = [:]
    /// Text being typed after `/` or `:`; nil when no prompt is open.
    public var prompt: String?
    /// Where in `prompt` the next character goes, in characters.
    public var promptCursor = 0
    public var promptKind = BrowsePromptKind.search
    /// What was entered at each kind of prompt, oldest first; ↑ and ↓ go through it.
    public var promptHistory: [BrowsePromptKind: [String]] = [:]
    /// Which entry of the history the prompt shows; nil for the text typed.
    public var historyIndex: Int?
    /// How far the help screen is scrolled, when it does not fit.
    public var helpTop = 0
    /// What `s` switches to for books: the last query set, kept across `s`.
    public var booksListing = BrowseListing.source(.books)
    /// Where each listing left by `s` was: its selection and scroll.
    public var places: [BrowseListing: BrowsePlace] = [:]
    public var showsHelp = false
    /// The reader's column (`reader.width`).
    public var readerWidth = BrowseReader.defaultWidth
    /// `comics read`: leaving the reader ends browse.
    public var leavesWithReader = false
    /// `comics read` left while its text could not be had: why, for the
    /// command to fail with once the screen is gone.
    public var unread: String?
    /// Words a minute, for the minutes left in a section.
    public var readingSpeed = ReadingSpeed.standard
    public var readerTheme = ReaderTheme.terminal
    /// NO_COLOR or --no-color: the terminal's colours only.
    public var colorForbidden = false
    /// The reader draws pictures where they stand (the setting, the
    /// option, colour allowed, and a terminal that can show them).
    public var showsPictures = false
    public var picturesAsGraphics = false
    /// A one-line message that replaces the status line until the next key.
    public var message: String?
    public var isFinished = false
    /// The clock as the last `.time` message read it.
    public var now: Date?
    /// Where and when the last click was: a second soon after on the same
    /// row is a double click.
    public var lastClick: BrowseClick?

    public init(rows: Int, columns: Int, source: SourceName, settings: BrowseSettings = BrowseSettings()) {
        self.rows = rows
        self.columns = columns
        readerWidth = settings.readerWidth
        readingSpeed = settings.readingSpeed
        readerTheme = settings.readerTheme
        colorForbidden = settings.colorForbidden
        showsPictures = settings.showsPictures && !settings.colorForbidden
        picturesAsGraphics = settings.picturesAsGraphics
        if let query = settings.booksQuery { booksListing = .books(query) }
        if settings.offline { freshness = .offline }
        screens = [.list(BrowseList(listing: source == .books ? booksListing : .source(source)))]
    }

    /// What the status line says of the network for a source: `r`'s
    /// refresh under way or failed (until a success after it), else the
    /// last failure of any fetch the database recorded with no success
    /// since, else nothing.
    public func freshness(of source: SourceName?) -> BrowseFreshness {
        let record = source.flatMap { refreshRecords[$0] }
        switch freshness {
        case .offline, .refreshing:
            return freshness
        case let .failed(_, at, _) where !(record?.lastSuccess.map { $0 > at } ?? false):
            return freshness
        default:
            guard let record, record.isFailing, let at = record.lastFailure else { return .quiet }
            return .failed(reason: record.failureReason ?? "the network failed", at: at, refreshing: false)
        }
    }

    /// Rows of items a list screen shows: all but the status line.
    public var listHeight: Int { max(1, rows - 1) }

    public var visible: BrowseScreen { screens[screens.count - 1] }
}

/// What browse starts with: the settings kept from earlier runs, and
/// what the command line and the environment ask.
public struct BrowseSettings: Equatable {
    public var readerWidth = BrowseReader.defaultWidth
    public var readingSpeed = ReadingSpeed.standard
    public var readerTheme = ReaderTheme.terminal
    /// NO_COLOR or --no-color.
    public var colorForbidden = false
    /// `reader.pictures` on and no `--no-pictures`.
    public var showsPictures = false
    /// Pictures go to the terminal as graphics (kitty, iTerm2, sixel),
    /// not as symbols in ncurses' colours.
    public var picturesAsGraphics = false
    /// The books query set last time.
    public var booksQuery: ListQuery?
    /// `--offline`: nothing is fetched.
    public var offline = false

    public init() {}
}

/// A click on a screen row, and when.
public struct BrowseClick: Equatable {
    public let row: Int
    public let at: Date
}

/// Where a list was left: its selection and the first row in view.
public struct BrowsePlace: Equatable {
    public let selected: Int
    public let top: Int
}

/// A stretch of a picture line in one pair of colours (256-colour indices,
/// -1 for the terminal's default).
public struct BrowseRun: Equatable {
    public init(text: String, foreground: Int, background: Int, isBold: Bool = false, isItalic: Bool = false, isDim: Bool = false, isHighlighted: Bool = false) {
        self.text = text
        self.foreground = foreground
        self.background = background
        self.isBold = isBold
        self.isItalic = isItalic
        self.isDim = isDim
        self.isHighlighted = isHighlighted
    }

    public var text: String
    public var foreground: Int
    public var background: Int
    /// A search match, drawn bold.
    public var isBold = false
    /// A book's italics, and what is drawn faint (an illustration's mark).
    public var isItalic = false
    public var isDim = false
    /// A word a search inside a book found, drawn in reverse.
    public var isHighlighted = false
}

extension BrowseScreen {
    /// The source whose fetches fill what the screen shows; nil for what
    /// the cache alone holds (favourites, the reading list, search results).
    public var fetchedSource: SourceName? {
        switch self {
        case let .list(list): list.listing.window?.source
        case let .detail(detail): detail.ref.source
        case .reader: nil
        }
    }

    public var listing: BrowseListing {
        switch self {
        case let .list(list): list.listing
        case let .detail(detail): .source(detail.ref.source)
        case let .reader(reader): .source(reader.ref.source)
        }
    }
}
