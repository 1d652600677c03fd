import ComicsKit
import Foundation
import TestSupport
import XCTest

/// What comics says is what happened.
final class TruthfulMessagesTests: EndToEndTestCase {
    func testABooksSyncIsARefreshInfoReports() throws {
        XCTAssertEqual(try comics.run(["-s", "books", "sync", "--quiet"]).status, 0)
        let info = try JSONValue.parse(try comics.run(["info", "-f", "json"]).stdout)
        XCTAssertNotEqual(info["sources"]?["books"]?["last_refresh"], .null, "\(info)")
        XCTAssertEqual(info["sources"]?["xkcd"]?["last_refresh"], .null, "nothing asked of xkcd")
        let table = try comics.run(["info"]).stdoutLines
        let booksRefreshed = try XCTUnwrap(table.firstIndex { $0.hasPrefix("books") }.map { table[$0 + 1] })
        XCTAssertTrue(booksRefreshed.hasPrefix("  refreshed") && !booksRefreshed.hasSuffix("never"), booksRefreshed)
    }

    func testAFailedSyncIsRecordedAndSaysNothingOfWhatItNeverChecked() throws {
        comics.environment["COMICS_XKCD_URL"] = "http://127.0.0.1:9"
        let failed = try comics.run(["sync"])
        XCTAssertEqual(failed.status, 4, "\(failed)")
        XCTAssertTrue(failed.stderr.hasPrefix("comics: error: sync stopped before checking anything: cannot reach 127.0.0.1"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("0 checked"), failed.stderr)
        let info = try JSONValue.parse(try comics.run(["info", "-f", "json"]).stdout)
        XCTAssertNotEqual(info["sources"]?["xkcd"]?["last_refresh_failure"], .null, "\(info)")
    }

    func testSyncHelpSaysWhenFavoritesAreNeeded() throws {
        let help = try comics.run(["sync", "--help"]).stdout
        XCTAssertFalse(help.contains("the only way without a query"), help)
        XCTAssertTrue(help.contains("larger than a sync mirrors"), help)
    }

    func testABookReferenceHintNamesWhatBooksAccept() throws {
        let refused = try comics.run(["-s", "books", "show", "0"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertFalse(refused.stderr.contains("latest") || refused.stderr.contains("random"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("books:1342"), refused.stderr)
        XCTAssertTrue(try comics.run(["show", "0"]).stderr.contains("latest or random"), "xkcd has both")
    }

    func testABooksPageIsTheServersAndSaysSoWhenMoreWasAsked() throws {
        let asked = try comics.run(["-s", "books", "list", "-n", "40"])
        XCTAssertEqual(asked.status, 0)
        XCTAssertEqual(asked.stdoutLines.count, 33, "a header and Gutendex's 32")
        XCTAssertEqual(asked.stderr, "comics: note: a books page is the 32 books Gutendex sends; 'comics -s books more' shows the next\n")
        let fewer = try comics.run(["-s", "books", "list", "-n", "10"])
        XCTAssertEqual(fewer.stdoutLines.count, 11)
        XCTAssertEqual(fewer.stderr, "")
        XCTAssertEqual(try comics.run(["-s", "books", "list", "-n", "40", "--quiet"]).stderr, "")
    }
}
