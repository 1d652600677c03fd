import BrowseCore
import CTerminal
import ComicsKit
import struct FoundationEssentials.Date
import Glibc

/// What the model asks, done: writes to the database (the observation
/// then shows them), work handed to the workers, the terminal. What
/// happens comes back as messages.
extension BrowseSession {
    func perform(_ effects: [BrowseEffect]) {
        for effect in effects {
            switch effect {
            case let .refresh(listing, inView):
                guard let key = listing.window, let fetcher else {
                    // Favourites, the reading list and search results are the cache's.
                    dispatch(.fetched(listing, failure: nil, refresh: true, at: Date()))
                    continue
                }
                fetcher.refresh(listing, key, inView: inView)
            case let .showDetail(ref, width, height):
                showDetail(ref, width: width, height: height)
            case let .toggleFavorite(ref):
                attempt("cannot change the favourite") { _ = try cache.changeFavorite(.item(ref), .toggle) }
            case let .open(ref):
                open(ref)
            case .redraw:
                painter.repaintAll()
            case let .openReader(ref):
                openReader(ref)
            case let .saveReading(ref, position):
                placesToSave.removeAll { $0.ref == ref }
                placesToSave.append((ref, position))
            case let .learnReadingSpeed(words, seconds):
                pagesToLearnFrom.append((words, seconds))
            case let .searchText(ref, terms):
                worker.search(terms, in: ref)
            case let .findBlock(ref, percent):
                if let map = try? cache.textMap(ref), let block = try? cache.textBlock(ref, atPercent: percent, of: map) {
                    dispatch(.readerBlockFound(ref, block))
                }
            case let .findNote(ref, label, ordinal, block):
                worker.footnote(ref, label: label, ordinal: ordinal, block: block)
            case let .drawReaderPicture(ref, key):
                guard let executable = CommandContext.executablePath() else {
                    dispatch(.readerPicture(ref, key, .failed("comics cannot find its own executable to draw pictures with")))
                    continue
                }
                worker.readerPicture(ref, key, request: BrowseWorker.PictureRequest(
                    columns: key.columns, rows: key.rows, choice: painter.graphicsChoice, environment: context.environment, executable: executable))
            case let .addBookmark(ref, position):
                changeBookmarks(ref) { map in
                    guard let here = try cache.textPassage(ref, from: position.block, upTo: position.block + 1) else { return nil }
                    return try cache.addBookmark(ref, at: position, in: here, map: map)
                }
            case let .addNote(ref, position, text):
                changeBookmarks(ref) { map in
                    guard let here = try cache.textPassage(ref, from: position.block, upTo: position.block + 1) else { return nil }
                    return try cache.addNote(ref, at: position, text: text, in: here, map: map)
                }
            case let .editNote(ref, number, text):
                changeBookmarks(ref) { _ in
                    try cache.editNote(ref, number: number, to: text)
                    return nil
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
            case let .keepBooksQuery(query):
                attempt("cannot keep the books query") { try cache.rememberBooksQuery(query) }
            case let .setReaderTheme(theme):
                attempt("cannot keep the colours") { _ = try cache.setConfig(.readerTheme, to: theme) }
            case let .setReaderWidth(width):
                attempt("cannot keep the width") { _ = try cache.setConfig(.readerWidth, to: String(width)) }
            }
        }
    }

    /// Where reading stopped and what the pages teach of its speed, written
    /// once the frame is out: a page turn does not wait for the disk, and
    /// keys typed ahead save only the place they end at.
    func saveReading() {
        for (ref, position) in placesToSave {
            attempt("cannot save where you stopped") { try cache.recordReading(ref, at: position) }
        }
        placesToSave = []
        for (words, seconds) in pagesToLearnFrom {
            if let speed = try? cache.learnReadingSpeed(words: words, seconds: seconds) { dispatch(.readingSpeed(speed)) }
        }
        pagesToLearnFrom = []
    }

    /// A write that may fail; its failure is said on the status line.
    private func attempt(_ what: String, _ write: () throws -> Void) {
        do {
            try write()
        } catch {
            dispatch(.said(TerminalText.sanitize("\(what): \(error)", singleLine: true)))
        }
    }

    /// A change to the reader's bookmarks, then them as the cache has them.
    private func changeBookmarks(_ ref: ItemRef, _ change: (TextMap) throws -> Bookmark?) {
        attempt("cannot change the bookmarks") {
            guard let map = try cache.textMap(ref) else { return }
            let added = try change(map)
            dispatch(.readerBookmarks(ref, try cache.bookmarks(ref), added: added))
        }
    }

    /// The text as the cache has it; one not downloaded is downloaded off
    /// this thread, the screen saying so meanwhile.
    private func openReader(_ ref: ItemRef) {
        do {
            if let map = try cache.textMap(ref) {
                let title = (try? cache.cachedItem(ref))?.map { TerminalText.sanitize($0.item.title, singleLine: true) }
                dispatch(.readerOpened(ref, map, title: title))
                dispatch(.readerBookmarks(ref, (try? cache.bookmarks(ref)) ?? [], added: nil))
                return
            }
        } catch {
            dispatch(.readerFailed(ref, TerminalText.sanitize("\(error)", singleLine: true)))
            return
        }
        // Offline, the worker's catalog says why it cannot.
        if context.mode != .offline { dispatch(.readerDownloading(ref)) }
        textDownloads.download(ref)
    }

    /// The item fetched when the cache lacks it, and its picture drawn
    /// (unless pictures are off).
    private func showDetail(_ ref: ItemRef, width: Int, height: Int) {
        var picture: BrowseWorker.PictureRequest?
        if (try? cache.imagePreference) != .never, let executable = CommandContext.executablePath() {
            dispatch(.pictureNote(ref, "loading picture…"))
            picture = BrowseWorker.PictureRequest(
                columns: width, rows: height - 1, choice: painter.graphicsChoice, environment: context.environment, executable: executable)
        }
        worker.item(ref, picture: picture)
    }

    /// The item's page in `$BROWSER` or `xdg-open`, detached from the
    /// screen; the address is made from the reference, as `comics open` makes it.
    private func open(_ ref: ItemRef) {
        guard let url = try? cache.source(ref.source).pageURL(of: ref.id) else { return }
        let environment = context.environment
        guard let opener = BrowserOpener(environment: environment) else {
            dispatch(.said("no browser found: set $BROWSER, or install xdg-utils"))
            return
        }
        // A terminal browser gets the terminal while it runs; the screen is drawn again after.
        if opener.needsTerminal { comics_terminal_close() }
        let opened = opener.open(url, environment: environment)
        if opener.needsTerminal {
            comics_terminal_reopen()
            painter.repaintAll()
        }
        if let pid = opened.detached { browsers.append(pid) }
        dispatch(.said(opened.started ? "opened \(url)" : "could not start \(opener.command)"))
    }
}
