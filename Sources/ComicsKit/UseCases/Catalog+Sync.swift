/// What `sync` asks for: the whole xkcd archive, a books query, or the
/// favourite books.
public enum SyncScope: Sendable {
    case archive
    case query(ListQuery)
    case favorites
}

/// How far a sync has come; `total` is nil while it is not known (a books
/// query until its last page).
public struct SyncProgress: Sendable {
    public let done: Int
    public let total: Int?
}

/// What a sync did.
public struct SyncReport: Sendable {
    /// Items fetched because they were missing or stale.
    public var fetched = 0
    /// Items already cached and fresh: not asked for.
    public var upToDate = 0
    /// Numbers upstream does not have (xkcd has no comic 404).
    public var absent = 0
    /// What the sync could not mirror, each said in a few words: empty when
    /// it mirrored all it was asked to.
    public var shortfalls: [String] = []

    public var isComplete: Bool { shortfalls.isEmpty }
}

extension Catalog {
    /// How many items one step checks and fetches: each step is one
    /// transaction, and memory stays flat whatever the archive's size.
    static let syncBatchSize = 200

    /// Mirrors a source into the cache: only what is missing or stale is
    /// fetched, in batches committed as they arrive, so an interrupted sync
    /// resumes where it stopped (`--refresh` revalidates everything,
    /// conditionally). Then the xkcd archive is marked mirrored as a whole,
    /// or a books query as that query (not after a favourites-only sync):
    /// cleanup stops applying max-items to what is mirrored (max-age still
    /// applies). A sync is a refresh of the source: `info` and the
    /// stale-copy warnings learn how it went.
    public func sync(_ sourceName: SourceName, scope: SyncScope, progress: (SyncProgress) -> Void) throws -> SyncReport {
        guard mode != .offline else { throw ComicsError.usage("sync needs the network; --offline forbids it") }
        return try recordingRefresh(of: sourceName, fellShort: \.shortfalls.first) { try mirror(sourceName, scope: scope, progress: progress) }
    }

    private func mirror(_ sourceName: SourceName, scope: SyncScope, progress: (SyncProgress) -> Void) throws -> SyncReport {
        let source = try source(sourceName)
        var report = SyncReport()
        switch scope {
        case .archive where source.hasLatest:
            // A stale newest is asked for now: the archive may have grown.
            let (latest, served) = try newest(source, waitsWhenStale: true)
            if let failure = served.failure {
                // A host that did not answer in time would not answer the
                // items either: stop now rather than wait as long again.
                if failure.endsTheRun { throw failure }
                report.shortfalls.append(
                    "the newest \(source.itemNoun) could not be learned (\(failure.message)); any after #\(latest) are missing")
            }
            try syncItems((1...max(1, latest)).lazy.map { ItemRef(source: sourceName, id: $0) }, total: latest,
                          source: source, report: &report, progress: progress)
        case .favorites:
            // Favourites are never cleaned up: refreshing them mirrors nothing.
            let refs = try store.favorites(source: sourceName).map(\.ref) + store.favoritesNotCached(source: sourceName)
            try syncItems(refs.lazy, total: refs.count, source: source, report: &report, progress: progress)
            return report
        case .archive:
            // A catalogue without numbers is mirrored as its unfiltered query.
            try syncQuery(ListQuery(), source: source, report: &report, progress: progress)
        case let .query(query):
            try syncQuery(query, source: source, report: &report, progress: progress)
        }
        if report.isComplete { try store.setSetting(ConfigKey.mirror(of: sourceName).storageKey, to: "on") }
        return report
    }

    /// The most items one query may match to be mirrored: Gutendex's whole
    /// catalogue (some 76,000 books) would take hours and gigabytes.
    static let largestMirroredQuery = 10_000

    /// Mirrors one query's pages and records the query as mirrored, so
    /// cleanup spares the items it holds (and only those).
    private func syncQuery(_ query: ListQuery, source: ItemSource, report: inout SyncReport, progress: (SyncProgress) -> Void) throws {
        try syncPages(query: query, source: source, report: &report, progress: progress)
        if report.isComplete { try store.addMirror(source: source.name, query: source.pageQueryKey(query), at: clock.now) }
    }

    private func syncItems<Refs: Sequence>(
        _ refs: Refs, total: Int, source: ItemSource, report: inout SyncReport, progress: (SyncProgress) -> Void
    ) throws where Refs.Element == ItemRef {
        var done = 0
        var unreadable = 0
        var batch: [ItemRef] = []
        func flush() throws {
            let cached = try store.cachedItems(batch)
            let wanted = batch.filter { ref in
                guard let item = cached[ref] else { return true }
                return mode == .refresh || isStale(item)
            }
            report.upToDate += batch.count - wanted.count
            if !wanted.isEmpty {
                let answers = try source.fetchItems(wanted.map { (id: $0.id, validators: cached[$0]?.validators ?? .none) })
                var fetched: [FetchedItem] = []
                var revalidated: [ItemRef: Validators] = [:]
                let now = clock.now
                for (ref, answer) in zip(wanted, answers) {
                    switch answer {
                    case let .fetched(item): fetched.append(item)
                    case let .notModified(validators): revalidated[ref] = validators
                    case .notFound: report.absent += 1
                    case let .unreadable(error):
                        warnings.append("skipped \(ref): \(error.message)")
                        unreadable += 1
                    }
                }
                try store.markRevalidated(revalidated, at: now)
                report.upToDate += revalidated.count
                try store.save(fetched, at: now)
                report.fetched += fetched.count
            }
            done += batch.count
            batch.removeAll(keepingCapacity: true)
            progress(SyncProgress(done: done, total: total))
        }
        for ref in refs {
            batch.append(ref)
            if batch.count == Self.syncBatchSize { try flush() }
        }
        if !batch.isEmpty { try flush() }
        if unreadable > 0 {
            report.shortfalls.append("\(unreadable) \(source.itemNoun)\(unreadable == 1 ? "" : "s") upstream sent could not be read")
        }
    }

    /// Walks a query's pages from the first, each stored as it comes. A
    /// page still fresh is not asked for again (the first for the list TTL,
    /// the others for the detail TTL, as `list` and `more` would serve
    /// them), so a second run costs nothing and a killed run resumes where
    /// it stopped; `--refresh` revalidates every page. Once the first page
    /// says how many items there are, a source with numbered pages has the
    /// rest fetched at once (`--jobs` in flight). A query matching more
    /// than `largestMirroredQuery` items is refused after its first page.
    private func syncPages(
        query: ListQuery, source: ItemSource, report: inout SyncReport, progress: (SyncProgress) -> Void
    ) throws {
        var position: String? = PageKey.firstPosition
        var done = 0
        var total: Int?
        var seen = Set<String>()
        while let current = position, seen.insert(current).inserted {
            let key = PageKey(source: source.name, query: source.pageQueryKey(query), position: current)
            guard let page = try syncPage(key, query: query, source: source, report: &report) else {
                report.shortfalls.append("a page after the first \(done) \(source.itemNoun)s could not be stored whole; the rest of the query is missing")
                break
            }
            if key.isFirst {
                total = page.total
                if let total, total > Self.largestMirroredQuery {
                    throw ComicsError.usage(
                        "this query matches \(total) \(source.itemNoun)s, more than the \(Self.largestMirroredQuery) a sync mirrors",
                        hint: "narrow it with --search, --topic or --language, or sync --favorites")
                }
            }
            done += page.itemIDs.count
            position = page.nextPosition
            progress(SyncProgress(done: done, total: total ?? (position == nil ? done : nil)))
            if key.isFirst, let numbered = source as? NumberedPages, let total, let second = position, !page.itemIDs.isEmpty,
               let rest = numbered.positions(after: second, through: (total + page.itemIDs.count - 1) / page.itemIDs.count) {
                position = try syncPagesTogether(
                    [second] + rest, query: query, source: numbered, seen: &seen, report: &report
                ) { pageItems in
                    done += pageItems
                    progress(SyncProgress(done: done, total: total))
                }
            }
        }
    }

    /// One page: the cached copy while fresh, else fetched (conditionally
    /// when all its items are cached). nil when it cannot be had whole.
    private func syncPage(_ key: PageKey, query: ListQuery, source: ItemSource, report: inout SyncReport) throws -> StoredPage? {
        let ttl = key.isFirst ? policy.listTTL : policy.detailTTL
        if mode != .refresh, let cached = try completePage(key),
           policy.freshness(cachedAt: cached.page.fetchedAt, ttl: ttl, now: clock.now) == .fresh {
            report.upToDate += cached.items.count
            return cached.page
        }
        guard let (fresh, items) = try refreshPage(key, query: query, source: source, trustingCache: true)
            ?? refreshPage(key, query: query, source: source, trustingCache: false)
        else { return nil }
        report.fetched += items.count
        return fresh
    }

    /// How many pages are asked for at once (96 Gutendex pages are about
    /// 9 MB, well inside the 32 MiB a batch of answers may take), and how
    /// many arrived pages are stored together in one transaction (each
    /// commit is a sync to disk).
    static let pagesPerBatch = 96
    static let pagesPerCommit = 8

    /// The pages at `positions` (in order, the second page first), the fresh
    /// ones from the cache and the rest fetched concurrently, a batch at a
    /// time, stored as they arrive (a few to a transaction) while the others
    /// are on their way; `onStored` is told how many items each page held.
    /// Returns where paging goes on: nil at the end, or a position to walk
    /// on from one page at a time (the listing grew meanwhile, or a page
    /// came back unchanged that is no longer cached). A failed page is
    /// thrown once the rest of its batch is stored.
    private func syncPagesTogether(
        _ positions: [String], query: ListQuery, source: NumberedPages, seen: inout Set<String>,
        report: inout SyncReport, onStored: (Int) -> Void
    ) throws -> String? {
        var next: String?
        for start in stride(from: 0, to: positions.count, by: Self.pagesPerBatch) {
            let keys = positions[start..<min(start + Self.pagesPerBatch, positions.count)].map {
                PageKey(source: source.name, query: source.pageQueryKey(query), position: $0)
            }
            var cached: [PageKey: StoredPage] = [:]
            for key in keys { cached[key] = try completePage(key)?.page }
            let wanted = keys.filter { key in
                guard mode != .refresh, let page = cached[key] else { return true }
                return policy.freshness(cachedAt: page.fetchedAt, ttl: policy.detailTTL, now: clock.now) != .fresh
            }
            var arrived: [PageKey: Result<(page: StoredPage, items: [FetchedItem]), ComicsError>] = [:]
            var unsaved: [(page: StoredPage, items: [FetchedItem])] = [], storeFailure: Error?
            func storeArrived() {
                guard storeFailure == nil, !unsaved.isEmpty else { return }
                do {
                    try store.save(pages: unsaved)
                    let unchanged = unsaved.filter { $0.items.isEmpty }.flatMap { entry in
                        entry.page.itemIDs.map { (ItemRef(source: source.name, id: $0), Validators.none) }
                    }
                    if source.pagesHoldItems { try store.markRevalidated(Dictionary(uniqueKeysWithValues: unchanged), at: clock.now) }
                    unsaved.forEach { onStored($0.page.itemIDs.count) }
                } catch {
                    storeFailure = error
                }
                unsaved.removeAll()
            }
            try source.fetchPages(at: wanted.map { ($0.position, cached[$0]?.validators ?? .none) }, query: query) { index, answer in
                let key = wanted[index]
                let stored = answer.map { fetch in storable(fetch, at: key, cached: cached[key]) }
                guard case let .success(entry?) = stored else {
                    // A 304 for a page no longer cached is walked to later, one page at a time.
                    if case let .failure(error) = stored { arrived[key] = .failure(error) }
                    return
                }
                arrived[key] = .success(entry)
                unsaved.append(entry)
                if unsaved.count >= Self.pagesPerCommit { storeArrived() }
            }
            storeArrived()
            if let storeFailure { throw storeFailure }
            for key in keys {
                let page: StoredPage
                switch arrived[key] {
                case let .success(entry)?:
                    page = entry.page
                    if entry.items.isEmpty { report.upToDate += page.itemIDs.count } else { report.fetched += entry.items.count }
                case let .failure(error)?:
                    throw error
                case nil:
                    guard !wanted.contains(key), let fresh = cached[key] else { return key.position }
                    page = fresh
                    report.upToDate += page.itemIDs.count
                    onStored(page.itemIDs.count)
                }
                seen.insert(key.position)
                next = page.nextPosition
                if next == nil { return nil }
            }
        }
        return next
    }

    /// A fetched page as it is to be stored, with the items it brought
    /// (none when it came back unchanged); nil for an unchanged page that
    /// is no longer cached.
    private func storable(_ fetch: PageFetch, at key: PageKey, cached: StoredPage?) -> (page: StoredPage, items: [FetchedItem])? {
        switch fetch {
        case let .page(answer):
            warnings += answer.skipped.map { "skipped \($0)" }
            let page = StoredPage(
                key: key, itemIDs: answer.itemIDs, nextPosition: answer.nextPosition, fetchedAt: clock.now,
                validators: answer.validators, total: answer.total)
            return (page, answer.items)
        case let .notModified(validators):
            guard var page = cached else { return nil }
            page.fetchedAt = clock.now
            if !validators.isEmpty { page.validators = validators }
            return (page, [])
        }
    }
}
