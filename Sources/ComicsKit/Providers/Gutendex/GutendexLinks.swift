/// Gutendex's page links. The first page of a query is built here; every
/// later one is a `next` link the server sent, kept as the cursor, and
/// followed only if it stays on the configured server and moves exactly
/// one page forward, so a hostile or confused server can neither send
/// comics elsewhere nor keep it paging in circles.
struct GutendexLinks {
    /// `BASE/books/`.
    let listURL: String

    private var listAddress: WebAddress? { WebAddress(listURL) }

    func firstPage(_ query: ListQuery) -> String {
        // A query's key is Gutendex's own parameters, already encoded for a URL.
        let parameters = query.filtersOnly.key
        return parameters.isEmpty ? listURL : listURL + "?" + parameters
    }

    /// The page a stored link asks for, once it has passed the checks:
    /// the configured scheme, host, port and path, no credentials, a page number.
    func pageNumber(ofLink link: String) throws -> Int {
        guard let address = WebAddress(link), let origin = URLOrigin(link),
              let expected = listAddress, origin == URLOrigin(listURL),
              address.path == expected.path, !address.hasCredentials
        else {
            let configured = URLOrigin(listURL).map { "\($0.scheme)://\($0.host):\($0.port)" } ?? listURL
            throw ComicsError(
                .network, "refusing Gutendex's link to the next page, \(link): it is not on \(configured)",
                hint: "'comics --source books list' starts the query again")
        }
        guard let page = Self.page(in: address), page >= 2 else {
            throw ComicsError(
                .network, "refusing Gutendex's link to the next page, \(link): it names no later page",
                hint: "'comics --source books list' starts the query again")
        }
        return page
    }

    /// The `next` link to keep as the cursor, or nil to stop paging: at the
    /// end, and when the link does not lead to the page after `page` (a
    /// loop back to a page already shown, a jump, or a page number past
    /// the number of results).
    func nextPosition(_ next: String?, after page: Int, count: Int?) -> String? {
        guard let next, let address = WebAddress(next), let number = Self.page(in: address),
              number == page + 1, count.map({ number <= $0 }) ?? true
        else { return nil }
        return next
    }

    /// The link with each of `pages` as its page number, in order; nil when
    /// it names no page to replace.
    func links(like link: String, pages: ClosedRange<Int>) -> [String]? {
        guard let address = WebAddress(link), address.queryItems.contains(where: { $0.name == "page" }) else { return nil }
        return pages.compactMap { address.replacingLastQueryValue(of: "page", with: String($0))?.text }
    }

    private static func page(in address: WebAddress) -> Int? {
        address.queryItems.last { $0.name == "page" }?.value.flatMap { Int($0) }
    }
}
