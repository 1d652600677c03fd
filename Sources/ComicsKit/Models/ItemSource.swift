/// The outcome of asking upstream for one item.
public enum ItemFetch: Equatable, Sendable {
    case fetched(FetchedItem)
    /// The cached copy is still current (HTTP 304).
    case notModified(Validators)
    case notFound
    /// Upstream answered with a document that does not describe the item
    /// (`error` says why): a listing or a sync goes on without it.
    case unreadable(ComicsError)
}

/// The outcome of asking upstream for one page of a listing.
public enum PageFetch: Equatable, Sendable {
    case page(FetchedPage)
    /// The cached page is still current (HTTP 304).
    case notModified(Validators)
}

/// A page as upstream returned it: the item ids in order, the items that
/// had to be fetched for it, and where the next page starts.
public struct FetchedPage: Equatable, Sendable {
    public var itemIDs: [Int]
    public var items: [FetchedItem]
    public var nextPosition: String?
    public var validators: Validators
    /// How many items the whole query matches, when upstream says (Gutendex's `count`).
    public var total: Int?
    /// What the page should have held but upstream sent unreadable, one
    /// line each ("xkcd:199: …"): the rest of the page stands.
    public var skipped: [String] = []
    /// Numbers upstream had no item for, or none it could read, and why:
    /// facts the cache keeps, so they are not asked for again at once.
    public var absent: [Int: Absence] = [:]

    public init(itemIDs: [Int], items: [FetchedItem], nextPosition: String?, validators: Validators, total: Int? = nil) {
        self.itemIDs = itemIDs
        self.items = items
        self.nextPosition = nextPosition
        self.validators = validators
        self.total = total
    }
}

/// An upstream comics can browse. One conformance per source; everything
/// else (cache, favourites, cleanup, output) is shared.
public protocol ItemSource {
    var name: SourceName { get }
    /// How a person calls one item: "xkcd comic", "book".
    var itemNoun: String { get }
    /// The host users would recognise in messages ("xkcd.com").
    var hostDescription: String { get }
    /// Whether a listing page holds its items whole (Gutendex), so a page
    /// unchanged upstream (304) means its items are unchanged too.
    var pagesHoldItems: Bool { get }
    /// Whether `latest` and `random` mean something here: the items are an
    /// archive numbered 1 to the newest, and a page is the next numbers
    /// downwards, so one can be composed from cached items alone.
    var hasLatest: Bool { get }
    /// The attributes worth a column when items are listed in a table.
    var summaryAttributes: [String] { get }
    /// Every attribute key its items carry, in record order, so exports
    /// have the same columns whichever items they hold.
    var attributeKeys: [String] { get }
    /// The attribute holding the URL of the item's picture (xkcd's comic,
    /// a book's cover), if it has one.
    var imageAttribute: String? { get }
    /// Which picture addresses may be fetched; any other is refused unasked.
    var pictureOrigins: PictureOrigins { get }
    /// The human page of an item (`https://xkcd.com/353/`), known without fetching it.
    func pageURL(of id: Int) -> String
    /// Whether a listing's page size is the client's to choose (`ListQuery.limit`).
    var acceptsPageSize: Bool { get }
    /// Whether listings can be searched, filtered and sorted (`ListQuery.hasFilters`).
    var acceptsFilters: Bool { get }

    /// What identifies a page of this query in the cache.
    func pageQueryKey(_ query: ListQuery) -> String
    /// What `more` keeps its cursor under: queries that share it walk one archive.
    func cursorQueryKey(_ query: ListQuery) -> String

    /// Fetches the page at `position`, conditionally when validators are
    /// given; `isCached` says which ids need no request.
    func fetchPage(
        at position: String, query: ListQuery, validators: Validators, isCached: ([Int]) throws -> Set<Int>
    ) throws -> PageFetch

    /// Fetches items concurrently; each answer in the order asked.
    func fetchItems(_ requests: [(id: Int, validators: Validators)]) throws -> [ItemFetch]


    /// Plain text for people when the generic rendering of an attribute
    /// would not read well (a list of authors with their years); `brief`
    /// for a table cell. nil: render it generically.
    func displayText(of attribute: Attribute, brief: Bool) -> String?
}

extension ItemSource {
    public func displayText(of attribute: Attribute, brief: Bool) -> String? { nil }
}

/// A source whose pages are numbered, so that once the first page says how
/// many there are, the rest can be named and fetched at once (a sync of a
/// books query asks for them concurrently instead of link by link).
public protocol NumberedPages: ItemSource {
    /// The positions of the pages from the third through `lastPage`, named
    /// from the second page's position; nil when that position names no page.
    func positions(after second: String, through lastPage: Int) -> [String]?
    /// Fetches later pages concurrently, each handed on (with its index) as
    /// soon as it is in, so storing one overlaps the wait for the others.
    func fetchPages(
        at requests: [(position: String, validators: Validators)], query: ListQuery,
        eachAsItArrives: (Int, Result<PageFetch, ComicsError>) -> Void
    ) throws
}
