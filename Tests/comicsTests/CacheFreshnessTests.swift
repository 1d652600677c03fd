import ComicsKit
import Foundation
import TestSupport
import XCTest

/// What is cached is kept fresh at every seam: a refreshed page's stale
/// items, a books sync run again, the mirror of one query.
final class CacheFreshnessTests: EndToEndTestCase {
    private func records(_ result: RunResult, line: UInt = #line) throws -> [JSONValue] {
        XCTAssertEqual(result.status, 0, "\(result)", line: line)
        return try result.stdoutLines.map { try JSONValue.parse($0) }
    }

    func testRefreshingAPageRevalidatesItsStaleItems() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let before = try server.requests().count
        let refreshed = try records(try comics.run(["list", "--refresh", "-f", "ndjson"], clockOffset: "+2d"))
        XCTAssertEqual(refreshed.count, 10)
        XCTAssertTrue(refreshed.allSatisfy { $0["stale"] == .bool(false) }, "\(refreshed.map { $0["stale"] })")
        let asked = try server.requests().dropFirst(before)
        XCTAssertEqual(asked.count, 11)
        XCTAssertEqual(Set(asked), Set(["/info.0.json"] + (191...200).map { "/\($0)/info.0.json" }), "each once, conditionally")

        // In the background: the stale page is served, then it and its items are renewed.
        let served = try records(try comics.run(["list", "-f", "ndjson"], clockOffset: "+4d"))
        XCTAssertTrue(served.allSatisfy { $0["stale"] == .bool(true) })
        XCTAssertTrue(comics.waitForBackgroundWork())
        let later = try records(try comics.run(["--offline", "list", "-f", "ndjson"], clockOffset: "+4d"))
        XCTAssertTrue(later.allSatisfy { $0["stale"] == .bool(false) }, "\(later.map { $0["stale"] })")
    }

    func testAnUnchangedBooksPageRenewsTheBooksItHolds() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        let refreshed = try records(try comics.run(["-s", "books", "list", "--refresh", "-f", "ndjson"], clockOffset: "+2d"))
        XCTAssertEqual(refreshed.count, 32)
        XCTAssertTrue(refreshed.allSatisfy { $0["stale"] == .bool(false) })
        XCTAssertFalse(try server.requests().contains { $0.hasPrefix("/books/") && $0.dropFirst(7).first?.isNumber == true },
                       "no book asked for one by one")
    }
}

/// A books sync mirrors one query: run again it asks for nothing fresh,
/// killed it resumes, and cleanup spares that query's books and no others.
final class BooksMirrorTests: EndToEndTestCase {
    private func bookIDs(_ sql: String = "SELECT id FROM items WHERE source = 'books'") throws -> Set<Int> {
        Set(try DatabaseProbe(path: comics.databasePath).rows(sql).compactMap { Int($0[0]) })
    }

    func testASecondSyncAsksForNothingAndAKilledOneResumes() throws {
        let first = try comics.run(["-s", "books", "sync", "--language", "en"])
        XCTAssertTrue(first.stdout.hasPrefix("synced books: fetched 64, 0 already fresh"), "\(first)")
        let asked = try server.requests().count
        let second = try comics.run(["-s", "books", "sync", "--language", "en"])
        XCTAssertTrue(second.stdout.hasPrefix("synced books: fetched 0, 64 already fresh"), "\(second)")
        XCTAssertEqual(try server.requests().count, asked, "no request for fresh pages")

        // Killed after its first page: the rerun starts at the second.
        try server.control(.object([("delay", .double(1.5))]))
        let killed = try comics.start(["-s", "books", "sync", "--topic", "fiction"])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline,
              (try? DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM pages WHERE query LIKE '%fiction%'")) ?? 0 == 0 {
            usleep(50_000)
        }
        killed.killAtOnce()
        try server.control(.object([("delay", .double(0))]))
        let before = try server.requests().count
        let resumed = try comics.run(["-s", "books", "sync", "--topic", "fiction"])
        XCTAssertEqual(resumed.status, 0, "\(resumed)")
        let rerunAsked = try server.requests().dropFirst(before)
        XCTAssertFalse(rerunAsked.contains { $0.contains("topic=fiction") && !$0.contains("page=") }, "page 1 not again: \(rerunAsked)")
        XCTAssertTrue(resumed.stdout.contains(", 32 already fresh"), resumed.stdout)
    }

    func testCleanupSparesTheBooksOfTheMirroredQueryOnly() throws {
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "more"]).status, 0)
        XCTAssertEqual(try bookIDs().count, 64)
        XCTAssertEqual(try comics.run(["-s", "books", "sync", "--search", "dickens"]).status, 0)
        let dickens = try bookIDs("SELECT j.value FROM pages p, json_each(p.item_ids) j WHERE p.query LIKE '%dickens%'")
        XCTAssertFalse(dickens.isEmpty)
        XCTAssertEqual(try comics.run(["config", "get", "books.mirror"]).stdout, "on\n")

        let cleanup = try comics.run(["cleanup", "--max-items", "5"])
        XCTAssertEqual(cleanup.status, 0, "\(cleanup)")
        XCTAssertTrue(cleanup.stdout.contains("books: max age 30d, max 5 items besides what 1 mirrored query holds"), cleanup.stdout)
        let kept = try bookIDs()
        XCTAssertTrue(kept.isSuperset(of: dickens), "the mirrored query's books stay")
        XCTAssertEqual(kept.subtracting(dickens).count, 5, "the rest of the books obey max-items: \(kept.sorted())")

        XCTAssertEqual(try comics.run(["config", "set", "books.mirror", "off"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "5"]).status, 0)
        XCTAssertEqual(try bookIDs().count, 5, "off forgets the mirrored query")
    }
}
