import CTerminal
import ComicsKit
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// `comics browse`: the terminal side of browse. It owns the screen
/// (through CTerminal), decodes keys, catches signals, runs the model's
/// effects, and redraws. The network is only ever used on the worker
/// queue, with a catalog of its own; this thread reads the cache only, so
/// no key waits for a server.
final class BrowseSession {
    private let context: CommandContext
    /// Reads the cache, never the network: the screen's single source of truth.
    private let cache: Catalog
    private let worker: BrowseWorker
    private var state: BrowseState
    private var decoder = KeyDecoder()
    private var lastChange = 0
    /// Where graphics were last written (item, screen row, and which
    /// drawing), to write them again only when one of these changes.
    private var graphicsPlacement: (ref: ItemRef, row: Int, graphics: Int)?
    /// Pixels where the terminal has a graphics protocol; else symbols, in
    /// colour unless colour is ruled out.
    private lazy var graphicsChoice: GraphicsChoice = {
        let chosen = GraphicsChoice.choose(
            .auto, environment: context.environment, abilities: Imaging.abilities(environment: context.environment),
            colorForbidden: context.terminal.colorForbidden)
        guard chosen.mode == .symbols else { return chosen }
        // ncurses draws the colours: indices, which every colour terminal has.
        let colors: ColorDepth = context.terminal.colorForbidden ? .none : .indexed256
        return GraphicsChoice(mode: .symbols, colors: colors, tmuxPassthrough: false)
    }()
    private var lastChangeCheck = Date()

    init(context: CommandContext, source: SourceName) throws {
        self.context = context
        worker = try BrowseWorker()
        cache = try context.makeCatalog(mode: .offline, reportsNetwork: false)
        let networkMode = context.mode == .offline ? NetworkMode.offline : .cacheFirst
        let opened = try context.makeCatalog(mode: networkMode, reportsNetwork: false)
        let refreshing = networkMode == .offline ? opened : try context.makeCatalog(mode: .refresh, reportsNetwork: false)
        worker.start(catalog: opened, refreshing: refreshing)
        state = BrowseState(rows: 24, columns: 80, source: source)
    }

    /// Runs until `q`, Ctrl-C, SIGTERM or SIGHUP; the terminal is given
    /// back on every way out, and a signal then ends the process as its own.
    func run() throws {
        try BrowseSignals.install()
        var error = [CChar](repeating: 0, count: 256)
        guard comics_terminal_open(&error, error.count) == 0 else {
            throw ComicsError.usage(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { comics_terminal_close() }
        var rows: Int32 = 0, columns: Int32 = 0
        comics_terminal_size(&rows, &columns)
        state.rows = Int(rows)
        state.columns = Int(columns)
        lastChange = (try? cache.changeCounter()) ?? 0
        perform([.load(state.screens[0].listing, next: false)])
        draw()
        while !state.isFinished {
            waitForInput()
            if let signal = BrowseSignals.take() {
                guard signal == SIGWINCH else { endBy(signal) }
                resize()
            }
            for event in worker.takeEvents() { apply(withFavoritesNow(event)) }
            checkForChanges()
            draw()
        }
    }

    /// Gives the terminal back, then ends as the signal would have ended
    /// it, so a shell or script sees which signal it was.
    private func endBy(_ number: Int32) -> Never {
        comics_terminal_close()
        signal(number, SIG_DFL)
        raise(number)
        exit(128 + number)
    }

    private func waitForInput() {
        var waiting = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: BrowseSignals.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: worker.wakeReadEnd, events: Int16(POLLIN), revents: 0),
        ]
        // A lone ESC is the Escape key once nothing follows it for 50 ms.
        let ready = poll(&waiting, 3, decoder.isWaiting ? 50 : 500)
        if ready == 0, decoder.isWaiting {
            for key in decoder.flush() { apply(.key(key)) }
            return
        }
        if waiting[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 {
                for key in decoder.feed(Array(buffer[0..<count])) { apply(.key(key)) }
            } else if count == 0 {
                state.isFinished = true
            }
        } else if waiting[0].revents & Int16(POLLHUP | POLLERR) != 0 {
            state.isFinished = true
        }
        if waiting[2].revents != 0 { worker.drainWake() }
    }

    /// Rows the worker read may be older than a favourite changed since;
    /// they get the favourites as this connection sees them now.
    private func withFavoritesNow(_ event: BrowseEvent) -> BrowseEvent {
        guard case let .loaded(listing, rows, replacing, isComplete, total) = event,
              let favorites = try? cache.favorites(source: nil)
        else { return event }
        let marked = Set(favorites.map(\.ref))
        let current = rows.map { row in
            var row = row
            row.isFavorite = marked.contains(row.ref)
            return row
        }
        return .loaded(listing, current, replacing: replacing, isComplete: isComplete, total: total)
    }

    private func apply(_ event: BrowseEvent) {
        perform(BrowseModel.handle(&state, event))
    }

    private func resize() {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return }
        comics_terminal_resize(Int32(size.ws_row), Int32(size.ws_col))
        // Graphics are written again at the new size, once redrawn for it.
        graphicsPlacement = graphicsPlacement.map { ($0.ref, -1, $0.graphics) }
        apply(.resized(rows: Int(size.ws_row), columns: Int(size.ws_col)))
    }

    /// Another process wrote (a sync, `comics fav` elsewhere, the
    /// background refresh): favourites and the visible rows are read again.
    private func checkForChanges() {
        guard Date().timeIntervalSince(lastChangeCheck) >= 0.5 else { return }
        lastChangeCheck = Date()
        guard let counter = try? cache.changeCounter(), counter != lastChange else { return }
        lastChange = counter
        let favorites = (try? cache.favorites(source: nil)).map { Set($0.map(\.ref)) } ?? []
        apply(.favoritesChanged(favorites))
        // What a sync or a refresh added above the newest row held.
        if case let .list(bottom) = state.screens[0] {
            let page: (SourceName, ListQuery)? = switch bottom.listing {
            case let .source(source): (source, ListQuery())
            case let .books(query): (.books, query)
            case .favorites, .search: nil
            }
            if let (source, query) = page, let newest = try? cache.newestPage(source, query: query) {
                apply(.newestChanged(bottom.listing, newest.map { BrowseRows.row($0, catalog: cache) }))
            }
        }
        // The rows on screen, as a refresh or a sync left them.
        if case let .list(list) = state.visible {
            let shown = list.rows.dropFirst(list.top).prefix(state.listHeight)
            apply(.rowsChanged(shown.compactMap { row in (try? cache.show(.item(row.ref))).map { BrowseRows.row($0, catalog: cache) } }))
        }
    }

    // MARK: - Effects

    private func perform(_ effects: [BrowseEffect]) {
        for effect in effects {
            switch effect {
            case let .load(listing, next):
                load(listing, next: next)
            case let .refresh(listing):
                if listing.isPaged { worker.list(listing, next: false, refresh: true) } else { load(listing, next: false) }
            case let .showDetail(ref, width):
                showDetail(ref, width: width)
            case let .toggleFavorite(ref):
                do {
                    _ = try cache.changeFavorite(.item(ref), .toggle)
                    let favorites = (try? cache.favorites(source: nil)).map { Set($0.map(\.ref)) } ?? []
                    apply(.favoritesChanged(favorites))
                } catch {
                    state.message = "cannot change the favourite: \(error)"
                }
            case let .open(ref):
                open(ref)
            }
        }
    }

    private func load(_ listing: BrowseListing, next: Bool) {
        switch listing {
        case .source, .books:
            worker.list(listing, next: next, refresh: false)
        case .favorites:
            let rows = ((try? cache.favorites(source: nil)) ?? []).map { BrowseRows.row($0, catalog: cache) }
            apply(.loaded(.favorites, rows, replacing: true, isComplete: true, total: rows.count))
        case let .search(terms):
            do {
                let found = try cache.search(terms, source: nil, remote: false, limit: 500)
                let rows = found.results.map { BrowseRows.row($0.item, catalog: cache) }
                apply(.loaded(listing, rows, replacing: true, isComplete: true, total: found.total))
            } catch {
                apply(.loaded(listing, [], replacing: true, isComplete: true, total: 0))
                state.message = TerminalText.sanitize("\(error)", singleLine: true)
            }
        }
    }

    private func showDetail(_ ref: ItemRef, width: Int) {
        if let cached = try? cache.show(.item(ref)) {
            apply(.detailLoaded(BrowseRows.detail(cached, width: width, catalog: cache)))
        } else {
            worker.detail(ref, width: width)
        }
        if (try? cache.imagePreference) != .never, let executable = CommandContext.executablePath() {
            worker.picture(
                ref, columns: width, rows: state.listHeight - 1, choice: graphicsChoice, environment: context.environment,
                executable: executable)
        }
    }

    /// The item's page in `$BROWSER` or `xdg-open`, detached from the
    /// screen; the address is made from the reference, as `comics open` makes it.
    private func open(_ ref: ItemRef) {
        guard let url = try? cache.source(ref.source).pageURL(of: ref.id) else { return }
        let environment = context.environment
        guard let opener = BrowserOpener(environment: environment) else {
            state.message = "no browser found: set $BROWSER, or install xdg-utils"
            return
        }
        state.message = opener.open(url, environment: environment) ? "opened \(url)" : "could not start \(opener.command)"
    }

    // MARK: - Drawing

    private func draw() {
        let lines = BrowseView.frame(state, now: Date())
        comics_terminal_erase()
        for (row, line) in lines.enumerated() {
            if let colors = line.colors {
                var column = 0
                for run in colors {
                    let scalars = run.text.unicodeScalars.map(\.value)
                    let pair = comics_terminal_color_pair(Int32(run.foreground), Int32(run.background))
                    scalars.withUnsafeBufferPointer { buffer in
                        comics_terminal_put_colored(Int32(row), Int32(column), buffer.baseAddress, Int32(buffer.count), 0, pair)
                    }
                    column += DisplayWidth.of(run.text)
                }
                continue
            }
            let scalars = line.text.unicodeScalars.map(\.value)
            let attributes: Int32 = switch line.style {
            case .plain: 0
            case .selected, .status: Int32(COMICS_TEXT_REVERSE)
            case .heading: Int32(COMICS_TEXT_BOLD)
            case .dim: Int32(COMICS_TEXT_DIM)
            }
            scalars.withUnsafeBufferPointer { buffer in
                comics_terminal_put(Int32(row), 0, buffer.baseAddress, Int32(buffer.count), attributes)
            }
        }
        comics_terminal_show()
        placeGraphics()
    }

    /// Graphics are written after ncurses has drawn the frame, over the
    /// blank rows kept for them, when all of them are in view; kitty's are
    /// deleted first (they stay until deleted), and pixels written by the
    /// others are painted over by a full repaint when they leave.
    private func placeGraphics() {
        var wanted: (ref: ItemRef, row: Int, graphics: String)?
        if case let .detail(detail) = state.visible, !state.showsHelp, let row = detail.graphicsRow(height: state.listHeight),
           let graphics = detail.graphics {
            wanted = (detail.ref, row, graphics)
        }
        guard wanted?.ref != graphicsPlacement?.ref || wanted?.row != graphicsPlacement?.row
            || wanted?.graphics.hashValue != graphicsPlacement?.graphics
        else { return }
        if graphicsPlacement != nil {
            if graphicsChoice.mode == .kitty {
                writeToTerminal(graphicsChoice.wrapped("\u{1B}_Ga=d,q=2\u{1B}\\"))
            } else {
                comics_terminal_repaint_all()
                comics_terminal_show()
            }
        }
        graphicsPlacement = wanted.map { ($0.ref, $0.row, $0.graphics.hashValue) }
        if let wanted {
            writeToTerminal("\u{1B}7\u{1B}[\(wanted.row + 1);1H" + wanted.graphics + "\u{1B}8")
        }
    }

    /// Graphics go around ncurses, straight to the terminal; a terminal
    /// that went away ends browse at the next read.
    private func writeToTerminal(_ text: String) {
        try? OutputSink.write(text, to: STDOUT_FILENO)
    }
}

extension BrowseScreen {
    var listing: BrowseListing {
        switch self {
        case let .list(list): list.listing
        case let .detail(detail): .source(detail.ref.source)
        }
    }
}

/// Rows and detail lines from cached items; every string from the network
/// is sanitized here, before the model sees it.
enum BrowseRows {
    static func row(_ cached: CachedItem, catalog: Catalog) -> BrowseRow {
        let source = try? catalog.source(cached.ref.source)
        let detail = source?.summaryAttributes.first.flatMap { key in
            cached.item[key].map { source?.displayText(of: Attribute(key, $0), brief: true) ?? $0.stringValue ?? "" }
        } ?? ""
        return BrowseRow(
            ref: cached.ref, detail: TerminalText.sanitize(detail, singleLine: true),
            title: TerminalText.sanitize(cached.item.title, singleLine: true), isFavorite: cached.isFavorite)
    }

    static func detail(_ cached: CachedItem, width: Int, catalog: Catalog) -> BrowseDetail {
        let plain = Terminal(isTerminal: false, width: max(20, width - 1), height: nil, cellSize: nil, colorForbidden: true)
        let text = TableRenderer(terminal: plain, catalog: catalog).detail(cached)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0), singleLine: true) }
        return BrowseDetail(ref: cached.ref, lines: lines, isFavorite: cached.isFavorite)
    }
}

/// The queue that talks to the network, with catalogs of its own; what it
/// finds comes back as events, and a byte on a pipe wakes the screen.
final class BrowseWorker: @unchecked Sendable {
    private let queue = DispatchQueue(label: "comics.browse.worker")
    private let events = Mutex<[BrowseEvent]>([])
    private var catalog: Catalog?
    private var refreshing: Catalog?
    private let wake: DescriptorPipe
    var wakeReadEnd: Int32 { wake.readEnd }

    init() throws {
        guard let wake = DescriptorPipe(nonBlocking: true) else { throw ComicsError.unexpected("cannot make a pipe for browse") }
        self.wake = wake
    }

    func start(catalog: Catalog, refreshing: Catalog) {
        self.catalog = catalog
        self.refreshing = refreshing
    }

    func takeEvents() -> [BrowseEvent] {
        events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeReadEnd, &buffer, buffer.count) > 0 {}
    }

    private func post(_ event: BrowseEvent) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 1
        _ = write(wake.writeEnd, &byte, 1)
    }

    /// The newest page (`next` false) or the one after those listed.
    func list(_ listing: BrowseListing, next: Bool, refresh: Bool) {
        let (source, query): (SourceName, ListQuery) = switch listing {
        case let .source(source): (source, ListQuery())
        case let .books(query): (.books, query)
        case .favorites, .search: (.xkcd, ListQuery())
        }
        queue.async { [self] in
            guard let catalog = refresh ? refreshing : catalog else { return }
            let warningsBefore = catalog.warnings.count
            do {
                let items = next ? try catalog.more(source, query: query) : try catalog.list(source, query: query)
                let rows = items.map { BrowseRows.row($0, catalog: catalog) }
                // xkcd numbers its comics: the newest number is how many there are.
                let total = source == .xkcd ? (next ? nil : rows.first?.ref.id) : try? catalog.listingTotal(source, query: query)
                let isComplete = items.isEmpty || (source == .xkcd && rows.last?.ref.id == 1)
                post(.loaded(listing, rows, replacing: !next, isComplete: isComplete, total: total))
                if let warning = catalog.warnings.dropFirst(warningsBefore).last {
                    post(.loadFailed(listing, reason: TerminalText.sanitize(warning, singleLine: true), copyFrom: items.map(\.cachedAt).min()))
                } else {
                    post(.refreshed(items.map(\.cachedAt).min() ?? Date()))
                }
            } catch {
                post(.loadFailed(listing, reason: TerminalText.sanitize("\(error)", singleLine: true), copyFrom: nil))
            }
        }
    }

    /// The item's picture fitted to the pane, drawn by the time-limited
    /// child `show` uses: as kitty, iTerm2 or sixel graphics where the
    /// terminal has them (written over blank rows after ncurses draws), else
    /// in Unicode symbols, shapes without colour, as lines of text.
    func picture(_ ref: ItemRef, columns: Int, rows: Int, choice: GraphicsChoice, environment: [String: String], executable: String) {
        queue.async { [self] in
            guard let catalog, let cached = try? catalog.show(.item(ref)), case let .image(file) = catalog.image(of: cached) else { return }
            let size = (columns: max(8, columns - 1), rows: max(4, rows))
            guard let drawn = try? PictureProcess.draw(
                file, columns: size.columns, rows: size.rows, choice: choice, cellSize: (width: 10, height: 20),
                environment: environment, executable: executable)
            else { return }
            if choice.mode != .symbols {
                post(.pictureLoaded(ref, Array(repeating: "", count: size.rows), graphics: choice.wrapped(drawn.text), colors: []))
                return
            }
            var colors = SymbolPicture.runs(drawn.text)
            while let last = colors.last, last.allSatisfy({ $0.text.trimmingWhitespace().isEmpty }) { colors.removeLast() }
            let lines = colors.map { $0.map(\.text).joined() }
            post(.pictureLoaded(ref, lines, graphics: nil, colors: choice.colors == .none ? [] : colors))
        }
    }

    func detail(_ ref: ItemRef, width: Int) {
        queue.async { [self] in
            guard let catalog else { return }
            if let cached = try? catalog.show(.item(ref)) {
                post(.detailLoaded(BrowseRows.detail(cached, width: width, catalog: catalog)))
            }
        }
    }
}
