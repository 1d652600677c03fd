import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// The use cases behind every command: list, more, show, favourites and
/// cleanup, with the cache rules of the spec. Reads what it returns from the
/// store after any fetch has been stored; never prints.
public final class Catalog {
    let store: CacheStore
    private let sources: [SourceName: ItemSource]
    let clock: WallClock
    let policy: CachePolicy
    public let mode: NetworkMode
    let images: ItemImages?
    let texts: GutenbergTexts?

    /// Warnings for stderr gathered while serving the command, such as
    /// stale data served because the network failed.
    public internal(set) var warnings: [String] = []

    /// The warnings gathered so far, each handed out once.
    public func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings
    }

    /// Refreshes the command decided on; started after output is written.
    public private(set) var deferredTasks: [BackgroundTask] = []
    /// Told each cache decision as it is made (`-v`).
    public var log: ((String) -> Void)?

    public init(
        store: CacheStore, sources: [ItemSource], images: ItemImages? = nil, texts: GutenbergTexts? = nil,
        clock: WallClock = .system, policy: CachePolicy = .standard, mode: NetworkMode = .cacheFirst
    ) {
        self.store = store
        self.images = images
        self.texts = texts
        self.sources = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0) })
        self.clock = clock
        self.policy = policy
        self.mode = mode
    }

    /// Changes when anything writes the cache: another process, another
    /// connection, or this catalog itself.
    public func databaseVersion() throws -> DatabaseVersion {
        try store.databaseVersion()
    }

    public func source(_ name: SourceName) throws -> ItemSource {
        guard let source = sources[name] else { throw ComicsError.usage("the \(name.rawValue) source is not available") }
        return source
    }

    // MARK: - Listing

    /// The newest page; resets `more` to continue after it. `showing`:
    /// the rows to show of a page whose size the server decides (books),
    /// and `more` goes on from the last row shown.
    public func list(_ sourceName: SourceName, query asked: ListQuery, showing: Int? = nil) throws -> [CachedItem] {
        let (source, query, key) = try firstPage(sourceName, query: asked)
        let served = try servePage(key, query: query, source: source)
        try warnAboutFallback(served)
        let items = try show(served, at: key.position, skipping: 0, showing: showing, query: query, source: source)
        try rememberListing(sourceName, query: source.cursorQueryKey(query))
        return items
    }

    /// The rows of a served page after `skipping`, `showing` of them (all
    /// when nil, or where the source takes a page size), with the cursor
    /// moved past the last one shown.
    private func show(
        _ served: ServedPage, at position: String, skipping: Int, showing: Int?, query: ListQuery, source: ItemSource
    ) throws -> [CachedItem] {
        let rows = source.acceptsPageSize ? nil : showing
        let rest = served.items.dropFirst(skipping)
        let items = Array(rows.map { rest.prefix($0) } ?? rest)
        let shown = skipping + items.count
        let next: PageCursor = shown < served.items.count
            ? .within(position: position, shown: shown, pageSize: rows)
            : cursor(after: served.page, query: query, source: source, rows: rows)
        try moveCursor(to: next, source: source.name, query: source.cursorQueryKey(query))
        noteUse(of: items)
        return items
    }

    /// A listing's source, its query with the configured page size, and the
    /// key of its first page.
    private func firstPage(_ sourceName: SourceName, query: ListQuery) throws -> (ItemSource, ListQuery, key: PageKey) {
        let source = try source(sourceName)
        let query = try withConfiguredPageSize(query, for: source)
        return (source, query, PageKey(source: sourceName, query: source.pageQueryKey(query), position: PageKey.firstPosition))
    }

    /// The source and query of the last `list` or `more`: `more` with no
    /// options goes on with it, and a bare number means its source.
    public func lastListing() throws -> (source: SourceName, query: ListQuery)? {
        guard let text = try store.setting(SettingKey.lastListing) else { return nil }
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let source = SourceName(rawValue: String(parts[0])),
              let query = parts[1].isEmpty ? ListQuery() : ListQuery(key: String(parts[1]))
        else { return nil }
        return (source, query)
    }

    /// True the first time it is asked after each new listing: the note
    /// that a bare number is not of the last listing's source is said once
    /// a listing, not at every `fav` or `open`. Best effort: a database that
    /// cannot be written says it again.
    public func firstNoteAboutLastListing() throws -> Bool {
        let listing = try store.setting(SettingKey.lastListing)
        guard try store.setting(SettingKey.lastListingNoted) != listing else { return false }
        try? store.setSetting(SettingKey.lastListingNoted, to: listing ?? "")
        return true
    }

    /// Written only when it changes, so a repeated `list` stays a pure read.
    private func rememberListing(_ source: SourceName, query: String) throws {
        let text = "\(source.rawValue)\n\(query)"
        guard try store.setting(SettingKey.lastListing) != text else { return }
        try store.setSetting(SettingKey.lastListing, to: text)
    }

    /// The page after the last one `list` or `more` showed, as large as
    /// that one unless `--limit` says otherwise; where the server decides
    /// a page's size, the rest of a page partly shown first, `showing`
    /// rows at a time (as many as the listing before when nil).
    public func more(_ sourceName: SourceName, query asked: ListQuery, showing: Int? = nil) throws -> [CachedItem] {
        let source = try source(sourceName)
        let cursorKey = source.cursorQueryKey(asked)
        let position: String
        var skipping = 0
        var rows: Int?
        var query = asked
        switch try store.cursor(source: sourceName, query: cursorKey) {
        case nil:
            position = PageKey.firstPosition
        case .endOfArchive:
            throw Self.endOfListing(source)
        case let .next(next, pageSize):
            (position, rows) = (next, pageSize)
        case let .within(page, shown, pageSize):
            (position, skipping, rows) = (page, shown, pageSize)
        }
        if query.limit == nil, source.acceptsPageSize, let rows { query = query.withLimit(rows) }
        query = try withConfiguredPageSize(query, for: source)
        let key = PageKey(source: sourceName, query: source.pageQueryKey(query), position: position)
        let served = try servePage(key, query: query, source: source)
        try warnAboutFallback(served)
        try rememberListing(sourceName, query: cursorKey)
        let items = try show(served, at: position, skipping: skipping, showing: showing ?? rows, query: query, source: source)
        if items.isEmpty && skipping > 0 {
            // The page shrank under the cursor: on to the next.
            return try more(sourceName, query: asked, showing: showing)
        }
        if items.isEmpty && !key.isFirst {
            // The listing shrank under the cursor: nothing is left past it.
            throw Self.endOfListing(source)
        }
        return items
    }

    /// Records that items were shown, at most once a day each, so that a
    /// command run again the same day stays a pure read (and cleanup's
    /// max-items keeps what people look at). Best effort: a database that
    /// cannot be written now still serves what it holds.
    public func noteUse(of items: [CachedItem]) {
        let today = (clock.now.timeIntervalSince1970 / 86400).rounded(.down)
        let due = items.filter { item in
            item.usedAt.map { ($0.timeIntervalSince1970 / 86400).rounded(.down) < today } ?? true
        }
        try? store.markUsed(due.map(\.ref), at: clock.now)
    }

    /// `--limit` wins; without it a source that takes a page size gets the configured one.
    func withConfiguredPageSize(_ query: ListQuery, for source: ItemSource) throws -> ListQuery {
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

    private func cursor(after page: StoredPage, query: ListQuery, source: ItemSource, rows: Int?) -> PageCursor {
        page.nextPosition.map { .next(position: $0, pageSize: source.acceptsPageSize ? query.pageSize : rows) } ?? .endOfArchive
    }

    /// Writes the cursor only when it moves, so a repeated `list` stays a pure read.
    private func moveCursor(to cursor: PageCursor, source: SourceName, query: String) throws {
        guard try store.cursor(source: source, query: query) != cursor else { return }
        try store.setCursor(cursor, source: source, query: query, at: clock.now)
    }

    /// A page as served, and why the network was not used for it when it
    /// should have been.
    struct ServedPage {
        var page: StoredPage
        var items: [CachedItem]
        /// Composed from cached items: no complete copy of this page was stored.
        var isComposed = false
        /// The network failure that made the cache stand in; nil when the
        /// network was not needed or `--offline` forbade it.
        var failure: ComicsError?
    }

    /// Cache-first for one page: a complete, fresh copy is served as is; a
    /// stale one is served and refreshed in the background; anything else is
    /// fetched now. Without the network (offline, or fetching fails), the
    /// stored copy is served, or else a page composed from cached items;
    /// only when there is neither is nothing cached. `waitsWhenStale`: a
    /// stale copy is fetched again now, not served (what a sync builds on).
    private func servePage(_ key: PageKey, query: ListQuery, source: ItemSource, waitsWhenStale: Bool = false) throws -> ServedPage {
        let ttl = key.isFirst ? policy.listTTL : policy.detailTTL
        var cached = try completePage(key).map { ServedPage(page: $0.page, items: $0.items) }
        // A sync (or `show latest`) cached comics newer than the stored
        // newest page: that page is superseded, and the cache's newest are it.
        if source.hasLatest, key.isFirst, let stored = cached,
           let newestCached = try store.cachedIDs(of: key.source, atMost: nil, limit: 1).first,
           newestCached > stored.page.itemIDs.first ?? 0 {
            cached = try composedPage(key, query: query, source: source)
        }
        let decision = action(cachedAt: cached?.page.fetchedAt, ttl: ttl)
        logDecision(decision, what: "\(key.source.rawValue) page \(key.position.isEmpty ? "newest" : key.position)"
            + (key.query.isEmpty ? "" : " of \(key.query)"), cachedAt: cached?.page.fetchedAt)
        switch decision {
        case .serve:
            if let cached { return cached }
        case .serveAndRefresh where !waitsWhenStale:
            deferredTasks.append(.refreshPage(key))
            if let cached { return cached }
        case .serveAndRefresh:
            break
        case .fetch:
            break
        }
        guard mode != .offline else {
            if let composed = try composedPage(key, query: query, source: source) { return composed }
            throw ComicsError.network("nothing cached for this page, and --offline forbids the network")
        }
        do {
            // A cleanup in another process may remove items the fetch took
            // as cached before the page is stored; a second fetch then asks
            // for every item, and what it stores cannot be missing.
            let fresh = try recordingRefresh(of: key.source) {
                try refreshPage(key, query: query, source: source, trustingCache: true)
                    ?? refreshPage(key, query: query, source: source, trustingCache: false)
            }
            if let fresh { return ServedPage(page: fresh.0, items: fresh.1) }
        } catch let error as ComicsError where error.kind == .network {
            guard var fallback = try cached ?? composedPage(key, query: query, source: source) else {
                throw try withOfflineHint(error, source: key.source)
            }
            fallback.failure = error
            return fallback
        }
        throw ComicsError.unexpected("the page could not be stored whole; run the command again")
    }

    /// What the cache can show for a page it holds no complete copy of: in
    /// a numbered archive the cached numbers downwards from the page's
    /// start (the newest cached for the first page); for a query, the items
    /// of its stored page that are still cached. nil when that is nothing.
    private func composedPage(_ key: PageKey, query: ListQuery, source: ItemSource) throws -> ServedPage? {
        let ids: [Int]
        var nextPosition: String?
        if source.hasLatest {
            let start = key.isFirst ? nil : Int(key.position)
            ids = try store.cachedIDs(of: key.source, atMost: start, limit: query.pageSize)
            nextPosition = ids.last.flatMap { $0 > 1 ? String($0 - 1) : nil }
        } else {
            guard let stored = try store.page(key) else { return nil }
            ids = stored.itemIDs
            nextPosition = stored.nextPosition
        }
        let found = try store.cachedItems(ids.map { ItemRef(source: key.source, id: $0) })
        let items = ids.compactMap { found[ItemRef(source: key.source, id: $0)] }
        guard let oldest = items.map(\.cachedAt).min() else { return nil }
        let page = StoredPage(
            key: key, itemIDs: items.map(\.ref.id), nextPosition: nextPosition, fetchedAt: oldest, validators: .none)
        return ServedPage(page: page, items: items, isComposed: true)
    }

    /// One warning when the network failed and the cache stood in, or
    /// when a stale page is shown while refreshing it keeps failing.
    private func warnAboutFallback(_ served: ServedPage) throws {
        guard let failure = served.failure else {
            let ttl = served.page.key.isFirst ? policy.listTTL : policy.detailTTL
            return try warnIfStuckStale(served.page.key.source, cachedAt: served.page.fetchedAt, ttl: ttl)
        }
        if served.isComposed {
            warnings.append("\(failure.message); showing what is cached")
        } else {
            warnServingStale(served.page.fetchedAt, because: failure)
        }
    }

    /// The stored page with every item it names, or nil if any is missing.
    func completePage(_ key: PageKey) throws -> (page: StoredPage, items: [CachedItem])? {
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
                validators: fetched.validators, total: fetched.total)
            items = fetched.items
            warnings += fetched.skipped.map { "skipped \($0)" }
            try store.recordAbsent(
                Dictionary(uniqueKeysWithValues: fetched.absent.map { (ItemRef(source: key.source, id: $0.key), $0.value) }), at: clock.now)
        case let .notModified(validators):
            guard let unchanged = stored else { return nil }
            page = unchanged
            page.fetchedAt = clock.now
            if !validators.isEmpty { page.validators = validators }
        }
        guard var storedItems = try store.save(page, items: items) else { return nil }
        if case .notModified = outcome, source.pagesHoldItems {
            // The page, and so every item in it, is as it was.
            try store.markRevalidated(Dictionary(uniqueKeysWithValues: storedItems.map { ($0.ref, Validators.none) }), at: clock.now)
            storedItems = try reread(storedItems)
        }
        return (page, try revalidatingStaleItems(storedItems, source: source))
    }

    /// A page's items past the detail TTL are revalidated with it, at once
    /// and conditionally, so a fresh page never holds stale items for good.
    /// If the network fails here, the page still stands.
    private func revalidatingStaleItems(_ items: [CachedItem], source: ItemSource) throws -> [CachedItem] {
        let stale = items.filter(isStale)
        guard !stale.isEmpty else { return items }
        do {
            let answers = try source.fetchItems(stale.map { (id: $0.ref.id, validators: $0.validators) })
            var fetched: [FetchedItem] = []
            var revalidated: [ItemRef: Validators] = [:]
            for (item, answer) in zip(stale, answers) {
                switch answer {
                case let .fetched(new): fetched.append(new)
                case let .notModified(validators): revalidated[item.ref] = validators
                case .notFound, .unreadable: break
                }
            }
            let now = clock.now
            try store.markRevalidated(revalidated, at: now)
            try store.save(fetched, at: now)
        } catch let error as ComicsError where error.kind == .network {
            return items
        }
        return try reread(items)
    }

    private func reread(_ items: [CachedItem]) throws -> [CachedItem] {
        let current = try store.cachedItems(items.map(\.ref))
        return items.map { current[$0.ref] ?? $0 }
    }

    // MARK: - One item

    /// Why upstream had no such item (or none it could read) when last
    /// asked, within an item's time to live; nil when it is not known absent.
    public func absence(of ref: ItemRef) throws -> Absence? {
        try store.absent([ref], since: clock.now.addingTimeInterval(-policy.detailTTL))[ref]
    }

    /// An item as the cache holds it, nil when it does not: never fetched.
    public func cachedItem(_ ref: ItemRef) throws -> CachedItem? {
        try store.cachedItem(ref)
    }

    /// One item in full, by number, `latest` or `random`.
    public func show(_ reference: ItemReference) throws -> CachedItem {
        let shown: CachedItem
        if case let .random(sourceName) = reference {
            shown = try showRandom(sourceName)
        } else {
            let ref = try resolve(reference)
            shown = try fetchItemIfNeeded(ref, source: try source(ref.source), cached: try store.cachedItem(ref))
        }
        noteUse(of: [shown])
        return shown
    }

    /// Fetches an item now (conditionally when cached); a network failure
    /// falls back to the cached copy with a warning.
    private func fetchItem(_ ref: ItemRef, source: ItemSource, cached: CachedItem?) throws -> CachedItem {
        guard mode != .offline else {
            throw ComicsError.network("\(ref) is not cached, and --offline forbids the network")
        }
        // A cleanup in another process may remove the item between its
        // storing and its reading back (one just fetched can be the least
        // recently used past a small max-items): it is fetched again.
        for attempt in 1...3 {
            do {
                try recordingRefresh(of: ref.source) {
                    try refreshItem(ref, source: source, validators: attempt == 1 ? cached?.validators ?? .none : .none)
                }
            } catch let error as ComicsError where error.kind == .network {
                guard let cached else { throw try withOfflineHint(error, source: ref.source) }
                warnServingStale(cached.cachedAt, because: error)
                return cached
            }
            if let stored = try store.cachedItem(ref) { return stored }
        }
        throw ComicsError.unexpected("\(ref) was stored but removed again at once, three times (by a cleanup in another process?); run the command again")
    }

    private func refreshItem(_ ref: ItemRef, source: ItemSource, validators: Validators) throws {
        let now = clock.now
        switch try source.fetchItems([(id: ref.id, validators: validators)])[0] {
        case let .fetched(item):
            try store.save([item], at: now)
        case let .notModified(newValidators):
            try store.markRevalidated([ref: newValidators], at: now)
        case .notFound:
            let absence = Absence(.notFound, "there is no \(source.itemNoun) \(ref.id)")
            try store.recordAbsent([ref: absence], at: now)
            throw ComicsError.notFound(absence.reason)
        case let .unreadable(error):
            throw error
        }
    }

    /// A comic picked uniformly from the archive (1 to the newest; a number
    /// upstream has no comic for is picked again); without the network,
    /// one picked uniformly from the cached ones.
    private func showRandom(_ sourceName: SourceName) throws -> CachedItem {
        let source = try source(sourceName)
        guard source.hasLatest else {
            throw ComicsError.usage("\(sourceName.rawValue) has no numbered archive to pick from", hint: "name one by its number")
        }
        if mode != .offline {
            do {
                let (newest, served) = try newest(source)
                if let failure = served.failure { throw failure }
                for _ in 0..<5 {
                    let ref = ItemRef(source: sourceName, id: Int.random(in: 1...max(1, newest)))
                    do {
                        let before = try store.cachedItem(ref)
                        return try fetchItemIfNeeded(ref, source: source, cached: before)
                    } catch let error as ComicsError where error.kind == .notFound {
                        continue
                    }
                }
            } catch let error as ComicsError where error.kind == .network {
                warnings.append("\(error.message); picking from the cached comics instead")
            }
        }
        guard let id = try store.randomCachedID(of: sourceName), let cached = try store.cachedItem(ItemRef(source: sourceName, id: id)) else {
            throw ComicsError.network("no \(source.itemNoun) is cached to pick from, and the network cannot be used")
        }
        return cached
    }

    /// Serves a cached copy (refreshing it in the background when stale) or fetches it now.
    private func fetchItemIfNeeded(_ ref: ItemRef, source: ItemSource, cached: CachedItem?) throws -> CachedItem {
        // Upstream said it has none, within an item's time to live: it is
        // not asked again, unless --refresh asks. One it sent unreadable is.
        if cached == nil, mode != .refresh, let absence = try absence(of: ref), absence.kind == .notFound {
            throw ComicsError.notFound(absence.reason)
        }
        let decision = action(cachedAt: cached?.cachedAt, ttl: policy.detailTTL)
        logDecision(decision, what: ref.description, cachedAt: cached?.cachedAt)
        switch decision {
        case .serve:
            if let cached {
                try warnIfStuckStale(ref.source, cachedAt: cached.cachedAt, ttl: policy.detailTTL)
                return cached
            }
        case .serveAndRefresh:
            deferredTasks.append(.refreshItem(ref))
            if let cached {
                try warnIfStuckStale(ref.source, cachedAt: cached.cachedAt, ttl: policy.detailTTL)
                return cached
            }
        case .fetch:
            break
        }
        return try fetchItem(ref, source: source, cached: cached)
    }

    /// The newest item's number, from the newest one-item page: fetched,
    /// stored, or (without the network) the newest cached.
    func newest(_ source: ItemSource, waitsWhenStale: Bool = false) throws -> (Int, ServedPage) {
        let query = ListQuery(limit: 1)
        let key = PageKey(source: source.name, query: source.pageQueryKey(query), position: PageKey.firstPosition)
        let served = try servePage(key, query: query, source: source, waitsWhenStale: waitsWhenStale)
        guard let id = served.page.itemIDs.first else {
            throw ComicsError.notFound("\(source.hostDescription) has no comics yet")
        }
        return (id, served)
    }

    /// `latest` is the first item of the newest one-item page. Without the
    /// network it is the newest cached, with a warning when the archive has
    /// not been checked within the list TTL: a newer one may exist.
    func resolve(_ reference: ItemReference) throws -> ItemRef {
        switch reference {
        case let .item(ref):
            return ref
        case let .random(sourceName):
            return try showRandom(sourceName).ref
        case let .latest(sourceName):
            let source = try source(sourceName)
            guard source.hasLatest else {
                throw ComicsError.usage("\(sourceName.rawValue) has no latest item", hint: "name one by its number")
            }
            let (id, served) = try newest(source)
            if mode == .offline || served.failure != nil {
                let checked = try store.lastListingFetch(of: sourceName)
                if checked.map({ clock.now.timeIntervalSince($0) > policy.listTTL }) ?? true {
                    let reason = served.failure.map { "\($0.message); " } ?? ""
                    let last = checked.map { "last checked \(RelativeAge.describe(clock.now.timeIntervalSince($0)))" } ?? "never checked"
                    warnings.append("\(reason)#\(id) is the newest \(source.itemNoun) cached; \(source.hostDescription) was \(last), so there may be a newer one")
                }
            }
            return ItemRef(source: sourceName, id: id)
        }
    }

    // MARK: - Favourites

    /// The result of a favourite change: the item (nil when it could not be
    /// fetched yet), whether it is now a favourite, and whether anything changed.
    public struct FavoriteOutcome: Equatable, Sendable {
        public let ref: ItemRef
        public let item: CachedItem?
        public let isFavorite: Bool
        public let changed: Bool
        /// A favourite whose item could not be fetched yet.
        public let isPending: Bool
        /// Why: the network failure; nil under --offline.
        public let pendingReason: String?
    }

    /// Marks or unmarks an item, fetching it first if it is not cached.
    /// Without the network the favourite is recorded all the same, and the
    /// item is fetched in the background once the network is back, as
    /// `fav import` does; an item upstream does not have is refused.
    public func changeFavorite(_ reference: ItemReference, _ change: FavoriteChange) throws -> FavoriteOutcome {
        let ref = try resolve(reference)
        let source = try source(ref.source)
        var before = try store.cachedItem(ref)
        let wasFavorite = try before?.isFavorite ?? store.isFavorite(ref)
        let willBeFavorite = change == .add || (change == .toggle && !wasFavorite)
        var pendingReason: String?
        if before == nil && willBeFavorite && mode != .offline {
            do {
                before = try fetchItem(ref, source: source, cached: nil)
            } catch let error as ComicsError where error.kind == .network {
                pendingReason = error.message
            }
        }
        let isFavorite = try keepingFavoritesBounded {
            try store.changeFavorite(ref, change, at: clock.now, keepingAtMost: Self.largestFavoriteCount)
        }
        before?.isFavorite = isFavorite
        return FavoriteOutcome(
            ref: ref, item: before, isFavorite: isFavorite, changed: isFavorite != wasFavorite,
            isPending: isFavorite && before == nil, pendingReason: pendingReason)
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
            try recordingRefresh(of: key.source) { try refreshPage(key, query: query, source: source, trustingCache: true) }
        case let .refreshItem(ref):
            let validators = try store.cachedItem(ref)?.validators ?? .none
            try recordingRefresh(of: ref.source) { try refreshItem(ref, source: try source(ref.source), validators: validators) }
        case .cleanup:
            _ = try cleanup(overrides: CleanupOverrides(), dryRun: false)
        case .fetchFavorites:
            // At most a batch a run. Due again in an hour once upstream
            // answered; in a minute when more are waiting, or when the
            // network failed, so the network coming back is soon noticed.
            // An id upstream does not have is left alone for a day.
            let now = clock.now
            let batch = try favoritesToFetch(limit: Self.favoritesFetchedPerRun)
            try store.setSetting(SettingKey.favoritesFetchDue, to: String(now.timeIntervalSince1970 + policy.listTTL))
            let outcome = try fetchFavorites(batch, progress: { _, _ in })
            try store.markFavoritesNotFound(outcome.notFound, at: now)
            if outcome.failure != nil || batch.count == Self.favoritesFetchedPerRun {
                try store.setSetting(
                    SettingKey.favoritesFetchDue,
                    to: String(now.timeIntervalSince1970 + Self.favoritesRetryAfterNetworkFailure))
            }
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

    /// Favourites not cached yet are fetched in the background when online,
    /// when the last attempt says (see `perform`).
    private func isFavoritesFetchDue() throws -> Bool {
        guard mode != .offline, try !favoritesToFetch(limit: 1).isEmpty else { return false }
        guard let text = try store.setting(SettingKey.favoritesFetchDue), let due = Double(text) else { return true }
        return clock.now.timeIntervalSince1970 >= due
    }

    private func favoritesToFetch(limit: Int) throws -> [ItemRef] {
        try store.favoritesToFetch(limit: limit, notFoundSince: clock.now.addingTimeInterval(-Self.notFoundRememberedFor))
    }

    static let favoritesRetryAfterNetworkFailure: TimeInterval = 60

    /// How many favourites not cached one background run fetches: an
    /// import of thousands made offline must not become a flood of requests.
    static let favoritesFetchedPerRun = 64

    /// How long an id upstream said it does not have is not asked for again.
    static let notFoundRememberedFor: TimeInterval = 24 * 60 * 60

    /// So many that each is fetched, kept and listed at a bounded cost;
    /// beyond it a favourite is refused rather than added.
    public static let largestFavoriteCount = 100_000

    /// Turns the store's refusal into the error a user reads.
    func keepingFavoritesBounded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FavoriteLimitReached {
            throw ComicsError.usage(
                "that would make \(error.wouldBe) favourites; comics keeps at most \(Self.largestFavoriteCount)",
                hint: "remove some with 'comics fav remove REF', or import fewer")
        }
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
        /// The queries `sync` mirrored, per source: max-items spares what they hold.
        public let mirroredQueries: [SourceName: [String]]
        /// Texts removed (or that would be): with their book, or past texts.max-bytes.
        public let textsRemoved: [TextInfo]
    }

    /// `only`: the sources to clean (`-s`); nil for every source.
    public func cleanup(overrides: CleanupOverrides, dryRun: Bool, only: Set<SourceName>? = nil) throws -> CleanupReport {
        var rules = try configuredCleanupRules()
        let sources = SourceName.allCases.filter { only?.contains($0) ?? true }
        for source in SourceName.allCases {
            if let maxAge = overrides.maxAge { rules[source].maxAge = maxAge }
            if let maxItems = overrides.maxItems { rules[source].maxItems = maxItems }
        }
        let now = clock.now
        // Measured before anything is removed: the deletions themselves
        // grow the WAL, and the size reported must be the one `info` showed.
        let bytesBefore = store.bytesOnDisk()
        let texts = try store.textInfos()
        // A book whose text was read within max-age is in use, as a favourite is.
        let beingRead = Set(texts.filter { text in
            text.readAt.map { now.timeIntervalSince($0) < rules[text.ref.source].maxAge } ?? false
        }.map(\.ref))
        let removed = try store.removeItems(dryRun: dryRun) { candidates in
            rules.selectForRemoval(from: candidates.filter { sources.contains($0.ref.source) && !beingRead.contains($0.ref) }, now: now)
        }
        let textsRemoved = sources.contains(.books) ? try textsToRemove(texts, withItems: Set(removed.map(\.ref))) : []
        if !dryRun { try store.removeTexts(textsRemoved.map(\.ref)) }
        var imagesRemoved = ImageCacheUsage()
        var compaction: Compaction?
        if !dryRun {
            try store.setSetting(SettingKey.lastCleanup, to: String(now.timeIntervalSince1970))
            for source in sources {
                try store.removePages(of: source, fetchedBefore: now.addingTimeInterval(-rules[source].maxAge))
            }
            imagesRemoved = try removeOrphanedImages()
            compaction = try compact().map { Compaction(bytesBefore: bytesBefore, bytesAfter: $0.bytesAfter) }
        }
        let details = dryRun ? try store.cachedItems(removed.map(\.ref)) : [:]
        return CleanupReport(
            rules: rules, removed: removed, wouldRemove: removed.compactMap { details[$0.ref] },
            favoritesKept: try store.favoriteCount(), imagesRemoved: imagesRemoved, compaction: compaction,
            mirroredQueries: Dictionary(uniqueKeysWithValues: try SourceName.allCases.map { ($0, try store.mirroredQueries(of: $0)) }),
            textsRemoved: textsRemoved)
    }

    /// The texts of removed books, then, while the rest pass texts.max-bytes,
    /// the least recently read (or fetched) that are no favourite's.
    private func textsToRemove(_ texts: [TextInfo], withItems removedItems: Set<ItemRef>) throws -> [TextInfo] {
        var doomed = texts.filter { removedItems.contains($0.ref) }
        let limit = Int(try configValue(.textsMaxBytes).value) ?? Int.max
        let favorites = Set(try store.favorites(source: .books).map(\.ref))
        var kept = texts.filter { !removedItems.contains($0.ref) }
        var total = kept.reduce(0) { $0 + $1.storedBytes }
        kept.sort { ($0.readAt ?? $0.fetchedAt) < ($1.readAt ?? $1.fetchedAt) }
        for text in kept where total > limit && !favorites.contains(text.ref) {
            doomed.append(text)
            total -= text.storedBytes
        }
        return doomed
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

    private func logDecision(_ decision: CacheAction, what: String, cachedAt: Date?) {
        guard let log else { return }
        let age = cachedAt.map { "cached \(RelativeAge.describe(clock.now.timeIntervalSince($0)))" }
        switch decision {
        case .serve: log("cache hit: \(what), \(age ?? "cached")\(mode == .offline ? " (--offline)" : "")")
        case .serveAndRefresh: log("cache hit, stale: \(what), \(age ?? "cached"); refreshing it in the background")
        case .fetch: log("cache miss: \(what)\(age.map { ", \($0)" } ?? ", not cached")\(mode == .refresh ? " (--refresh)" : ""); fetching it now")
        }
    }

    /// A network failure with nothing to show for it: when the cache holds
    /// anything of the source, say how to see it.
    private func withOfflineHint(_ error: ComicsError, source: SourceName) throws -> ComicsError {
        guard error.hint == nil, try !store.cachedIDs(of: source, atMost: nil, limit: 1).isEmpty else { return error }
        let command = source == .xkcd ? "comics --offline list" : "comics --offline -s books list"
        return ComicsError(error.kind, error.message, hint: "what is cached can be seen without the network: \(command)")
    }

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
    /// When favourites not cached yet are next tried in the background.
    public static let favoritesFetchDue = "favorites.fetch_due"
    /// The source and query of the last `list` or `more`.
    public static let lastListing = "listing.last"
    /// The last listing as it was when a bare number was last said not to be of it.
    public static let lastListingNoted = "listing.noted"
    /// The books query browse showed last, for its next run.
    public static let browseBooksQuery = "browse.books_query"
    /// The reader's words a minute, learned from page turns.
    public static let readingSpeed = "reader.words_per_minute"
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
