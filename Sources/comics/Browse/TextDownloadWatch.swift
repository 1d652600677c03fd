import BrowseCore
import ComicsKit

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
