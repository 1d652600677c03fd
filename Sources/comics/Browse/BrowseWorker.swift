import BrowseCore
import ComicsKit
import Dispatch

/// The queue that fetches items, draws pictures and searches texts, with
/// a catalog of its own; what it finds goes into the cache, or comes back
/// as events.
final class BrowseWorker: @unchecked Sendable {
    private let queue = DispatchQueue(label: "comics.browse.worker")
    private let catalog: Catalog
    private let post: @Sendable (BrowseEvent) -> Void

    init(catalog: Catalog, post: @escaping @Sendable (BrowseEvent) -> Void) {
        self.catalog = catalog
        self.post = post
    }

    /// What a picture is drawn for: the pane's size, how, and the child
    /// that draws it.
    struct PictureRequest {
        let columns: Int
        let rows: Int
        let choice: GraphicsChoice
        let environment: [String: String]
        let executable: String
    }

    /// The item, fetched into the cache when it is not there (the screen
    /// shows it from there), then its picture fitted to the pane, drawn by
    /// the time-limited child `show` uses: as kitty, iTerm2 or sixel
    /// graphics where the terminal has them (written over blank rows after
    /// ncurses draws), else in Unicode symbols, as lines of text.
    func item(_ ref: ItemRef, picture request: PictureRequest?) {
        queue.async { [self] in
            let cached: CachedItem
            do {
                cached = try catalog.show(.item(ref))
            } catch {
                let reason = (error as? ComicsError)?.message ?? "\(error)"
                post(.itemUnavailable(ref, TerminalText.sanitize(reason, singleLine: true)))
                return
            }
            guard let request else { return }
            let file: ImageFile
            switch catalog.image(of: cached) {
            case let .image(found): file = found
            case let .unavailable(reason):
                post(.pictureNote(ref, TerminalText.sanitize(reason, singleLine: true)))
                return
            }
            let size = (columns: max(8, request.columns - 1), rows: max(4, request.rows))
            let drawn: DrawnImage
            do {
                drawn = try PictureProcess.draw(
                    file, columns: size.columns, rows: size.rows, choice: request.choice, cellSize: (width: 10, height: 20),
                    environment: request.environment, executable: request.executable)
            } catch {
                post(.pictureNote(ref, TerminalText.sanitize("cannot draw the picture: \(error)", singleLine: true)))
                return
            }
            if request.choice.mode != .symbols {
                post(.pictureLoaded(ref, Array(repeating: "", count: size.rows), graphics: request.choice.wrapped(drawn.text), colors: []))
                return
            }
            var colors = SymbolPicture.runs(drawn.text)
            while let last = colors.last, last.allSatisfy({ $0.text.trimmingWhitespace().isEmpty }) { colors.removeLast() }
            let lines = colors.map { $0.map(\.text).joined() }
            post(.pictureLoaded(ref, lines, graphics: nil, colors: request.choice.colors == .none ? [] : colors))
        }
    }

    /// An illustration of a book's text, from the cache, drawn to fit its
    /// rows in the page by the same time-limited child: symbols as runs
    /// of colour a row, or graphics written over blank rows.
    func readerPicture(_ ref: ItemRef, _ key: ReaderPictureKey, request: PictureRequest) {
        queue.async { [self] in
            let file: ImageFile
            do {
                switch try catalog.textPicture(ref, path: key.path) {
                case let .image(found): file = found
                case let .unavailable(reason):
                    post(.readerPicture(ref, key, .failed(TerminalText.sanitize(reason, singleLine: true))))
                    return
                }
                let drawn = try PictureProcess.draw(
                    file, columns: key.columns, rows: key.rows, choice: request.choice, cellSize: (width: 10, height: 20),
                    environment: request.environment, executable: request.executable)
                if request.choice.mode != .symbols {
                    post(.readerPicture(ref, key, .drawn(rows: [], graphics: request.choice.wrapped(drawn.text))))
                    return
                }
                let rows = SymbolPicture.runs(drawn.text).prefix(key.rows).map { row in
                    request.choice.colors == .none ? row.map { BrowseRun(text: $0.text, foreground: -1, background: -1) } : row
                }
                post(.readerPicture(ref, key, .drawn(rows: Array(rows), graphics: nil)))
            } catch {
                post(.readerPicture(ref, key, .failed(TerminalText.sanitize("cannot draw \(key.path): \(error)", singleLine: true))))
            }
        }
    }

    /// The note a footnote mark refers to, its text sanitized.
    func footnote(_ ref: ItemRef, label: String, ordinal: Int, block: Int) {
        queue.async { [self] in
            do {
                let found = try catalog.footnote(ref, label: label, ordinal: ordinal, inBlock: block).map {
                    Footnote(block: $0.block, text: TerminalText.sanitize($0.text, singleLine: true))
                }
                post(.readerNote(ref, label: label, found, failure: nil))
            } catch {
                let reason = (error as? ComicsError)?.message ?? "\(error)"
                post(.readerNote(ref, label: label, nil, failure: TerminalText.sanitize(reason, singleLine: true)))
            }
        }
    }

    /// The blocks of a book's text that hold the words (the reader's `/`):
    /// on this queue too, as the reader shows no picture.
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
