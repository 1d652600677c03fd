/// Project Gutenberg through Gutendex: `BASE/books/?search=...` lists 32
/// full book objects a page, with an absolute `next` link; `BASE/books/ID/`
/// is one book; `BASE/books/?ids=1,2,3` is several in one request. Each
/// query (search, languages, topic, sort) pages with its own cursor, whose
/// positions are the `next` links themselves, checked before they are followed.
public struct GutendexSource: NumberedPages {
    /// Books per page, as the server sends them (and the most `ids` one request may name).
    public static let pageSize = 32

    public let name = SourceName.books
    public let itemNoun = "book"
    public let pagesHoldItems = true
    public let hasLatest = false
    public let summaryAttributes = ["authors"]
    public let attributeKeys = [
        "authors", "translators", "editors", "languages", "subjects", "bookshelves", "summaries", "media_type",
        "copyright", "download_count", "cover_url", "formats",
    ]
    public let imageAttribute: String? = "cover_url"
    public let acceptsPageSize = false
    public let acceptsFilters = true
    public let hostDescription: String
    public let pictureOrigins: PictureOrigins

    private let baseURL: String
    private let links: GutendexLinks
    private let http: HTTPClient
    private var upstream: Upstream { Upstream(host: hostDescription) }

    public func pageURL(of id: Int) -> String { GutendexBookDecoder.pageURL(of: id) }

    /// `baseURL` is `https://gutendex.com` or a server with the same API.
    public init(baseURL: String, http: HTTPClient) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
        links = GutendexLinks(listURL: self.baseURL + "/books/")
        hostDescription = URLOrigin(baseURL)?.host ?? baseURL
        pictureOrigins = PictureOrigins(
            configuredBase: baseURL, hosts: ["www.gutenberg.org", "gutenberg.org"], pathPrefix: "/cache/epub/")
    }

    /// The page size is the server's, so only the filters name a query.
    public func pageQueryKey(_ query: ListQuery) -> String { query.filtersOnly.key }

    /// Every query walks its own results, so each keeps its own cursor.
    public func cursorQueryKey(_ query: ListQuery) -> String { query.filtersOnly.key }

    public func fetchPage(
        at position: String, query: ListQuery, validators: Validators, isCached: ([Int]) throws -> Set<Int>
    ) throws -> PageFetch {
        let (url, pageNumber) = try address(of: position, query: query)
        let response = try http.get(HTTPRequest.conditional(url: url, validators: validators)).mapError(upstream.failure).get()
        return try page(from: response, number: pageNumber)
    }

    /// Later pages of a query at once, each conditionally when validators
    /// are given, each read as soon as it is in.
    public func fetchPages(
        at requests: [(position: String, validators: Validators)], query: ListQuery,
        eachAsItArrives: (Int, Result<PageFetch, ComicsError>) -> Void
    ) throws {
        let addresses = try requests.map { try address(of: $0.position, query: query) }
        _ = http.get(zip(addresses, requests).map { HTTPRequest.conditional(url: $0.0.url, validators: $0.1.validators) }) { index, response in
            eachAsItArrives(index, Result { () throws(ComicsError) -> PageFetch in
                try page(from: response.mapError(upstream.failure).get(), number: addresses[index].pageNumber)
            })
        }
    }

    /// Gutendex numbers its pages, so every page after the second can be
    /// named from the second's link, the same link with another `page`.
    public func positions(after second: String, through lastPage: Int) -> [String]? {
        guard lastPage >= 3 else { return [] }
        return links.links(like: second, pages: 3...lastPage)
    }

    private func address(of position: String, query: ListQuery) throws -> (url: String, pageNumber: Int) {
        position == PageKey.firstPosition ? (links.firstPage(query), 1) : (position, try links.pageNumber(ofLink: position))
    }

    private func page(from response: HTTPResponse, number pageNumber: Int) throws(ComicsError) -> PageFetch {
        switch response.status {
        case 200:
            let page: GutendexBookDecoder.Page
            do {
                page = try GutendexBookDecoder.decodePage(response.body)
            } catch {
                throw upstream.malformed(error.reason)
            }
            var fetched = FetchedPage(
                itemIDs: page.books.map(\.ref.id),
                items: page.books.map { FetchedItem(item: $0, validators: .none) },
                nextPosition: links.nextPosition(page.next, after: pageNumber, count: page.count),
                validators: response.validators, total: page.count)
            fetched.skipped = page.unreadable.map { "a book \(hostDescription) sent: \($0)" }
            return .page(fetched)
        case 304:
            return .notModified(response.validators)
        case 404 where pageNumber > 1:
            // "Invalid page.": the results shrank since the link was made.
            return .page(FetchedPage(itemIDs: [], items: [], nextPosition: nil, validators: .none))
        default:
            throw upstream.unexpectedStatus(response.status)
        }
    }

    /// One book is asked for at its canonical `/books/ID/` (conditionally
    /// when cached); several go `pageSize` at a time through `?ids=`.
    public func fetchItems(_ requests: [(id: Int, validators: Validators)]) throws -> [ItemFetch] {
        guard requests.count > 1 else {
            return try requests.map { request in
                let url = "\(baseURL)/books/\(request.id)/"
                let fetch = try upstream.itemFetch(
                    http.get(HTTPRequest.conditional(url: url, validators: request.validators)),
                    decode: GutendexBookDecoder.decodeBook)
                if case let .fetched(found) = fetch, found.item.ref.id != request.id {
                    return .unreadable(upstream.malformed("\(url) describes book \(found.item.ref.id)"))
                }
                return fetch
            }
        }
        let batches = stride(from: 0, to: requests.count, by: Self.pageSize).map {
            Array(requests[$0..<min($0 + Self.pageSize, requests.count)])
        }
        let responses = http.get(batches.map { batch in
            HTTPRequest(url: "\(baseURL)/books/?ids=" + batch.map { String($0.id) }.joined(separator: ","))
        })
        var found: [Int: Item] = [:]
        for result in responses {
            let response = try result.mapError(upstream.failure).get()
            guard response.status == 200 else { throw upstream.unexpectedStatus(response.status) }
            do {
                for book in try GutendexBookDecoder.decodePage(response.body).books { found[book.ref.id] = book }
            } catch {
                throw upstream.malformed(error.reason)
            }
        }
        return requests.map { request in
            found[request.id].map { .fetched(FetchedItem(item: $0, validators: .none)) } ?? .notFound
        }
    }

    public func displayText(of attribute: Attribute, brief: Bool) -> String? {
        BookText.describe(attribute, brief: brief)
    }
}
