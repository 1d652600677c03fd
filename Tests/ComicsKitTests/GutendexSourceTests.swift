@testable import ComicsKit
import TestSupport
import XCTest

/// The books source over real HTTP to the loopback Gutendex, and the rules
/// its page links must pass.
final class GutendexSourceTests: XCTestCase {
    private var server: FixtureServer!

    override func setUpWithError() throws {
        server = try FixtureServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func source(_ baseURL: String? = nil) -> GutendexSource {
        var settings = HTTPSettings()
        settings.baseBackoff = 0.01
        return GutendexSource(baseURL: baseURL ?? server.baseURL, http: CurlHTTPClient(settings: settings))
    }

    private func page(_ fetch: PageFetch) throws -> FetchedPage {
        guard case let .page(page) = fetch else { throw FixtureError("expected a page, got \(fetch)") }
        return page
    }

    private func fetch(_ source: GutendexSource, at position: String, query: ListQuery = ListQuery()) throws -> FetchedPage {
        try page(source.fetchPage(at: position, query: query, validators: .none, isCached: { _ in [] }))
    }

    func testPagesFollowTheNextLinkToTheEnd() throws {
        let books = source()
        let first = try fetch(books, at: PageKey.firstPosition)
        XCTAssertEqual(first.itemIDs.count, 32)
        XCTAssertEqual(first.items.map(\.item.ref.id), first.itemIDs, "list results are full books")
        XCTAssertEqual(first.nextPosition, "\(server.baseURL)/books/?page=2")
        let second = try fetch(books, at: try XCTUnwrap(first.nextPosition))
        XCTAssertEqual(second.itemIDs.count, 32)
        XCTAssertEqual(second.itemIDs.first, 98)
        XCTAssertNil(second.nextPosition)
        XCTAssertEqual(try server.requests(), ["/books/", "/books/?page=2"])
    }

    func testAQueryTravelsAsGutendexParameters() throws {
        let query = ListQuery(search: "Shelley frankenstein", languages: ["en"], topic: "fiction", sort: .descending)
        let found = try fetch(source(), at: PageKey.firstPosition, query: query)
        XCTAssertEqual(found.itemIDs, [42324, 41445, 84])
        XCTAssertEqual(try server.requests(), ["/books/?languages=en&search=shelley%20frankenstein&sort=descending&topic=fiction"])
    }

    func testAPagePastTheEndIsEmptyAndEndsPaging() throws {
        let past = try fetch(source(), at: "\(server.baseURL)/books/?page=3")
        XCTAssertEqual(past.itemIDs, [])
        XCTAssertNil(past.nextPosition)
    }

    func testLinksOffTheConfiguredServerAreRefusedUnfetched() throws {
        let books = source()
        let origin = server.baseURL
        let foreign = [
            "http://evil.example/books/?page=2",
            "https://127.0.0.1:\(server.port)/books/?page=2",
            "http://127.0.0.1:\(server.port + 1)/books/?page=2",
            "http://user@127.0.0.1:\(server.port)/books/?page=2",
            "\(origin)/elsewhere/?page=2",
            "\(origin)/books/?page=1",
            "\(origin)/books/",
            "file:///etc/passwd",
            "not a url",
        ]
        for link in foreign {
            XCTAssertThrowsError(try fetch(books, at: link), link) { error in
                XCTAssertEqual((error as? ComicsError)?.kind, .network, link)
            }
        }
        XCTAssertEqual(try server.stats().total, 0)
    }

    func testNextLinksMustMoveOnePageForward() {
        let links = GutendexLinks(listURL: "https://gutendex.com/books/")
        let next = "https://gutendex.com/books/?page=3&search=x"
        XCTAssertEqual(links.nextPosition(next, after: 2, count: 100), next)
        XCTAssertNil(links.nextPosition(nil, after: 2, count: 100), "the end")
        XCTAssertNil(links.nextPosition("https://gutendex.com/books/?page=2", after: 2, count: 100), "the same page again")
        XCTAssertNil(links.nextPosition("https://gutendex.com/books/", after: 2, count: 100), "back to the first page")
        XCTAssertNil(links.nextPosition("https://gutendex.com/books/?page=9", after: 2, count: 100), "a jump")
        XCTAssertNil(links.nextPosition("https://gutendex.com/books/?page=3", after: 2, count: 2), "past the results")
        XCTAssertNil(links.nextPosition("https://gutendex.com/books/?page=x", after: 2, count: 100))
        XCTAssertEqual(links.firstPage(ListQuery()), "https://gutendex.com/books/")
        XCTAssertEqual(links.firstPage(ListQuery(limit: 5, search: "a b")), "https://gutendex.com/books/?search=a%20b")
    }

    func testOneBookIsAskedForAtItsCanonicalPath() throws {
        let answers = try source().fetchItems([(id: 1342, validators: .none)])
        guard case let .fetched(book)? = answers.first else { return XCTFail("\(answers)") }
        XCTAssertEqual(book.item.title, "Pride and Prejudice")
        XCTAssertEqual(try source().fetchItems([(id: 999_999, validators: .none)]), [.notFound])
        XCTAssertEqual(try server.requests(), ["/books/1342/", "/books/999999/"], "with the slash: no 301 round trip")
    }

    func testAMirrorBelowAPathKeepsItsPrefix() throws {
        _ = try source("\(server.baseURL)/mirror/").fetchItems([(id: 1342, validators: .none)])
        XCTAssertEqual(try server.requests(), ["/mirror/books/1342/"])
    }

    func testManyBooksAreRefreshedThirtyTwoToARequest() throws {
        let page1 = try GutendexBookDecoder.decodePage(try Fixtures.gutendex("books-list-page1.json")).books
        let page2 = try GutendexBookDecoder.decodePage(try Fixtures.gutendex("books-list-page2.json")).books
        let ids = (page1 + page2).map(\.ref.id) + [999_999]
        let answers = try source().fetchItems(ids.map { (id: $0, validators: .none) })
        XCTAssertEqual(answers.count, ids.count)
        for (id, answer) in zip(ids.dropLast(), answers) {
            guard case let .fetched(book) = answer else { return XCTFail("\(id): \(answer)") }
            XCTAssertEqual(book.item.ref.id, id)
        }
        XCTAssertEqual(answers.last, .notFound)
        let requests = try server.requests()
        XCTAssertEqual(requests.count, 3, "65 ids: 32 + 32 + 1")
        XCTAssertTrue(requests.allSatisfy { $0.hasPrefix("/books/?ids=") }, "\(requests)")
    }

    func testRateLimitingIsWaitedOutAndServerErrorsAreNetworkFailures() throws {
        try server.control(.object([("fault", .string("429")), ("count", .int(1))]))
        XCTAssertEqual(try fetch(source(), at: PageKey.firstPosition).itemIDs.count, 32)
        XCTAssertEqual(try server.stats().total, 2)

        try server.control(.object([("fault", .string("500")), ("count", .int(3))]))
        XCTAssertThrowsError(try fetch(source(), at: PageKey.firstPosition)) { error in
            XCTAssertEqual((error as? ComicsError)?.kind, .network)
        }
        try server.control(.object([("fault", .string("truncated")), ("count", .int(1))]))
        XCTAssertThrowsError(try fetch(source(), at: PageKey.firstPosition)) { error in
            XCTAssertEqual((error as? ComicsError)?.message.contains("cannot read"), true, "\(error)")
        }
    }

    func testAuthorsAndLinksReadAsText() throws {
        let books = source()
        let homer = Attribute("authors", .array([.object([("name", .string("Homer")), ("birth_year", .int(-750)), ("death_year", .int(-650))])]))
        XCTAssertEqual(books.displayText(of: homer, brief: false), "Homer (750 BC–650 BC)")
        let pair = Attribute("authors", .array([
            .object([("name", .string("Dumas, Alexandre")), ("birth_year", .int(1802)), ("death_year", .int(1870))]),
            .object([("name", .string("Ward, Grady")), ("birth_year", .int(1951)), ("death_year", .null)]),
            .object([("name", .string("Anonymous")), ("birth_year", .null), ("death_year", .null)]),
        ]))
        XCTAssertEqual(books.displayText(of: pair, brief: false), "Dumas, Alexandre (1802–1870); Ward, Grady (1951–); Anonymous")
        XCTAssertEqual(books.displayText(of: pair, brief: true), "Dumas, Alexandre et al.")
        let formats = Attribute("formats", .object([("text/plain; charset=us-ascii", .string("https://x/1.txt"))]))
        XCTAssertEqual(books.displayText(of: formats, brief: false), "text/plain; charset=us-ascii: https://x/1.txt")
        XCTAssertNil(books.displayText(of: Attribute("languages", .array([.string("en")])), brief: false))
    }
}
