import BrowseCore
import CTerminal
import ComicsKit
import struct FoundationEssentials.Date
import Glibc

/// `comics browse`: the terminal side of browse, and all it does is this:
/// wait for a key, a signal or a worker's event; hand each to
/// `BrowseModel.handle` with the state; run the effects it returns; give
/// the observation the queries the state now declares, and hand back
/// the answers that changed; draw. It never sets the state itself.
///
/// The screen's thread reads the cache only (the observation's
/// connection), so no key waits for a server; the network is used on the
/// workers' threads, each with a catalog of its own, and their only
/// output is the database (and a few events: a picture drawn, a download
/// done).
final class BrowseSession {
    let context: CommandContext
    /// Reads the cache, never the network: what every screen shows.
    let cache: Catalog
    private let observation: DatabaseObservation<BrowseQuery, BrowseAnswer>
    let mailbox: BrowseMailbox
    let worker: BrowseWorker
    /// Fills listings from the network; nil under --offline.
    let fetcher: BrowseFetcher?
    /// Downloads books' texts for the reader, on a thread of its own: a
    /// search never waits for a slow download.
    let textDownloads: BrowseTextWorker
    /// The download under way: its progress, and Esc's cancel.
    let downloadWatch: TextDownloadWatch
    let painter: BrowsePainter
    /// Browsers started detached, until they end.
    var browsers: [pid_t] = []
    /// The reader's saves, asked since the last frame (`saveReading()`).
    var placesToSave: [(ref: ItemRef, position: TextPosition)] = []
    var pagesToLearnFrom: [(words: Int, seconds: Double)] = []
    private var state: BrowseState
    private var decoder = KeyDecoder()

    init(context: CommandContext, source: SourceName) throws {
        self.context = context
        mailbox = try BrowseMailbox()
        let cache = try context.makeCatalog(mode: .offline, reportsNetwork: false)
        self.cache = cache
        let runner = BrowseQueryRunner(catalog: cache)
        observation = DatabaseObservation(catalog: cache, read: runner.answer)
        let networkMode = context.mode == .offline ? NetworkMode.offline : .cacheFirst
        let post: @Sendable (BrowseEvent) -> Void = { [mailbox] in mailbox.post($0) }
        worker = BrowseWorker(catalog: try context.makeCatalog(mode: networkMode, reportsNetwork: false), post: post)
        downloadWatch = TextDownloadWatch(post: post)
        textDownloads = BrowseTextWorker(
            catalog: try context.makeCatalog(mode: networkMode, reportsNetwork: false, textObserver: downloadWatch), post: post, watch: downloadWatch)
        fetcher = networkMode == .offline ? nil : BrowseFetcher(
            catalogs: try (0..<BrowseFetcher.threads).map { _ in try context.makeCatalog(mode: .cacheFirst, reportsNetwork: false) },
            post: post)
        painter = BrowsePainter(environment: context.environment, colorForbidden: context.terminal.colorForbidden)
        var settings = BrowseSettings()
        if let width = try? cache.readerWidth { settings.readerWidth = width }
        if let speed = try? cache.readingSpeed() { settings.readingSpeed = speed }
        if let theme = (try? cache.configValue(.readerTheme)).flatMap({ ReaderTheme(rawValue: $0.value) }) { settings.readerTheme = theme }
        settings.booksQuery = try? cache.rememberedBooksQuery()
        settings.colorForbidden = context.terminal.colorForbidden
        settings.showsPictures = !context.arguments.has("no-pictures") && (try? cache.configValue(.readerPictures))?.value != "off"
        settings.picturesAsGraphics = painter.graphicsChoice.mode != .symbols
        settings.offline = networkMode == .offline
        state = BrowseState(rows: 24, columns: 80, source: source, settings: settings)
    }

    /// `comics read`: browse opens on the book's text, and leaving the
    /// reader ends it.
    func startReading(_ ref: ItemRef, from start: ReaderStart, searching terms: String?) {
        let title = (try? cache.cachedItem(ref))??.item.title ?? ""
        dispatch(.startReading(ref, title: TerminalText.sanitize(title, singleLine: true), from: start, searching: terms))
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
        dispatch(.terminalOpened(hasColors: comics_terminal_has_colors() != 0))
        dispatch(.resized(rows: Int(rows), columns: Int(columns)))
        observe()
        painter.draw(state, now: Date())
        while !state.isFinished {
            waitForInput()
            if let signal = BrowseSignals.take() {
                if signal == SIGINT, state.prompt != nil || state.message != nil {
                    // Ctrl-C in a prompt, or over a message, is Esc there: it
                    // cancels the prompt or dismisses the message, not browse.
                    dispatch(.key(.escape))
                } else if signal == SIGTSTP {
                    saveReading()
                    comics_terminal_close()
                    BrowseSignals.stopUntilContinued()
                    comics_terminal_reopen()
                    painter.forgetGraphics()
                    // The terminal may have changed size while browse was stopped.
                    resize()
                } else {
                    guard signal == SIGWINCH else { endBy(signal) }
                    resize()
                }
            }
            for event in mailbox.take() { dispatch(event) }
            observe()
            wantFetches()
            reapBrowsers()
            painter.draw(state, now: Date())
            saveReading()
        }
        dispatch(.leaving)
        saveReading()
        // `comics read` that never showed the text fails as the download did.
        if let unread = state.unread { throw ComicsError.network(unread) }
    }

    /// One message through the model, and its effects run.
    func dispatch(_ event: BrowseEvent) {
        perform(BrowseModel.handle(&state, event))
    }

    /// The answers that changed to what the state declares now (the
    /// database changed, or what the screens show did), each handed to the
    /// model; its handling may declare more (a passage further on), which
    /// is read at once.
    private func observe() {
        for _ in 0..<4 {
            let changes = observation.changes(for: BrowseModel.queries(state))
            if changes.isEmpty { return }
            for change in changes {
                switch change.outcome {
                case let .answer(answer): dispatch(.answered(change.query, answer))
                case let .failure(reason): dispatch(.unanswered(change.query, TerminalText.sanitize(reason, singleLine: true)))
                }
            }
        }
    }

    /// The rows of the listing in view that are not cached, and a screen
    /// the way the selection moves, asked of the fetchers.
    private func wantFetches() {
        guard let fetcher, let want = BrowseModel.fetchWanted(state) else { return }
        fetcher.want(want.listing, want.key, missing: want.missing, count: want.count)
    }

    /// Gives the terminal back, then ends as the signal would have ended
    /// it, so a shell or script sees which signal it was.
    private func endBy(_ number: Int32) -> Never {
        dispatch(.leaving)
        saveReading()
        comics_terminal_close()
        signal(number, SIG_DFL)
        raise(number)
        exit(128 + number)
    }

    private func waitForInput() {
        var waiting = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: BrowseSignals.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: mailbox.wakeReadEnd, events: Int16(POLLIN), revents: 0),
        ]
        // A lone ESC is the Escape key once nothing follows it for 50 ms;
        // another process's writes are seen within half a second.
        let ready = poll(&waiting, 3, decoder.isWaiting ? 50 : 500)
        if ready == 0, decoder.isWaiting {
            dispatch(.time(Date()))
            for key in decoder.flush() { dispatch(.key(key)) }
            return
        }
        if waiting[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 {
                dispatch(.time(Date()))
                for key in decoder.feed(Array(buffer[0..<count])) {
                    dispatch(.key(key))
                    // Keys typed ahead move through the text as it is laid out after the one before.
                    observe()
                }
            } else if count == 0 {
                endInput()
            }
        } else if waiting[0].revents & Int16(POLLHUP | POLLERR) != 0 {
            endInput()
        }
    }

    /// The terminal went away: browse ends, every place saved.
    private func endInput() {
        dispatch(.leaving)
    }

    private func resize() {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return }
        comics_terminal_resize(Int32(size.ws_row), Int32(size.ws_col))
        // Graphics are written again at the new size, once redrawn for it.
        painter.forgetGraphics()
        dispatch(.resized(rows: Int(size.ws_row), columns: Int(size.ws_col)))
    }

    /// Detached browsers that ended are reaped, so none is left a zombie.
    private func reapBrowsers() {
        browsers.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }
}
