/// A listing as a screen shows it: positions from 0, each the place of
/// one item, read from the cache by position so that any row is reached at
/// once and only the rows in view are read. xkcd's listing is its archive,
/// newest first (position p is comic newest − p); a books listing is the
/// result set of one query in the server's order, 32 to a stored page.
public struct ListingKey: Hashable, Sendable {
    public let source: SourceName
    public let query: ListQuery

    public init(source: SourceName, query: ListQuery = ListQuery()) {
        self.source = source
        self.query = query
    }
}

/// What one position of a listing holds, as far as the cache knows.
public enum ListingSlot: Equatable, Sendable {
    case item(CachedItem)
    /// A known place whose item is not cached (xkcd: its number).
    case missing(id: Int?)
    /// A number upstream had no item for (a 404), or none it could read,
    /// when last asked, and why.
    case absent(id: Int, Absence)
}

extension Catalog {
    /// The books query a screen showed last (nil: none, or the whole catalogue).
    public func rememberedBooksQuery() throws -> ListQuery? {
        guard let key = try store.setting(SettingKey.browseBooksQuery), !key.isEmpty else { return nil }
        return ListQuery(key: key)
    }

    /// Written only when it changes.
    public func rememberBooksQuery(_ query: ListQuery) throws {
        guard try store.setting(SettingKey.browseBooksQuery) != query.key else { return }
        try store.setSetting(SettingKey.browseBooksQuery, to: query.key)
    }

    /// How many positions the listing has as the cache knows it: xkcd's
    /// newest known number; a query's count as its first stored page said.
    /// nil when nothing is known yet (the first fill finds out).
    public func positionCount(of listing: ListingKey) throws -> Int? {
        let source = try source(listing.source)
        if source.hasLatest { return try newestKnownNumber(of: listing.source) }
        return try store.page(firstPageKey(of: listing, source: source))?.total
    }

    /// The slots at `positions`, read from the cache alone.
    public func slots(of listing: ListingKey, at positions: Range<Int>) throws -> [ListingSlot] {
        let source = try source(listing.source)
        guard let count = try positionCount(of: listing) else { return [] }
        let wanted = positions.clamped(to: 0..<max(0, count))
        let ids: [Int?]
        if source.hasLatest {
            ids = wanted.map { count - $0 }
        } else {
            let perPage = try positionsPerPage(of: listing, source: source)
            var byPage: [Int: [Int]] = [:]
            for page in Set(wanted.map { $0 / perPage }) {
                byPage[page] = try storedPage(page, of: listing, source: source)?.itemIDs
            }
            ids = wanted.map { position in
                guard let page = byPage[position / perPage], page.indices.contains(position % perPage) else { return nil }
                return page[position % perPage]
            }
        }
        let refs = ids.compactMap { $0 }.map { ItemRef(source: listing.source, id: $0) }
        let found = try store.cachedItems(refs)
        let absent = try store.absent(refs.filter { found[$0] == nil }, since: clock.now.addingTimeInterval(-policy.detailTTL))
        return ids.map { id in
            guard let id else { return .missing(id: nil) }
            let ref = ItemRef(source: listing.source, id: id)
            if let item = found[ref] { return .item(item) }
            return absent[ref].map { .absent(id: id, $0) } ?? .missing(id: id)
        }
    }

    /// Fetches what the cache lacks for `positions` (or, with `revalidate`,
    /// asks again for all of it, conditionally) and stores it; the screen
    /// reads it back from the database. The newest number, or the query's
    /// first page, comes first when it is unknown, or revalidated with
    /// the positions from 0.
    public func fill(_ listing: ListingKey, positions: Range<Int>, revalidate: Bool = false) throws {
        let source = try source(listing.source)
        let first = try firstPageKey(of: listing, source: source)
        let query = try listQuery(listing, source: source)
        let isUnknown = try positionCount(of: listing) == nil
        if isUnknown || (revalidate && positions.lowerBound == 0) {
            try recordingRefresh(of: listing.source) {
                _ = try refreshPage(first, query: query, source: source, trustingCache: !revalidate)
            }
        }
        if source.hasLatest {
            let slots = try self.slots(of: listing, at: positions)
            let wanted = slots.compactMap { slot -> (id: Int, validators: Validators)? in
                switch slot {
                case let .missing(id?): (id, .none)
                case let .absent(id, _) where revalidate: (id, .none)
                case let .item(item) where revalidate: (item.ref.id, item.validators)
                default: nil
                }
            }
            guard !wanted.isEmpty else { return }
            try recordingRefresh(of: listing.source) {
                let answers = try source.fetchItems(wanted)
                var fetched: [FetchedItem] = []
                var revalidated: [ItemRef: Validators] = [:]
                var absent: [ItemRef: Absence] = [:]
                for (request, answer) in zip(wanted, answers) {
                    let ref = ItemRef(source: listing.source, id: request.id)
                    switch answer {
                    case let .fetched(item): fetched.append(item)
                    case let .notModified(validators): revalidated[ref] = validators
                    case .notFound: absent[ref] = Absence(.notFound, "there is no \(source.itemNoun) \(request.id)")
                    case let .unreadable(error): absent[ref] = Absence(.unreadable, error.message)
                    }
                }
                try store.markRevalidated(revalidated, at: clock.now)
                try store.save(fetched, at: clock.now)
                try store.recordAbsent(absent, at: clock.now)
            }
            return
        }
        let perPage = try positionsPerPage(of: listing, source: source)
        for page in Set(positions.map { $0 / perPage }).sorted() where page > 0 || !revalidate {
            let held = try slots(of: listing, at: page * perPage..<(page + 1) * perPage)
            let isWhole = !held.isEmpty && !held.contains { if case .missing = $0 { true } else { false } }
            guard revalidate || !isWhole, let key = try pageKey(page, of: listing, source: source) else { continue }
            try recordingRefresh(of: listing.source) {
                _ = try refreshPage(key, query: query, source: source, trustingCache: false)
            }
        }
    }

    /// Fetches the newest number (xkcd) or the query's first page again when
    /// the stored one is past the list time to live, as `list` would.
    public func refreshNewestIfStale(_ listing: ListingKey) throws {
        let source = try source(listing.source)
        let first = try firstPageKey(of: listing, source: source)
        if let fetchedAt = try store.page(first)?.fetchedAt, clock.now.timeIntervalSince(fetchedAt) < policy.listTTL { return }
        try recordingRefresh(of: listing.source) {
            _ = try refreshPage(first, query: try listQuery(listing, source: source), source: source, trustingCache: true)
        }
    }

    /// The newest comic number the cache knows: its newest comic, or the
    /// stored newest page's first number, whichever is higher.
    private func newestKnownNumber(of sourceName: SourceName) throws -> Int? {
        let source = try source(sourceName)
        let listed = try store.page(try firstPageKey(of: ListingKey(source: sourceName), source: source))?.itemIDs.first
        let cached = try store.cachedIDs(of: sourceName, atMost: nil, limit: 1).first
        return [listed, cached].compactMap { $0 }.max()
    }

    /// A query's pages hold what the server sends a page: as many as its first.
    private func positionsPerPage(of listing: ListingKey, source: ItemSource) throws -> Int {
        max(1, try store.page(try firstPageKey(of: listing, source: source))?.itemIDs.count ?? 1)
    }

    private func listQuery(_ listing: ListingKey, source: ItemSource) throws -> ListQuery {
        try withConfiguredPageSize(listing.query, for: source)
    }

    private func firstPageKey(of listing: ListingKey, source: ItemSource) throws -> PageKey {
        PageKey(
            source: listing.source, query: source.pageQueryKey(try listQuery(listing, source: source)),
            position: PageKey.firstPosition)
    }

    /// Where stored page `index` (from 0) of a query is kept: the first
    /// page's key, the second's from the first's `next`, later ones named
    /// from the second's (Gutendex numbers its pages).
    private func pageKey(_ index: Int, of listing: ListingKey, source: ItemSource) throws -> PageKey? {
        let first = try firstPageKey(of: listing, source: source)
        guard index > 0 else { return first }
        guard let second = try store.page(first)?.nextPosition else { return nil }
        if index == 1 { return PageKey(source: first.source, query: first.query, position: second) }
        guard let numbered = source as? NumberedPages,
              let position = numbered.positions(after: second, through: index + 1)?.last
        else { return nil }
        return PageKey(source: first.source, query: first.query, position: position)
    }

    private func storedPage(_ index: Int, of listing: ListingKey, source: ItemSource) throws -> StoredPage? {
        try pageKey(index, of: listing, source: source).flatMap { try store.page($0) }
    }
}
