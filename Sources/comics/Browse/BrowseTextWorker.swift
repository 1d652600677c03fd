import BrowseCore
import ComicsKit
import Dispatch

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
