import ComicsKit
import Foundation
import TestSupport
import XCTest

/// A listing read by position from the cache, and filled from the
/// network only where the cache lacks it, over a real SQLite file and the
/// loopback server.
final class ListingWindowTests: XCTestCase {
    private var server: FixtureServer!
    private var directory: TemporaryDirectory!
    private var store: SQLiteCacheStore!

    override func setUpWithError() throws {
        server = try FixtureServer()
        directory = try TemporaryDirectory()
        store = try SQLiteCacheStore(path: directory.file("comics.db"), now: Date())
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func catalog(mode: NetworkMode = .cacheFirst) -> Catalog {
        var settings = HTTPSettings()
        settings.baseBackoff = 0.01
        let http = CurlHTTPClient(settings: settings)
        return Catalog(
            store: store,
            sources: [XKCDSource(baseURL: server.baseURL, http: http), GutendexSource(baseURL: server.baseURL, http: http)],
            mode: mode)
    }

    private func ids(_ slots: [ListingSlot]) -> [Int?] {
        slots.map { slot in
            switch slot {
            case let .item(item): item.ref.id
            case let .missing(id): id.map { -$0 }
            case .absent: nil
            }
        }
    }

    func testTheArchiveIsItsNumbersNewestFirstAndAnyRowIsReachedAtOnce() throws {
        let xkcd = ListingKey(source: .xkcd)
        let catalog = catalog()
        XCTAssertNil(try catalog.positionCount(of: xkcd), "nothing known before the first fill")
        XCTAssertEqual(try catalog.slots(of: xkcd, at: 0..<3), [])

        try catalog.fill(xkcd, positions: 0..<3)
        XCTAssertEqual(try catalog.positionCount(of: xkcd), 200, "the newest number")
        XCTAssertEqual(ids(try catalog.slots(of: xkcd, at: 0..<3)), [200, 199, 198])
        XCTAssertEqual(ids(try catalog.slots(of: xkcd, at: 197..<205)), [-3, -2, -1], "clamped to the archive, missing ones by number")

        let before = try server.requests().count
        try catalog.fill(xkcd, positions: 197..<200)
        XCTAssertEqual(try server.requests().count - before, 3, "only the three missing")
        XCTAssertEqual(ids(try catalog.slots(of: xkcd, at: 197..<200)), [3, 2, 1])
        try catalog.fill(xkcd, positions: 197..<200)
        XCTAssertEqual(try server.requests().count - before, 3, "nothing asked again")

        XCTAssertEqual(ids(try self.catalog(mode: .offline).slots(of: xkcd, at: 197..<200)), [3, 2, 1], "read from the cache alone")
    }

    /// Comic 404 is not upstream: the fill learns it once, the slot says
    /// so, and neither another fill nor `show` asks again; `r` does.
    func testANumberUpstreamLacksIsKeptAsAFactAndNotAskedAgain() throws {
        try server.control(.object([("latest", .int(405)), ("comics", .object([
            ("405", FixtureServer.comic(405, title: "Five")), ("403", FixtureServer.comic(403, title: "Three")),
        ]))]))
        let xkcd = ListingKey(source: .xkcd)
        let catalog = catalog()
        try catalog.fill(xkcd, positions: 0..<3)
        let slots = try catalog.slots(of: xkcd, at: 0..<3)
        XCTAssertEqual(ids(slots), [405, nil, 403])
        XCTAssertEqual(slots[1], .absent(id: 404, Absence(.notFound, "there is no xkcd comic 404")), "405 − 1 is 404, which upstream lacks")
        let asked = { try self.server.requests().filter { $0.contains("/404/") }.count }
        let learned = try asked()
        try catalog.fill(xkcd, positions: 0..<3)
        XCTAssertThrowsError(try catalog.show(.item(ItemRef(source: .xkcd, id: 404)))) { error in
            XCTAssertEqual((error as? ComicsError)?.kind, .notFound)
        }
        XCTAssertEqual(try asked(), learned, "known absent: not asked again")
        try catalog.fill(xkcd, positions: 0..<3, revalidate: true)
        XCTAssertGreaterThan(try asked(), learned, "a refresh asks again")
    }

    func testANewerComicCachedElsewhereRaisesTheCount() throws {
        let xkcd = ListingKey(source: .xkcd)
        try catalog().fill(xkcd, positions: 0..<1)
        try server.control(.object([("latest", .int(200))]))
        try server.control(.object([("comics", .object([("201", FixtureServer.comic(201, title: "New"))]))]))
        _ = try catalog().show(.item(ItemRef(source: .xkcd, id: 201)))
        XCTAssertEqual(try catalog().positionCount(of: xkcd), 201)
        XCTAssertEqual(ids(try catalog().slots(of: xkcd, at: 0..<2)), [201, 200])
    }

    func testABooksQueryIsItsResultSetPageByPage() throws {
        // 64 real books and 100 made up, least popular: six pages of 32.
        try server.control(.object([("books", .object((9001...9100).map { id in
            (String(id), JSONValue.object([
                ("id", .int(id)), ("title", .string("Book \(id)")), ("authors", .array([])), ("download_count", .int(0)),
            ]))
        }))]))
        let books = ListingKey(source: .books)
        let catalog = catalog()
        try catalog.fill(books, positions: 0..<5)
        XCTAssertEqual(try catalog.positionCount(of: books), 164, "Gutendex's count")
        let first = ids(try catalog.slots(of: books, at: 0..<32))
        XCTAssertEqual(first.count, 32)
        XCTAssertTrue(first.allSatisfy { ($0 ?? 0) > 0 }, "the first page is cached whole")

        XCTAssertEqual(ids(try catalog.slots(of: books, at: 130..<132)), [nil, nil], "page five is not known yet")
        try catalog.fill(books, positions: 130..<132)
        let fifth = ids(try catalog.slots(of: books, at: 128..<160))
        XCTAssertEqual(fifth, (9065...9096).map { $0 }, "the server's order")
        XCTAssertTrue(try server.requests().contains { $0.contains("page=5") }, "the fifth page asked for by number")
        XCTAssertFalse(try server.requests().contains { $0.contains("page=2") }, "not the pages between")
        XCTAssertEqual(ids(try catalog.slots(of: books, at: 160..<170)), [nil, nil, nil, nil], "the last page, four long, not fetched")
    }
}
