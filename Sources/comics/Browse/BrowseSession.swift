import CTerminal
import ComicsKit
import Dispatch
import FoundationEssentials
import Glibc

/// `comics browse`: the terminal side of browse. It owns the screen
/// (through CTerminal), decodes keys, catches signals, runs the model's
/// effects, and redraws. Every screen is a view of the database: after
/// each event the rows in view are read from it by position, and what is
/// missing is asked of the fetchers, whose only output is the database.
/// The network is only ever used on their threads and the worker queue,
/// each with a catalog of its own; this thread reads the cache only, so no
/// key waits for a server.
final class BrowseSession {
    private let context: CommandContext
    /// Reads the cache, never the network: the screen's single source of truth.
    private let cache: Catalog
    private let worker: BrowseWorker
    /// Fills listings from the network; nil under --offline.
    private let fetcher: BrowseFetcher?
    /// Downloads books' texts for the reader, and searches them, each on a
    /// thread of its own: a search never waits for a slow download.
    private let textDownloads: BrowseTextWorker
    private let textSearches: BrowseTextWorker
    /// The download under way: its progress, and Esc's cancel.
    private let downloadWatch: TextDownloadWatch
    private var lastClick: (row: Int, at: Date)?
    /// Browsers started detached, until they end.
    private var browsers: [pid_t] = []
    /// Which way the selection last moved, for the prefetch margin.
    private var lastSelection: (listing: BrowseListing, position: Int, down: Bool)?
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
        worker.start(catalog: try context.makeCatalog(mode: networkMode, reportsNetwork: false))
        let post: @Sendable (BrowseEvent) -> Void = { [worker] in worker.post($0) }
        downloadWatch = TextDownloadWatch(post: post)
        textDownloads = BrowseTextWorker(
            label: "downloads", catalog: try context.makeCatalog(mode: networkMode, reportsNetwork: false, textObserver: downloadWatch), post: post,
            watch: downloadWatch)
        textSearches = BrowseTextWorker(label: "searches", catalog: try context.makeCatalog(mode: .offline, reportsNetwork: false), post: post, watch: nil)
        state = BrowseState(rows: 24, columns: 80, source: source)
        if let width = try? cache.readerWidth { state.readerWidth = width }
        if let speed = try? cache.readingSpeed() { state.readingSpeed = speed }
        state.colorForbidden = context.terminal.colorForbidden
        if let theme = (try? cache.configValue(.readerTheme)).flatMap({ ReaderTheme(rawValue: $0.value) }) { state.readerTheme = theme }
        if let query = try? cache.rememberedBooksQuery() { state.booksListing = .books(query) }
        if source == .books { state.screens = [.list(BrowseList(listing: state.booksListing))] }
        if networkMode == .offline {
            fetcher = nil
            state.freshness = .offline
        } else {
            fetcher = BrowseFetcher(
                catalogs: try (0..<BrowseFetcher.threads).map { _ in try context.makeCatalog(mode: .cacheFirst, reportsNetwork: false) },
                post: post)
        }
    }

    /// `comics read`: browse opens on the book's text, and leaving the
    /// reader ends it.
    func startReading(_ ref: ItemRef, from start: ReaderStart, searching terms: String?) {
        state.leavesWithReader = true
        let title = (try? cache.show(.item(ref)))?.item.title ?? ""
        perform(BrowseModel.openReader(&state, ref, title: TerminalText.sanitize(title, singleLine: true), from: start, searching: terms))
    }

    /// Runs until `q`, Ctrl-C, SIGTERM or SIGHUP; the terminal is given
    /// back on every way out, and a signal then ends the process as its own.
    func run() throws {
        try BrowseSignals.install()
        var error = [CChar](repeating: 0, count: 256)
        guard comics_terminal_open(&error, error.count) == 0 else {
            throw ComicsError.usage(
                String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), hint: "use 'comics list'")
        }
        defer { comics_terminal_close() }
        if !context.arguments.has("no-mouse") { comics_terminal_mouse(1) }
        var rows: Int32 = 0, columns: Int32 = 0
        comics_terminal_size(&rows, &columns)
        state.rows = Int(rows)
        state.columns = Int(columns)
        lastChange = (try? cache.changeCounter()) ?? 0
        readWindows()
        readPassage()
        draw()
        while !state.isFinished {
            waitForInput()
            if let signal = BrowseSignals.take() {
                if signal == SIGINT, state.prompt != nil || state.message != nil {
                    // Ctrl-C in a prompt, or over a message, is Esc there: it
                    // cancels the prompt or dismisses the message, not browse.
                    apply(.key(.escape))
                } else if signal == SIGTSTP {
                    comics_terminal_close()
                    BrowseSignals.stopUntilContinued()
                    comics_terminal_reopen()
                    graphicsPlacement = graphicsPlacement.map { ($0.ref, -1, $0.graphics) }
                    // The terminal may have changed size while browse was stopped.
                    resize()
                } else {
                    guard signal == SIGWINCH else { endBy(signal) }
                    resize()
                }
            }
            for event in worker.takeEvents() { apply(withFavoritesNow(event)) }
            checkForChanges()
            readWindows()
            readPassage()
            reapBrowsers()
            draw()
        }
        saveReaderPlace()
        // `comics read` that never showed the text fails as the download did.
        if let unread = state.unread { throw ComicsError.network(unread) }
    }

    /// The lines around the reader's place, read from the cache and laid
    /// out whenever the place leaves the passage held (or the width changed).
    private func readPassage() {
        guard case let .reader(reader) = state.visible, reader.status == .ready,
              let range = reader.blocksToRead(columns: state.columns, height: state.listHeight)
        else { return }
        do {
            guard let passage = try cache.textPassage(reader.ref, from: range.lowerBound, upTo: range.upperBound) else {
                apply(.readerFailed(reader.ref, "the text of \(reader.ref) is no longer in the cache"))
                return
            }
            let sectionStarts = Set((reader.map?.outline ?? []).map(\.section.firstBlock))
            apply(.readerPassage(reader.ref, ReaderLayout.passage(passage, width: reader.column(for: state.columns), sectionStarts: sectionStarts)))
        } catch {
            apply(.readerFailed(reader.ref, "\(error)"))
        }
    }

    /// The last page turned: which book, how far (in words), and when.
    private var lastTurn: (ref: ItemRef, words: Int, at: Date)?

    /// A page read forward, in the time it took, teaches the reading speed.
    private func learnSpeed(_ reader: BrowseReader, at position: TextPosition) {
        guard let words = reader.passage?.words(before: position.block) else { return }
        let now = Date()
        defer { lastTurn = (reader.ref, words, now) }
        // A page, not a jump: a screen holds a few hundred words.
        guard let last = lastTurn, last.ref == reader.ref, words > last.words, words - last.words <= 1_000,
              let speed = try? cache.learnReadingSpeed(words: words - last.words, seconds: now.timeIntervalSince(last.at))
        else { return }
        apply(.readingSpeed(speed))
    }

    /// Every reader on the stack leaves its place saved (a signal, the
    /// terminal gone, `Q`).
    private func saveReaderPlace() {
        for screen in state.screens {
            guard case let .reader(reader) = screen, reader.status == .ready, reader.passage != nil, reader.saved != reader.top else { continue }
            saveReading(reader.ref, at: reader.top)
        }
    }

    private func saveReading(_ ref: ItemRef, at position: TextPosition) {
        let reader = state.screens.lazy.compactMap { screen -> BrowseReader? in
            if case let .reader(reader) = screen, reader.ref == ref { reader } else { nil }
        }.last
        // A reader just left is off the stack already: its text's map is
        // read again (the place it leaves is saved all the same).
        if let reader { learnSpeed(reader, at: position) }
        do {
            guard let map = try reader?.map ?? cache.textMap(ref),
                  let here = try cache.textPassage(ref, from: position.block, upTo: position.block + 1) else { return }
            try cache.recordReading(ref, at: position, in: here, map: map)
        } catch {
            state.message = "cannot save where you stopped: \(error)"
        }
    }

    /// The rows around the view of the list on screen (or under the detail
    /// screen, for n and p), read from the database; what is missing in
    /// view, and a screen's margin in the direction of travel, is fetched.
    private func readWindows() {
        // Under the reader no list is seen: it is read (and fetched) again
        // when it is.
        if case .reader = state.visible { return }
        let index = state.screens.lastIndex { if case .list = $0 { true } else { false } } ?? 0
        guard case let .list(list) = state.screens[index], let key = list.listing.window else { return }
        let height = state.listHeight
        let around = max(0, list.top - height)..<(list.top + 2 * height)
        let count = (try? cache.positionCount(of: key)) ?? nil
        var window = BrowseWindow(count: count)
        var shown: [CachedItem] = []
        let slots = try? cache.slots(of: key, at: around)
        let refs = (slots ?? []).compactMap { slot -> ItemRef? in if case let .item(item) = slot { item.ref } else { nil } }
        let reading = key.source == .books ? ((try? cache.readingStates(refs)) ?? [:]).mapValues(Self.mark) : [:]
        if let slots {
            for (offset, slot) in slots.enumerated() {
                let position = around.lowerBound + offset
                switch slot {
                case let .item(item):
                    window.rows[position] = BrowseRows.row(item, catalog: cache, reading: reading[item.ref])
                    if (list.top..<list.top + height).contains(position) {
                        window.oldest = min(window.oldest ?? item.cachedAt, item.cachedAt)
                        shown.append(item)
                    }
                case let .missing(id):
                    if let id { window.ids[position] = id }
                }
            }
        }
        if window != list.window {
            apply(.windowRead(list.listing, window))
            // Rows looked at are used, as `list` counts them, for cleanup's max-items.
            cache.noteUse(of: shown)
        }
        guard let fetcher, case let .list(now) = state.screens[index] else { return }
        let down = lastSelection.map { $0.listing == now.listing ? (now.selected == $0.position ? $0.down : now.selected > $0.position) : true } ?? true
        lastSelection = (now.listing, now.selected, down)
        let inView = now.top..<(now.top + height)
        let margin = down ? inView.upperBound..<(inView.upperBound + height) : max(0, now.top - height)..<now.top
        fetcher.want(now.listing, key, inView: inView, margin: margin, count: now.window.count)
    }

    private static func mark(_ state: ReadingState) -> ReadingMark {
        ReadingMark(downloaded: state.downloaded, percent: state.position.map { Int($0.percent) })
    }

    /// Books rows with how far each has been read.
    private func marked(_ rows: [BrowseRow]) -> [BrowseRow] {
        let states = (try? cache.readingStates(rows.map(\.ref))) ?? [:]
        return rows.map { row in
            var row = row
            row.reading = states[row.ref].map(Self.mark)
            return row
        }
    }

    /// A second click on the same row soon after the first is a double click.
    private func telling(_ key: Key) -> Key {
        guard case let .click(row, column) = key else { return key }
        let now = Date()
        if let last = lastClick, last.row == row, now.timeIntervalSince(last.at) < 0.4 {
            lastClick = nil
            return .doubleClick(row: row, column: column)
        }
        lastClick = (row, now)
        return key
    }

    /// Gives the terminal back, then ends as the signal would have ended
    /// it, so a shell or script sees which signal it was.
    private func endBy(_ number: Int32) -> Never {
        saveReaderPlace()
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
                for key in decoder.feed(Array(buffer[0..<count])) {
                    apply(.key(telling(key)))
                    // Keys typed ahead move through the text as it is laid out after the one before.
                    readPassage()
                }
            } else if count == 0 {
                state.isFinished = true
            }
        } else if waiting[0].revents & Int16(POLLHUP | POLLERR) != 0 {
            state.isFinished = true
        }
        if waiting[2].revents != 0 { worker.drainWake() }
    }

    /// A detail the worker read may be older than a favourite changed
    /// since; it gets the favourite as this connection sees it now.
    private func withFavoritesNow(_ event: BrowseEvent) -> BrowseEvent {
        guard case var .detailLoaded(detail) = event, let isFavorite = try? cache.isFavorite(detail.ref) else { return event }
        detail.isFavorite = isFavorite
        return .detailLoaded(detail)
    }

    private func apply(_ event: BrowseEvent) {
        let booksBefore = state.booksListing
        perform(BrowseModel.handle(&state, event))
        // The books query is kept for the next run.
        if state.booksListing != booksBefore {
            let query = if case let .books(query) = state.booksListing { query } else { ListQuery() }
            try? cache.rememberBooksQuery(query)
        }
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
        reloadVisibleDetail()
        // Search results as the database holds them now; window rows are read after every event.
        if case let .list(list) = state.visible, case .search = list.listing { load(list.listing) }
        // The reading list as reading left it (here or in another process).
        if case let .list(list) = state.visible, list.listing == .reading { load(.reading) }
    }

    /// The detail on screen as the database holds it now (its favourite
    /// line, a title refreshed, where reading stopped).
    private func reloadVisibleDetail() {
        if case let .detail(detail) = state.visible, let cached = try? cache.show(.item(detail.ref)) {
            apply(.detailLoaded(BrowseRows.detail(cached, width: state.columns, catalog: cache)))
        }
    }

    // MARK: - Effects

    private func perform(_ effects: [BrowseEffect]) {
        for effect in effects {
            switch effect {
            case let .load(listing):
                load(listing)
            case let .refresh(listing):
                guard let key = listing.window, let fetcher, case let .list(list) = state.visible else {
                    load(listing)
                    apply(.fetched(listing, failure: nil, refresh: true, at: Date()))
                    continue
                }
                fetcher.refresh(listing, key, inView: list.top..<(list.top + state.listHeight))
            case let .showDetail(ref, width):
                showDetail(ref, width: width)
            case .reloadDetail:
                reloadVisibleDetail()
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
            case .redraw:
                comics_terminal_repaint_all()
                graphicsPlacement = graphicsPlacement.map { ($0.ref, -1, $0.graphics) }
            case let .openReader(ref):
                openReader(ref)
            case let .saveReading(ref, position):
                saveReading(ref, at: position)
            case let .searchText(ref, terms):
                textSearches.search(terms, in: ref)
            case let .findBlock(ref, percent):
                guard case let .reader(reader) = state.visible, let map = reader.map else { continue }
                if let block = try? cache.textBlock(ref, atPercent: percent, of: map) { apply(.readerBlockFound(ref, block)) }
            case let .addBookmark(ref, position):
                changeBookmarks(ref) { map in
                    guard let here = try cache.textPassage(ref, from: position.block, upTo: position.block + 1) else { return nil }
                    return try cache.addBookmark(ref, at: position, in: here, map: map)
                }
            case let .renameBookmark(ref, number, name):
                changeBookmarks(ref) { _ in
                    try cache.renameBookmark(ref, number: number, to: name)
                    return nil
                }
            case let .removeBookmark(ref, number):
                changeBookmarks(ref) { _ in
                    try cache.removeBookmark(ref, number: number)
                    return nil
                }
            case let .cancelDownload(ref):
                downloadWatch.cancel(ref)
            case let .setReaderTheme(theme):
                do {
                    _ = try cache.setConfig(.readerTheme, to: theme)
                } catch {
                    state.message = TerminalText.sanitize("cannot keep the colours: \(error)", singleLine: true)
                }
            case let .setReaderWidth(width):
                do {
                    _ = try cache.setConfig(.readerWidth, to: String(width))
                } catch {
                    state.message = TerminalText.sanitize("cannot keep the width: \(error)", singleLine: true)
                }
            }
        }
    }

    /// A change to the reader's bookmarks, then them as the cache has them.
    private func changeBookmarks(_ ref: ItemRef, _ change: (TextMap) throws -> Bookmark?) {
        guard case let .reader(reader) = state.visible, reader.ref == ref, let map = reader.map else { return }
        do {
            let added = try change(map)
            apply(.readerBookmarks(ref, try cache.bookmarks(ref), added: added))
        } catch {
            state.message = TerminalText.sanitize("cannot change the bookmarks: \(error)", singleLine: true)
        }
    }

    /// The text as the cache has it; one not downloaded is downloaded off
    /// this thread, the screen saying so meanwhile.
    private func openReader(_ ref: ItemRef) {
        do {
            if let map = try cache.textMap(ref) {
                let title = (try? cache.show(.item(ref))).map { TerminalText.sanitize($0.item.title, singleLine: true) }
                apply(.readerOpened(ref, map, title: title))
                apply(.readerBookmarks(ref, (try? cache.bookmarks(ref)) ?? [], added: nil))
                return
            }
        } catch {
            apply(.readerFailed(ref, "\(error)"))
            return
        }
        if case var .reader(reader) = state.visible, reader.ref == ref, context.mode != .offline {
            reader.status = .downloading()
            state.screens[state.screens.count - 1] = .reader(reader)
        }
        // Offline, the worker's catalog says why it cannot.
        textDownloads.download(ref)
    }

    /// Favourites and search results, read whole from the database.
    private func load(_ listing: BrowseListing) {
        switch listing {
        case .source, .books:
            return
        case .favorites:
            let rows = marked(((try? cache.favorites(source: nil)) ?? []).map { BrowseRows.row($0, catalog: cache) })
            apply(.loaded(.favorites, rows, total: nil))
        case .reading:
            let list = (try? cache.readingList()) ?? []
            let rows = list.map { ref, state in
                var row = (try? cache.show(.item(ref))).map { BrowseRows.row($0, catalog: cache) }
                    ?? BrowseRow(ref: ref, detail: "", title: "\(ref)", isFavorite: false)
                row.reading = Self.mark(state)
                return row
            }
            apply(.loaded(.reading, rows, total: nil))
        case let .search(terms):
            // As many as the screen has asked for so far (it asks for more
            // as the selection nears the last).
            let wanted = state.screens.lazy.compactMap { screen -> Int? in
                if case let .list(list) = screen, list.listing == listing { return list.wanted }
                return nil
            }.first ?? BrowseList.searchPage
            do {
                let found = try cache.search(terms, source: nil, remote: false, limit: wanted)
                let rows = found.results.map { BrowseRows.row($0, catalog: cache) }
                apply(.loaded(listing, rows, total: found.total))
            } catch {
                apply(.loaded(listing, [], total: 0))
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
            apply(.pictureNote(ref, "loading picture…"))
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
        // A terminal browser gets the terminal while it runs; the screen is drawn again after.
        if opener.needsTerminal { comics_terminal_close() }
        let opened = opener.open(url, environment: environment)
        if opener.needsTerminal {
            comics_terminal_reopen()
            comics_terminal_repaint_all()
            graphicsPlacement = graphicsPlacement.map { ($0.ref, -1, $0.graphics) }
        }
        if let pid = opened.detached { browsers.append(pid) }
        state.message = opened.started ? "opened \(url)" : "could not start \(opener.command)"
    }

    /// Detached browsers that ended are reaped, so none is left a zombie.
    private func reapBrowsers() {
        browsers.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }

    // MARK: - Drawing

    private func draw() {
        let lines = BrowseView.frame(state, now: Date())
        comics_terminal_erase()
        for (row, line) in lines.enumerated() {
            let attributes: Int32 = switch line.style {
            case .plain: 0
            case .selected, .status: Int32(COMICS_TEXT_REVERSE)
            case .heading: Int32(COMICS_TEXT_BOLD)
            case .dim: Int32(COMICS_TEXT_DIM)
            }
            if let colors = line.colors {
                var column = 0
                for run in colors {
                    let scalars = run.text.unicodeScalars.map(\.value)
                    let pair = comics_terminal_color_pair(Int32(run.foreground), Int32(run.background))
                    let bold = (run.isBold ? Int32(COMICS_TEXT_BOLD) : 0) | (run.isItalic ? Int32(COMICS_TEXT_ITALIC) : 0)
                        | (run.isDim ? Int32(COMICS_TEXT_DIM) : 0) | (run.isHighlighted ? Int32(COMICS_TEXT_REVERSE) : 0)
                    scalars.withUnsafeBufferPointer { buffer in
                        comics_terminal_put_colored(Int32(row), Int32(column), buffer.baseAddress, Int32(buffer.count), attributes | bold, pair)
                    }
                    column += DisplayWidth.of(run.text)
                }
                continue
            }
            let scalars = line.text.unicodeScalars.map(\.value)
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
        case let .reader(reader): .source(reader.ref.source)
        }
    }
}

/// Rows and detail lines from cached items; every string from the network
/// is sanitized here, before the model sees it.
enum BrowseRows {
    static func row(_ cached: CachedItem, catalog: Catalog, reading: ReadingMark? = nil) -> BrowseRow {
        let source = try? catalog.source(cached.ref.source)
        let detail = source?.summaryAttributes.first.flatMap { key in
            cached.item[key].map { source?.displayText(of: Attribute(key, $0), brief: true) ?? $0.stringValue ?? "" }
        } ?? ""
        return BrowseRow(
            ref: cached.ref, detail: TerminalText.sanitize(detail, singleLine: true),
            title: TerminalText.sanitize(cached.item.title, singleLine: true), isFavorite: cached.isFavorite, reading: reading)
    }

    /// A search result: the title and snippet with their matches marked.
    static func row(_ result: SearchResult, catalog: Catalog) -> BrowseRow {
        let plain = row(result.item, catalog: catalog)
        return BrowseRow(
            ref: plain.ref, detail: plain.detail, title: TerminalText.sanitize(result.highlightedTitle, singleLine: true),
            isFavorite: plain.isFavorite, snippet: TerminalText.sanitize(result.snippet, singleLine: true))
    }

    static func detail(_ cached: CachedItem, width: Int, catalog: Catalog) -> BrowseDetail {
        let plain = Terminal(isTerminal: false, width: max(20, width - 1), height: nil, cellSize: nil, colorForbidden: true)
        var extra: [(String, String)] = []
        if cached.ref.source == .books {
            let info = try? catalog.textInfo(cached.ref)
            let position = (try? catalog.readingPositions([cached.ref]))?[cached.ref]
            extra = (try? TextRecords.fields(cached.ref, info: info, position: position, catalog: catalog)) ?? []
            let read = position == nil ? "from the start" : "on from where you stopped"
            extra.append(("Read", "R or Enter reads it \(read)" + (info == nil ? " (downloading it first)" : "")))
        }
        let text = TableRenderer(terminal: plain, catalog: catalog).detail(cached, extra: extra)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.sanitize(String($0), singleLine: true) }
            .flatMap { pieces(of: $0, width: max(20, width - 1)) }
        return BrowseDetail(ref: cached.ref, lines: lines, isFavorite: cached.isFavorite)
    }

    /// A line `show` let run past the width (a URL alone on its line) in
    /// pieces the width long, so none of it is cut off.
    private static func pieces(of line: String, width: Int) -> [String] {
        guard DisplayWidth.of(line) > width else { return [line] }
        var pieces: [String] = [], piece = "", used = 0
        for character in line {
            let size = DisplayWidth.of(String(character))
            if used + size > width {
                pieces.append(piece)
                (piece, used) = ("", 0)
            }
            piece.append(character)
            used += size
        }
        return pieces + (piece.isEmpty ? [] : [piece])
    }
}

/// Books' texts downloaded or searched for the reader, one at a time on a
/// queue of its own (a long download keeps no detail, picture or search
/// waiting); a text goes into the cache, and the reader reads it there.
final class BrowseTextWorker: @unchecked Sendable {
    private let queue: DispatchQueue
    private let catalog: Catalog
    private let post: @Sendable (BrowseEvent) -> Void
    private let watch: TextDownloadWatch?

    init(label: String, catalog: Catalog, post: @escaping @Sendable (BrowseEvent) -> Void, watch: TextDownloadWatch?) {
        queue = DispatchQueue(label: "comics.browse.texts.\(label)")
        self.watch = watch
        self.catalog = catalog
        self.post = post
    }

    func download(_ ref: ItemRef) {
        queue.async { [self] in
            watch?.start(ref)
            defer { watch?.start(nil) }
            do {
                _ = try catalog.downloadTextIfNeeded(ref)
                post(.readerDownloaded(ref))
            } catch {
                post(.readerFailed(ref, TerminalText.sanitize("\(error)", singleLine: true)))
            }
        }
    }

    func search(_ terms: String, in ref: ItemRef) {
        queue.async { [self] in
            do {
                post(.readerMatches(ref, query: terms, try catalog.textMatches(terms, in: ref)))
            } catch let error as ComicsError {
                post(.readerMessage(ref, TerminalText.sanitize(error.message, singleLine: true)))
            } catch {
                post(.readerMessage(ref, TerminalText.sanitize("\(error)", singleLine: true)))
            }
        }
    }
}

/// Watches the reader's text download: its bytes come back as progress
/// events, and Esc on its screen stops it.
final class TextDownloadWatch: HTTPObserver, @unchecked Sendable {
    private let state = Locked<(ref: ItemRef?, cancelled: Bool)>((nil, false))
    private let post: @Sendable (BrowseEvent) -> Void

    init(post: @escaping @Sendable (BrowseEvent) -> Void) {
        self.post = post
    }

    func start(_ ref: ItemRef?) {
        state.withLock { $0 = (ref, false) }
    }

    func cancel(_ ref: ItemRef) {
        state.withLock { if $0.ref == ref { $0.cancelled = true } }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func requestEnded(url: String, outcome: String, seconds: Double) {}

    func stillWaiting(for host: String) {}

    func bodyArrived(url: String, bytes: Int, of expected: Int?) {
        guard let ref = state.withLock({ $0.ref }) else { return }
        post(.readerProgress(ref, bytes: bytes, of: expected))
    }
}

/// The queue that fetches details and pictures, with a catalog of its own;
/// what it finds comes back as events, and a byte on a pipe wakes the screen.
final class BrowseWorker: @unchecked Sendable {
    private let queue = DispatchQueue(label: "comics.browse.worker")
    private let events = Locked<[BrowseEvent]>([])
    private var catalog: Catalog?
    private let wake: DescriptorPipe
    var wakeReadEnd: Int32 { wake.readEnd }

    init() throws {
        guard let wake = DescriptorPipe(nonBlocking: true) else { throw ComicsError.unexpected("cannot make a pipe for browse") }
        self.wake = wake
    }

    func start(catalog: Catalog) {
        self.catalog = catalog
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

    /// Hands an event to the screen's thread and wakes it.
    func post(_ event: BrowseEvent) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 1
        _ = write(wake.writeEnd, &byte, 1)
    }

    /// The item's picture fitted to the pane, drawn by the time-limited
    /// child `show` uses: as kitty, iTerm2 or sixel graphics where the
    /// terminal has them (written over blank rows after ncurses draws), else
    /// in Unicode symbols, shapes without colour, as lines of text.
    func picture(_ ref: ItemRef, columns: Int, rows: Int, choice: GraphicsChoice, environment: [String: String], executable: String) {
        queue.async { [self] in
            guard let catalog, let cached = try? catalog.show(.item(ref)) else { return }
            let file: ImageFile
            switch catalog.image(of: cached) {
            case let .image(found): file = found
            case let .unavailable(reason):
                post(.pictureNote(ref, TerminalText.sanitize(reason, singleLine: true)))
                return
            }
            let size = (columns: max(8, columns - 1), rows: max(4, rows))
            let drawn: DrawnImage
            do {
                drawn = try PictureProcess.draw(
                    file, columns: size.columns, rows: size.rows, choice: choice, cellSize: (width: 10, height: 20),
                    environment: environment, executable: executable)
            } catch {
                post(.pictureNote(ref, TerminalText.sanitize("cannot draw the picture: \(error)", singleLine: true)))
                return
            }
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

/// Fills window listings from the network on a few threads, each with a
/// catalog (a connection and an HTTP client) of its own, so one request
/// that hangs delays only its own rows. Work is asked for in chunks of
/// positions; the newest asks go first, and asks for rows that left the
/// view are dropped before they start. A chunk just filled (or that just
/// failed) is not asked for again at once: a comic upstream does not have
/// stays a placeholder rather than a request each frame.
final class BrowseFetcher: @unchecked Sendable {
    /// As many as the HTTP client sends to one host at once.
    static let threads = 4
    /// At most this many work for one listing, so another listing's screen
    /// always has a fetcher, however many of its requests hang.
    static let threadsPerListing = 2
    /// Asked again no sooner than this after it was filled, or failed.
    static let quietAfterFill: TimeInterval = 60
    static let quietAfterFailure: TimeInterval = 10

    private struct Job: Hashable {
        let listing: BrowseListing
        let key: ListingKey
        /// The chunk of positions; nil for the newest number or first page.
        let chunk: Int?
        let revalidate: Bool

        var positions: Range<Int> {
            guard let chunk else { return 0..<0 }
            let size = BrowseFetcher.chunkSize(key)
            return chunk * size..<(chunk + 1) * size
        }
    }

    private struct Work {
        var queue: [Job] = []
        var running: Set<Job> = []
        var finished: [Job: (at: Date, failed: Bool)] = [:]
        /// Refresh jobs still to end, per listing, and the first failure among them.
        var refreshing: [BrowseListing: (left: Int, failure: String?)] = [:]
    }

    private let work = Locked(Work())
    private let ready = DispatchSemaphore(value: 0)
    private let post: @Sendable (BrowseEvent) -> Void

    private final class CatalogBox: @unchecked Sendable {
        let catalog: Catalog
        init(_ catalog: Catalog) { self.catalog = catalog }
    }

    init(catalogs: [Catalog], post: @escaping @Sendable (BrowseEvent) -> Void) {
        self.post = post
        for (index, catalog) in catalogs.enumerated() {
            let box = CatalogBox(catalog)
            DispatchQueue(label: "comics.browse.fetch.\(index)").async { [self] in run(box.catalog) }
        }
    }

    /// xkcd's chunks are a request each comic, ten at a time; a books
    /// chunk is one page of the server's.
    static func chunkSize(_ key: ListingKey) -> Int { key.source == .books ? 32 : 10 }

    /// The rows in view, then the margin: what is not cached (or its whole
    /// listing, when nothing is known yet) is fetched. Asks for other
    /// listings, or for rows out of view, that have not started are dropped.
    func want(_ listing: BrowseListing, _ key: ListingKey, inView: Range<Int>, margin: Range<Int>, count: Int?) {
        let size = Self.chunkSize(key)
        // Before anything is known, the first chunk finds out how many there are.
        let known = 0..<max(1, count ?? size)
        let chunks = { (range: Range<Int>) -> [Int] in
            let held = range.clamped(to: known)
            return held.isEmpty ? [] : Array(held.lowerBound / size...(held.upperBound - 1) / size)
        }
        let wanted = [Job(listing: listing, key: key, chunk: nil, revalidate: false)]
            + (chunks(inView) + chunks(margin)).map { Job(listing: listing, key: key, chunk: $0, revalidate: false) }
        let added = work.withLock { work -> Int in
            let now = Date()
            work.queue.removeAll { !$0.revalidate && !wanted.contains($0) }
            var added = 0
            for job in wanted.reversed() where !work.queue.contains(job) && !work.running.contains(job) {
                // The newest is looked at again a minute later too: the catalog
                // asks upstream only once the list time to live has passed.
                if let last = work.finished[job],
                   now.timeIntervalSince(last.at) < (last.failed ? Self.quietAfterFailure : Self.quietAfterFill) {
                    continue
                }
                work.queue.insert(job, at: 0)
                added += 1
            }
            return added
        }
        for _ in 0..<added { ready.signal() }
    }

    /// `r`: the newest number (or first page) and the rows in view, asked
    /// again conditionally; one `.fetched(refresh: true)` says how it went.
    func refresh(_ listing: BrowseListing, _ key: ListingKey, inView: Range<Int>) {
        let size = Self.chunkSize(key)
        let chunks = Set([0] + (inView.isEmpty ? [] : Array(inView.lowerBound / size...(inView.upperBound - 1) / size)))
        let jobs = chunks.sorted().map { Job(listing: listing, key: key, chunk: $0, revalidate: true) }
        work.withLock { work in
            work.queue.insert(contentsOf: jobs, at: 0)
            work.refreshing[listing] = (jobs.count + (work.refreshing[listing]?.left ?? 0), nil)
        }
        for _ in jobs { ready.signal() }
    }

    private func run(_ catalog: Catalog) {
        while true {
            // A job held back for its listing's share is looked at again soon.
            _ = ready.wait(timeout: .now() + .milliseconds(100))
            guard let job = work.withLock({ work -> Job? in
                guard let index = work.queue.firstIndex(where: { queued in
                    work.running.filter { $0.listing == queued.listing }.count < Self.threadsPerListing
                }) else { return nil }
                let job = work.queue.remove(at: index)
                work.running.insert(job)
                return job
            }) else { continue }
            var failure: String?
            do {
                if job.chunk == nil {
                    try catalog.refreshNewestIfStale(job.key)
                } else {
                    try catalog.fill(job.key, positions: job.positions, revalidate: job.revalidate)
                }
            } catch {
                failure = TerminalText.sanitize((error as? ComicsError)?.message ?? "\(error)", singleLine: true)
            }
            let refreshEnded = work.withLock { work -> (Bool, String?)? in
                work.running.remove(job)
                work.finished[Job(listing: job.listing, key: job.key, chunk: job.chunk, revalidate: false)] = (Date(), failure != nil)
                guard job.revalidate, var group = work.refreshing[job.listing] else { return nil }
                group.left -= 1
                group.failure = group.failure ?? failure
                work.refreshing[job.listing] = group.left > 0 ? group : nil
                return group.left > 0 ? nil : (true, group.failure)
            }
            if let (_, refreshFailure) = refreshEnded {
                post(.fetched(job.listing, failure: refreshFailure, refresh: true, at: Date()))
            } else if !job.revalidate {
                post(.fetched(job.listing, failure: failure, refresh: false, at: Date()))
            }
        }
    }
}
