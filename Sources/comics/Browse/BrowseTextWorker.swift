import BrowseCore
import ComicsKit
import Dispatch

/// Books' texts downloaded for the reader, one at a time on a queue of
/// its own (a long download keeps no picture or search waiting); a text
/// goes into the cache, and the reader reads it there.
final class BrowseTextWorker: @unchecked Sendable {
    private let queue = DispatchQueue(label: "comics.browse.downloads")
    private let catalog: Catalog
    private let post: @Sendable (BrowseEvent) -> Void
    private let watch: TextDownloadWatch

    init(catalog: Catalog, post: @escaping @Sendable (BrowseEvent) -> Void, watch: TextDownloadWatch) {
        self.watch = watch
        self.catalog = catalog
        self.post = post
    }

    func download(_ ref: ItemRef) {
        queue.async { [self] in
            watch.start(ref)
            defer { watch.start(nil) }
            do {
                _ = try catalog.downloadTextIfNeeded(ref)
                post(.readerDownloaded(ref))
                // The pictures come after the text, into the cache, where
                // the reader's page finds them; one that fails says so in
                // its place.
                _ = try? catalog.fetchPictures(ref)
            } catch {
                post(.readerFailed(ref, TerminalText.sanitize("\(error)", singleLine: true)))
            }
        }
    }
}
