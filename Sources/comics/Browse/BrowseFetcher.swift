import BrowseCore
import ComicsKit
import Dispatch
import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// Fills window listings from the network on a few threads, each with a
/// catalog (a connection and an HTTP client) of its own, so one request
/// that hangs delays only its own rows. Work is asked for in chunks of
/// positions; the newest asks go first, and asks for rows that left the
/// view are dropped before they start. A comic upstream does not have is
/// a fact the cache keeps, not a missing row; a chunk just filled, or
/// that just failed, is not asked for again at once.
final class BrowseFetcher: @unchecked Sendable {
    /// As many as the HTTP client sends to one host at once.
    static let threads = 4
    /// At most this many work for one listing, so another listing's screen
    /// always has a fetcher, however many of its requests hang.
    static let threadsPerListing = 2
    /// The newest looked at again no sooner than this after the last look.
    static let quietAfterNewest: TimeInterval = 60
    /// A chunk filled is asked for again (its rows missing once more)
    /// no sooner than this: a page upstream sends short is not a request
    /// each frame.
    static let quietAfterFill: TimeInterval = 5
    /// A chunk that failed waits this long.
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

    /// The chunks of the positions the cache lacks, nearest first (the
    /// first chunk, when nothing is known yet), and the newest. Asks for
    /// other listings, or for rows no longer missing, that have not
    /// started are dropped.
    func want(_ listing: BrowseListing, _ key: ListingKey, missing positions: [Int], count: Int?) {
        let size = Self.chunkSize(key)
        // Before anything is known, the first chunk finds out how many there
        // are (and so is the newest, asked once, not twice at once).
        var chunks: [Int] = count == nil ? [0] : []
        for position in positions where !chunks.contains(position / size) { chunks.append(position / size) }
        let wanted = (count == nil ? [] : [Job(listing: listing, key: key, chunk: nil, revalidate: false)])
            + chunks.map { Job(listing: listing, key: key, chunk: $0, revalidate: false) }
        let added = work.withLock { work -> Int in
            let now = Date()
            work.queue.removeAll { !$0.revalidate && !wanted.contains($0) }
            var added = 0
            for job in wanted.reversed() where !work.queue.contains(job) && !work.running.contains(job) {
                // The newest is looked at again a minute later (the catalog
                // asks upstream only once the list time to live has passed);
                // a chunk whose rows are missing again (a cleanup elsewhere)
                // is asked for again soon.
                if let last = work.finished[job] {
                    let quiet = last.failed ? Self.quietAfterFailure : job.chunk == nil ? Self.quietAfterNewest : Self.quietAfterFill
                    if now.timeIntervalSince(last.at) < quiet { continue }
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
