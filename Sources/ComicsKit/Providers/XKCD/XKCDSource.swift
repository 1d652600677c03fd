/// xkcd: `BASE/info.0.json` names the newest comic, `BASE/N/info.0.json`
/// each one. A page is the next `limit` numbers downwards, one request per
/// comic not yet cached, sent together; numbers the server has no comic for
/// (404 is famously missing) are skipped.
public struct XKCDSource: ItemSource {
    public let name = SourceName.xkcd
    public let itemNoun = "xkcd comic"
    public let pagesHoldItems = false
    public let hasLatest = true
    public let summaryAttributes = ["date"]
    public let hostDescription: String
    public let pictureOrigins: PictureOrigins

    private let baseURL: String
    private let http: HTTPClient
    private var upstream: Upstream { Upstream(host: hostDescription) }

    /// `baseURL` is `https://xkcd.com` or a mirror with the same layout.
    public init(baseURL: String, http: HTTPClient) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
        hostDescription = URLOrigin(baseURL)?.host ?? baseURL
        pictureOrigins = PictureOrigins(configuredBase: baseURL, hosts: ["imgs.xkcd.com"])
    }

    public let imageAttribute: String? = "image_url"
    public let acceptsPageSize = true
    public let acceptsFilters = false
    public let attributeKeys = ["date", "alt", "transcript", "image_url", "link", "interactive"]

    public func pageURL(of id: Int) -> String { XKCDComicDecoder.pageURL(of: id) }

    public func pageQueryKey(_ query: ListQuery) -> String { ListQuery(limit: query.pageSize).key }

    /// Comic numbers mean the same whatever the page size, so every page
    /// size walks one archive with one cursor.
    public func cursorQueryKey(_ query: ListQuery) -> String { "" }

    private func url(for id: Int?) -> String {
        id.map { "\(baseURL)/\($0)/info.0.json" } ?? "\(baseURL)/info.0.json"
    }

    /// An answer is stored only as the comic that was asked for: a reply for
    /// comic 7 that says it is 1007 is a malformed document.
    public func fetchItems(_ requests: [(id: Int, validators: Validators)]) throws -> [ItemFetch] {
        let responses = http.get(requests.map { HTTPRequest.conditional(url: url(for: $0.id), validators: $0.validators) })
        return try zip(requests, responses).map { request, response in
            let fetch = try itemFetch(response)
            if case let .fetched(found) = fetch, found.item.ref.id != request.id {
                return .unreadable(upstream.malformed("\(url(for: request.id)) describes comic \(found.item.ref.id)"))
            }
            return fetch
        }
    }

    private func itemFetch(_ result: Result<HTTPResponse, HTTPError>) throws -> ItemFetch {
        try upstream.itemFetch(result, decode: XKCDComicDecoder.decode)
    }

    public func fetchPage(
        at position: String, query: ListQuery, validators: Validators, isCached: ([Int]) throws -> Set<Int>
    ) throws -> PageFetch {
        var fetched: [FetchedItem] = []
        var skipped: [String] = []
        var lacking: [Int: Absence] = [:]
        var pageValidators = Validators.none
        let start: Int
        if position == PageKey.firstPosition {
            let latest = http.get(HTTPRequest.conditional(url: url(for: nil), validators: validators))
            switch try itemFetch(latest) {
            case let .fetched(item):
                fetched.append(item)
                pageValidators = item.validators
                start = item.item.ref.id
            case let .notModified(validators):
                return .notModified(validators)
            case .notFound:
                throw upstream.malformed("\(url(for: nil)) answered 404")
            case let .unreadable(error):
                throw error
            }
        } else {
            guard let number = Int(position), number >= 1 else {
                throw ComicsError.unexpected("bad xkcd page position \(MessageText.quoted(position))")
            }
            start = number
        }

        var ids: [Int] = []
        var next = start
        while ids.count < query.pageSize && next >= 1 {
            let candidates = Array(stride(from: next, to: max(0, next - (query.pageSize - ids.count)), by: -1))
            next = (candidates.last ?? 1) - 1
            let known = try isCached(candidates).union(fetched.map(\.item.ref.id))
            let missing = candidates.filter { !known.contains($0) }
            let answers = try fetchItems(missing.map { (id: $0, validators: .none) })
            var absent = Set<Int>()
            var unreadable: ComicsError?
            for (id, answer) in zip(missing, answers) {
                switch answer {
                case let .fetched(item): fetched.append(item)
                case .notFound:
                    absent.insert(id)
                    lacking[id] = Absence(.notFound, "there is no \(itemNoun) \(id)")
                case .notModified: absent.insert(id)
                case let .unreadable(error):
                    absent.insert(id)
                    lacking[id] = Absence(.unreadable, error.message)
                    skipped.append("\(ItemRef(source: name, id: id)): \(error.message)")
                    unreadable = unreadable ?? error
                }
            }
            let found = candidates.filter { !absent.contains($0) }
            // A whole round unreadable is a broken upstream, not a page of
            // gaps: walking on would ask for the rest of the archive.
            if found.isEmpty, let unreadable { throw unreadable }
            ids += found
        }
        var page = FetchedPage(
            itemIDs: ids, items: fetched, nextPosition: next >= 1 ? String(next) : nil, validators: pageValidators)
        page.skipped = skipped
        page.absent = lacking
        return .page(page)
    }
}
