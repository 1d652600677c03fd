import FoundationEssentials

/// The use cases behind every command: list, more, show, favourites and
/// cleanup, with the cache rules of the spec. Reads what it returns from the
/// store after any fetch has been stored; never prints.
public final class Catalog {
    let store: CacheStore
    private let sources: [SourceName: ItemSource]
    let clock: WallClock
    private let policy: CachePolicy
    public let mode: NetworkMode
    let images: ItemImages?

    /// Warnings for stderr gathered while serving the command, such as
    /// stale data served because the network failed.
    public internal(set) var warnings: [String] = []
    /// Refreshes the command decided on; started after output is written.
    public private(set) var deferredTasks: [BackgroundTask] = []

    public init(
        store: CacheStore, sources: [ItemSource], images: ItemImages? = nil, clock: WallClock = .system,
        policy: CachePolicy = .standard, mode: NetworkMode = .cacheFirst
    ) {
        self.store = store
        self.images = images
        self.sources = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0) })
        self.clock = clock
        self.policy = policy
        self.mode = mode
    }

    public func source(_ name: SourceName) throws -> ItemSource {
        guard let source = sources[name] else { throw ComicsError.usage("the \(name.rawValue) source is not available") }
        return source
    }

    // MARK: - Listing

    /// The newest page; resets `more` to continue after it.
    public func list(_ sourceName: SourceName, query: ListQuery) throws -> [CachedItem] {
        let source = try source(sourceName)
        let query = try withConfiguredPageSize(query, for: source)
        let key = PageKey(source: sourceName, query: source.pageQueryKey(query), position: PageKey.firstPosition)
        let (page, items) = try servePage(key, query: query, source: source)
        try moveCursor(to: cursor(after: page), source: sourceName, query: source.cursorQueryKey(query))
        return items
    }

    /// The page after the last one `list` or `more` showed.
    public func more(_ sourceName: SourceName, query: ListQuery) throws -> [CachedItem] {
        let source = try source(sourceName)
        let query = try withConfiguredPageSize(query, for: source)
        let cursorKey = source.cursorQueryKey(query)
        let position: String
        switch try store.cursor(source: sourceName, query: cursorKey) {
        case nil:
            position = PageKey.firstPosition
        case .endOfArchive:
            throw Self.endOfListing(source)
        case let .next(next):
            position = next
        }
        let key = PageKey(source: sourceName, query: source.pageQueryKey(query), position: position)
        let (page, items) = try servePage(key, query: query, source: source)
        try moveCursor(to: cursor(after: page), source: sourceName, query: cursorKey)
        if items.isEmpty && !key.isFirst {
            // The listing shrank under the cursor: nothing is left past it.
            throw Self.endOfListing(source)
        }
        return items
    }

    /// `--limit` wins; without it a source that takes a page size gets the configured one.
    private func withConfiguredPageSize(_ query: ListQuery, for source: ItemSource) throws -> ListQuery {
        guard query.limit == nil, source.acceptsPageSize else { return query }
        return query.withLimit(try configuredPageSize())
    }

    /// xkcd's listing is its archive; a books listing is one query's results.
    private static func endOfListing(_ source: ItemSource) -> ComicsError {
        source.acceptsFilters
            ? .notFound("no more to show: the end of this query's results was reached "
                + "(`comics -s books list` with the same options starts again from its first page)")
            : .notFound("no more to show: the end of the archive was reached (`comics list` starts again from the first page)")
    }

    private func cursor(after page: StoredPage) -> PageCursor {
        page.nextPosition.map { .next(position: $0) } ?? .endOfArchive
    }

    /// Writes the cursor only when it moves, so a repeated `list` stays a pure read.
    private func moveCursor(to cursor: PageCursor, source: SourceName, query: String) throws {
        guard try store.cursor(source: source, query: query) != cursor else { return }
        try store.setCursor(cursor, source: source, query: query, at: clock.now)
    }

    /// Cache-first for one page: a complete, fresh copy is served as is; a
    /// stale one is served and refreshed in the background; anything else is
    /// fetched now. If fetching fails, whatever is cached is served with a warning.
    private func servePage(_ key: PageKey, query: ListQuery, source: ItemSource) throws -> (StoredPage, [CachedItem]) {
        let ttl = key.isFirst ? policy.listTTL : policy.detailTTL
        let cached = try completePage(key)
        switch action(cachedAt: cached?.page.fetchedAt, ttl: ttl) {
        case .serve:
            if let cached { return cached }
        case .serveAndRefresh:
            deferredTasks.append(.refreshPage(key))
            if let cached { return cached }
        case .fetch:
            break
        }
        guard mode != .offline else {
            throw ComicsError.network("nothing cached for this page, and --offline forbids the network")
        }
        do {
            // A cleanup in another process may remove items the fetch took
            // as cached before the page is stored; a second fetch then asks
            // for every item, and what it stores cannot be missing.
            if let fresh = try refreshPage(key, query: query, source: source, trustingCache: true) { return fresh }
            if let fresh = try refreshPage(key, query: query, source: source, trustingCache: false) { return fresh }
        } catch let error as ComicsError where error.kind == .network {
            guard let cached else { throw error }
            warnServingStale(cached.page.fetchedAt, because: error)
            return cached
        }
        throw ComicsError.unexpected("the page could not be stored whole; run the command again")
    }

    /// The stored page with every item it names, or nil if any is missing.
    private func completePage(_ key: PageKey) throws -> (page: StoredPage, items: [CachedItem])? {
        guard let page = try store.page(key) else { return nil }
        let refs = page.itemIDs.map { ItemRef(source: key.source, id: $0) }
        let found = try store.cachedItems(refs)
        let items = refs.compactMap { found[$0] }
        return items.count == refs.count ? (page, items) : nil
    }

    /// Fetches a page and returns it as stored, or nil when an item it
    /// names is missing from the cache. Conditionally only when every item
    /// is cached (a 304 cannot bring back an item that is gone); without
    /// `trustingCache`, unconditionally and with every item.
    @discardableResult
    func refreshPage(
        _ key: PageKey, query: ListQuery, source: ItemSource, trustingCache: Bool
    ) throws -> (StoredPage, [CachedItem])? {
        let stored = trustingCache ? try completePage(key)?.page : nil
        let outcome = try source.fetchPage(
            at: key.position, query: query, validators: stored?.validators ?? .none,
            isCached: { [store] ids in
                guard trustingCache else { return [] }
                return Set(try store.cachedItems(ids.map { ItemRef(source: key.source, id: $0) }).keys.map(\.id))
            })
        var page: StoredPage
        var items: [FetchedItem] = []
        switch outcome {
        case let .page(fetched):
            page = StoredPage(
                key: key, itemIDs: fetched.itemIDs, nextPosition: fetched.nextPosition, fetchedAt: clock.now,
                validators: fetched.validators)
            items = fetched.items
        case let .notModified(validators):
            guard let unchanged = stored else { return nil }
            page = unchanged
            page.fetchedAt = clock.now
            if !validators.isEmpty { page.validators = validators }
        }
        return try store.save(page, items: items).map { (page, $0) }
    }

    // MARK: - One item

    /// One item in full, by number or `latest`.
    public func show(_ reference: ItemReference) throws -> CachedItem {
        let ref = try resolve(reference)
        let source = try source(ref.source)
        let cached = try store.cachedItem(ref)
        switch action(cachedAt: cached?.cachedAt, ttl: policy.detailTTL) {
        case .serve:
            if let cached { return cached }
        case .serveAndRefresh:
            deferredTasks.append(.refreshItem(ref))
            if let cached { return cached }
        case .fetch:
            break
        }
        return try fetchItem(ref, source: source, cached: cached)
    }

    /// Fetches an item now (conditionally when cached); a network failure
    /// falls back to the cached copy with a warning.
    private func fetchItem(_ ref: ItemRef, source: ItemSource, cached: CachedItem?) throws -> CachedItem {
        guard mode != .offline else {
            throw ComicsError.network("\(ref) is not cached, and --offline forbids the network")
        }
        do {
            try refreshItem(ref, source: source, validators: cached?.validators ?? .none)
        } catch let error as ComicsError where error.kind == .network {
            guard let cached else { throw error }
            warnServingStale(cached.cachedAt, because: error)
            return cached
        }
        guard let stored = try store.cachedItem(ref) else {
            throw ComicsError.unexpected("\(ref) was stored but could not be read back; run the command again")
        }
        return stored
    }

    private func refreshItem(_ ref: ItemRef, source: ItemSource, validators: Validators) throws {
        let now = clock.now
        switch try source.fetchItems([(id: ref.id, validators: validators)])[0] {
        case let .fetched(item):
            try store.save([item], at: now)
        case let .notModified(newValidators):
            try store.markRevalidated([ref: newValidators], at: now)
        case .notFound:
            throw ComicsError.notFound("there is no \(source.itemNoun) \(ref.id)")
        }
    }

    /// `latest` is the first item of the newest one-item page.
    func resolve(_ reference: ItemReference) throws -> ItemRef {
        switch reference {
        case let .item(ref):
            return ref
        case let .latest(sourceName):
            let source = try source(sourceName)
            guard source.hasLatest else {
                throw ComicsError.usage("\(sourceName.rawValue) has no latest item", hint: "name one by its number")
            }
            let query = ListQuery(limit: 1)
            let key = PageKey(source: sourceName, query: source.pageQueryKey(query), position: PageKey.firstPosition)
            guard let id = try servePage(key, query: query, source: source).0.itemIDs.first else {
                throw ComicsError.notFound("\(source.hostDescription) has no comics yet")
            }
            return ItemRef(source: sourceName, id: id)
        }
    }

    // MARK: - Favourites

    /// The result of a favourite change: the item, whether it is now a
    /// favourite, and whether anything changed.
    public struct FavoriteOutcome: Equatable, Sendable {
        public let item: CachedItem
        public let isFavorite: Bool
        public let changed: Bool
    }

    /// Marks or unmarks an item, fetching it first if it is not cached.
    public func changeFavorite(_ reference: ItemReference, _ change: FavoriteChange) throws -> FavoriteOutcome {
        let ref = try resolve(reference)
        let source = try source(ref.source)
        let before = try store.cachedItem(ref) ?? fetchItem(ref, source: source, cached: nil)
        let isFavorite = try store.changeFavorite(ref, change, at: clock.now)
        var item = before
        item.isFavorite = isFavorite
        return FavoriteOutcome(item: item, isFavorite: isFavorite, changed: isFavorite != before.isFavorite)
    }

    public func favorites(source: SourceName?) throws -> [CachedItem] {
        try store.favorites(source: source)
    }

    // MARK: - Background work

    /// Does one deferred task; called in the detached background process.
    public func perform(_ task: BackgroundTask) throws {
        switch task {
        case let .refreshPage(key):
            let source = try source(key.source)
            guard let query = ListQuery(key: key.query) else { return }
            try refreshPage(key, query: query, source: source, trustingCache: true)
        case let .refreshItem(ref):
            try refreshItem(ref, source: try source(ref.source), validators: try store.cachedItem(ref)?.validators ?? .none)
        case .cleanup:
            _ = try cleanup(overrides: CleanupOverrides(), dryRun: false)
        case .fetchFavorites:
            try store.setSetting(SettingKey.favoritesFetchAttempt, to: String(clock.now.timeIntervalSince1970))
            _ = try fetchFavorites(try store.favoritesNotCached(source: nil), progress: { _, _ in })
        }
    }

    /// The deferred tasks, plus favourites still to fetch when online, and
    /// a cleanup when a day has passed since the last.
    public func backgroundWork() throws -> [BackgroundTask] {
        var tasks = deferredTasks
        if try isFavoritesFetchDue() { tasks.append(.fetchFavorites) }
        if try isCleanupDue() { tasks.append(.cleanup) }
        return tasks
    }

    /// Favourites not cached yet are fetched when online, at most once an
    /// hour: one that upstream does not have must not cost every command a request.
    private func isFavoritesFetchDue() throws -> Bool {
        guard mode != .offline, try !store.favoritesNotCached(source: nil).isEmpty else { return false }
        guard let text = try store.setting(SettingKey.favoritesFetchAttempt), let last = Double(text) else { return true }
        return clock.now.timeIntervalSince1970 - last >= policy.listTTL
    }

    private func isCleanupDue() throws -> Bool {
        guard try isEnabled(.autoCleanup) else { return false }
        let since = try store.setting(SettingKey.lastCleanup) ?? store.setting(SettingKey.firstUse)
        guard let text = since, let last = Double(text) else {
            // A new database starts its day now rather than cleaning at once.
            try store.setSetting(SettingKey.firstUse, to: String(clock.now.timeIntervalSince1970))
            return false
        }
        return clock.now.timeIntervalSince1970 - last >= CleanupRules.automaticInterval
    }

    // MARK: - Cleanup

    /// Limits given for one run, over the persisted ones.
    public struct CleanupOverrides: Sendable {
        public var maxAge: TimeInterval?
        public var maxItems: Int?

        public init(maxAge: TimeInterval? = nil, maxItems: Int? = nil) {
            self.maxAge = maxAge
            self.maxItems = maxItems
        }
    }

    /// What a cleanup removed (or, dry, would remove) and under which rules.
    public struct CleanupReport: Sendable {
        public let rules: CleanupRules
        public let removed: [CleanupRules.Candidate]
        /// The items that would go, with their data; filled on a dry run only.
        public let wouldRemove: [CachedItem]
        public let favoritesKept: Int
        /// The cached images of removed items, removed with them.
        public let imagesRemoved: ImageCacheUsage
        /// The database's size before and after; nil on a dry run.
        public let compaction: Compaction?
    }

    public func cleanup(overrides: CleanupOverrides, dryRun: Bool) throws -> CleanupReport {
        var rules = try configuredCleanupRules()
        for source in SourceName.allCases {
            if let maxAge = overrides.maxAge { rules[source].maxAge = maxAge }
            if let maxItems = overrides.maxItems { rules[source].maxItems = maxItems }
        }
        let now = clock.now
        // Measured before anything is removed: the deletions themselves
        // grow the WAL, and the size reported must be the one `info` showed.
        let bytesBefore = store.bytesOnDisk()
        let removed = try store.removeItems(dryRun: dryRun) { rules.selectForRemoval(from: $0, now: now) }
        var imagesRemoved = ImageCacheUsage()
        var compaction: Compaction?
        if !dryRun {
            try store.setSetting(SettingKey.lastCleanup, to: String(now.timeIntervalSince1970))
            for source in SourceName.allCases {
                try store.removePages(of: source, fetchedBefore: now.addingTimeInterval(-rules[source].maxAge))
            }
            imagesRemoved = try removeOrphanedImages()
            compaction = try compact().map { Compaction(bytesBefore: bytesBefore, bytesAfter: $0.bytesAfter) }
        }
        let details = dryRun ? try store.cachedItems(removed.map(\.ref)) : [:]
        return CleanupReport(
            rules: rules, removed: removed, wouldRemove: removed.compactMap { details[$0.ref] },
            favoritesKept: try store.favoriteCount(), imagesRemoved: imagesRemoved, compaction: compaction)
    }

    /// Shrinking the file is a courtesy: when another process holds the
    /// database, the removal still stands and the next cleanup shrinks it.
    private func compact() throws -> Compaction? {
        do {
            return try store.compact()
        } catch let error as ComicsError where error.kind == .database {
            warnings.append("the database was not compacted this time: \(error.message)")
            return nil
        }
    }

    // MARK: - Helpers

    /// Whether an item is older than the detail TTL, so scripts can tell
    /// a copy served from an old cache from a fresh one.
    public func isStale(_ item: CachedItem) -> Bool {
        policy.freshness(cachedAt: item.cachedAt, ttl: policy.detailTTL, now: clock.now) != .fresh
    }

    private enum CacheAction { case serve, serveAndRefresh, fetch }

    /// The cache rules in one place: what to do with a copy cached at
    /// `cachedAt` (nil: none), given its TTL, the clock and the network mode.
    private func action(cachedAt: Date?, ttl: TimeInterval) -> CacheAction {
        switch (policy.freshness(cachedAt: cachedAt, ttl: ttl, now: clock.now), mode) {
        case (.missing, _), (_, .refresh): .fetch
        case (.fresh, _), (.stale, .offline): .serve
        case (.stale, .cacheFirst): backgroundRefreshEnabled ? .serveAndRefresh : .fetch
        }
    }

    /// Read once a command: the `background-refresh` setting.
    private lazy var backgroundRefreshEnabled: Bool = (try? isEnabled(.backgroundRefresh)) ?? true

    private func warnServingStale(_ cachedAt: Date, because error: ComicsError) {
        let age = RelativeAge.describe(clock.now.timeIntervalSince(cachedAt))
        warnings.append("\(error.message); showing the copy cached \(age)")
    }
}

/// Names of what the catalog persists beside the user's settings.
public enum SettingKey {
    public static let lastCleanup = "cleanup.last_run"
    /// When the automatic cleanup's first day began, before any cleanup ran.
    public static let firstUse = "cleanup.first_use"
    /// When favourites not cached yet were last tried in the background.
    public static let favoritesFetchAttempt = "favorites.fetch_attempt"
}

/// "3 hours ago", for messages about cached copies.
public enum RelativeAge {
    public static func describe(_ interval: TimeInterval) -> String {
        let seconds = max(0, Int(interval))
        let units = [(86400, "day"), (3600, "hour"), (60, "minute")]
        for (size, name) in units where seconds >= size {
            let count = seconds / size
            return "\(count) \(name)\(count == 1 ? "" : "s") ago"
        }
        return "just now"
    }
}
