import struct FoundationEssentials.Date

/// Names one page of a listing: the source, the query it belongs to (a
/// canonical string such as `limit=10`) and where in that listing it starts
/// (`""` for the newest page; later positions are source-defined tokens).
public struct PageKey: Hashable, Sendable {
    public var source: SourceName
    public var query: String
    public var position: String

    public init(source: SourceName, query: String, position: String) {
        self.source = source
        self.query = query
        self.position = position
    }

    public static let firstPosition = ""

    public var isFirst: Bool { position == Self.firstPosition }
}

/// A page as the cache remembers it: which items, in which order, and where
/// the next page starts (nil at the end of the archive).
public struct StoredPage: Equatable, Sendable {
    public var key: PageKey
    public var itemIDs: [Int]
    public var nextPosition: String?
    public var fetchedAt: Date
    public var validators: Validators
    /// How many items the whole query matches, when upstream says.
    public var total: Int?

    public init(key: PageKey, itemIDs: [Int], nextPosition: String?, fetchedAt: Date, validators: Validators, total: Int? = nil) {
        self.key = key
        self.itemIDs = itemIDs
        self.nextPosition = nextPosition
        self.fetchedAt = fetchedAt
        self.validators = validators
        self.total = total
    }
}

/// Where `more` continues a listing, and the page size of the listing it
/// follows (nil: not known), so `list -n 50` is followed by pages of 50.
/// Where the server decides a page's size (books), the page size is the
/// rows a command shows of it, and `within` a page partly shown.
public enum PageCursor: Equatable, Sendable {
    case next(position: String, pageSize: Int? = nil)
    /// The page at `position` was shown up to its row `shown`.
    case within(position: String, shown: Int, pageSize: Int?)
    case endOfArchive
}

/// The favourite flag change a user asked for.
public enum FavoriteChange: Sendable {
    case add, remove, toggle
}

/// The cache as the use cases need it. The SQLite store implements it; the
/// domain never sees SQL.
public protocol CacheStore: TextStore {
    /// Changes with every commit to the database, by any connection or
    /// process or this connection itself: how a screen learns, without
    /// reading everything again, that a sync or another `comics` wrote.
    func databaseVersion() throws -> DatabaseVersion
    func cachedItems(_ refs: [ItemRef]) throws -> [ItemRef: CachedItem]
    /// Records that upstream has no such items, or none it could read,
    /// and why, as of `date`.
    func recordAbsent(_ absences: [ItemRef: Absence], at date: Date) throws
    /// Which of `refs` upstream lacked at `date` or later, and why.
    func absent(_ refs: [ItemRef], since date: Date) throws -> [ItemRef: Absence]
    /// Inserts or replaces items, keeping favourites; one transaction.
    func save(_ items: [FetchedItem], at date: Date) throws
    /// Renews items upstream said have not changed (304); one transaction.
    /// Records that these items were shown, listed or found now.
    func markUsed(_ refs: [ItemRef], at date: Date) throws
    func markRevalidated(_ revalidated: [ItemRef: Validators], at date: Date) throws
    func page(_ key: PageKey) throws -> StoredPage?
    /// Stores a page and the items it brought, and reads back every item
    /// the page names, in one transaction, so a concurrent cleanup cannot
    /// come between. nil when one is missing (a 304 for a page whose item
    /// was removed since).
    func save(_ page: StoredPage, items: [FetchedItem]) throws -> [CachedItem]?
    /// Stores several pages and their items at once (a sync's batch).
    func save(pages: [(page: StoredPage, items: [FetchedItem])]) throws
    func cursor(source: SourceName, query: String) throws -> PageCursor?
    func setCursor(_ cursor: PageCursor, source: SourceName, query: String, at date: Date) throws
    /// Cached ids of a source, highest first, none above `atMost`: what a
    /// page of a numbered archive can be composed of without the network.
    func cachedIDs(of source: SourceName, atMost highest: Int?, limit: Int) throws -> [Int]
    /// One cached id picked uniformly, or nil when none is cached.
    func randomCachedID(of source: SourceName) throws -> Int?
    /// When a listing's first page was last fetched (or revalidated):
    /// how current the cache's idea of the newest item is.
    func lastListingFetch(of source: SourceName) throws -> Date?
    /// Records that `sync` mirrored a query: cleanup spares what its pages hold.
    func addMirror(source: SourceName, query: String, at date: Date) throws
    /// Forgets every mirrored query of a source.
    func removeMirrors(of source: SourceName) throws
    /// The mirrored queries of a source, as their canonical query strings.
    func mirroredQueries(of source: SourceName) throws -> [String]
    /// Applies the change and returns whether the item is now a favourite;
    /// throws `FavoriteLimitReached` (changing nothing) rather than keep
    /// more than `limit`.
    func changeFavorite(_ ref: ItemRef, _ change: FavoriteChange, at date: Date, keepingAtMost limit: Int) throws -> Bool
    func isFavorite(_ ref: ItemRef) throws -> Bool
    func favorites(source: SourceName?) throws -> [CachedItem]
    /// Marks many at once, in one transaction; returns those that were not
    /// favourites yet. Throws `FavoriteLimitReached`, marking none, rather
    /// than keep more than `limit`.
    func addFavorites(_ refs: [ItemRef], at date: Date, keepingAtMost limit: Int) throws -> [ItemRef]
    func removeFavorites(_ refs: [ItemRef]) throws
    /// Favourites whose item is not in the cache, such as ones imported offline.
    func favoritesNotCached(source: SourceName?) throws -> [ItemRef]
    /// At most `limit` favourites not cached, leaving out those upstream
    /// answered "not found" for at or after `notFoundSince`.
    func favoritesToFetch(limit: Int, notFoundSince: Date) throws -> [ItemRef]
    /// Remembers that upstream has no such item, so it is not asked again at once.
    func markFavoritesNotFound(_ refs: [ItemRef], at date: Date) throws
    func favoriteCount() throws -> Int
    /// Forgets listing pages fetched before `date`: every search query
    /// leaves some, and a later request would fetch them again anyway.
    /// `more` cursors stay: they are where a person left off.
    func removePages(of source: SourceName, fetchedBefore date: Date) throws
    /// Every text value any cached item has under one of `keys`.
    func attributeStrings(forKeys keys: [String]) throws -> Set<String>
    /// In one transaction: hands every non-favourite to `select`, removes
    /// what it returns unless `dryRun`, and returns that.
    func removeItems(
        dryRun: Bool, select: ([CleanupRules.Candidate]) -> [CleanupRules.Candidate]
    ) throws -> [CleanupRules.Candidate]
    /// Items matching a full-text query, best first, each with its title
    /// where the matched words are wrapped in `SearchMatch` markers.
    /// The total counts every match (it equals the matches' count unless
    /// `limit` cut them short).
    func search(_ query: String, source: SourceName?, limit: Int) throws -> (matches: [SearchMatch], total: Int)
    func statistics() throws -> CacheStatistics
    /// The problems a quick consistency check finds; empty when all is well.
    func integrityProblems() throws -> [String]
    /// Gives the space of removed rows back to the file system.
    func compact() throws -> Compaction
    /// The file and its WAL, as `info` reports them.
    func bytesOnDisk() -> Int
    func setting(_ key: String) throws -> String?
    func setSetting(_ key: String, to value: String) throws
    func removeSetting(_ key: String) throws
}

extension CacheStore {
    public func cachedItem(_ ref: ItemRef) throws -> CachedItem? {
        try cachedItems([ref])[ref]
    }
}

/// Marking these favourites would keep more than the store was allowed.
public struct FavoriteLimitReached: Error {
    /// How many favourites there would have been.
    public let wouldBe: Int
}
