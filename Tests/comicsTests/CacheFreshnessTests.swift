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
