import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `comics config` end to end: validation, persistence, and each setting
/// changing what the commands do.
final class ConfigTests: EndToEndTestCase {
    func testSettingsPersistAndBadValuesAreUsageErrorsThatChangeNothing() throws {
        XCTAssertEqual(try comics.run(["config", "set", "books.max-items", "100"]).stdout, "books.max-items = 100\n")
        XCTAssertEqual(try comics.run(["config", "set", "max-age", "48h"]).stdout, "max-age = 2d\n")
        XCTAssertEqual(try comics.run(["config", "get", "xkcd.max-age"]).stdout, "2d\n", "inherited from max-age")
        let listing = try comics.run(["config"])
        XCTAssertTrue(listing.stdout.contains("xkcd.max-age = 2d (from max-age)\n"), listing.stdout)
        XCTAssertTrue(listing.stdout.contains("background-refresh = on (default)\n"), listing.stdout)

        for (arguments, message) in [
            (["config", "set", "max-age", "soon"], "comics: error: 'soon' is not a valid value for max-age; give a duration such as 30d, 12h, 90m or 2w\n"),
            (["config", "set", "xkcd.page-size", "0"], "comics: error: '0' is not a valid value for xkcd.page-size; give a whole number from 1 to 200\n"),
            (["config", "set", "auto-cleanup", "maybe"], "comics: error: 'maybe' is not a valid value for auto-cleanup; use on or off\n"),
            (["config", "set", "max-age"], "comics: error: 'comics config set' takes a KEY and a VALUE, got 1 arguments; see 'comics config set --help'\n"),
        ] {
            let refused = try comics.run(arguments)
            XCTAssertEqual(refused.status, 2, "\(arguments)")
            XCTAssertEqual(refused.stderr, message)
            XCTAssertEqual(refused.stdout, "")
        }
        let unknown = try comics.run(["config", "get", "page-size"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.hasPrefix("comics: error: unknown setting 'page-size'; did you mean"), unknown.stderr)

        let json = try JSONValue.parse(try comics.run(["config", "list", "-f", "json"]).stdout)
        let maxAge = json.arrayValue?.first { $0["key"] == .string("max-age") }
        XCTAssertEqual(maxAge?["value"], .string("2d"), "the refused values changed nothing")
        XCTAssertEqual(maxAge?["default"], .bool(false))
        XCTAssertEqual(try comics.run(["config", "unset", "max-age"]).stdout, "max-age = 30d (default)\n")
    }

    func testPageSizeSettingIsTheDefaultLimit() throws {
        XCTAssertEqual(try comics.run(["config", "set", "xkcd.page-size", "3"]).status, 0)
        XCTAssertEqual(try comics.run(["list", "-f", "ndjson"]).stdoutLines.count, 3)
        XCTAssertEqual(try comics.run(["list", "-n", "5", "-f", "ndjson"]).stdoutLines.count, 5, "--limit wins")
    }

    func testPerSourceLimitsApplyToCleanup() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "4"]).status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        XCTAssertEqual(try comics.run(["config", "set", "books.max-items", "2"]).status, 0)
        let cleanup = try comics.run(["cleanup"])
        XCTAssertTrue(cleanup.stdout.contains("books: max age 30d, max 2 items; xkcd: max age 30d, max 500 items"), cleanup.stdout)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE source = 'books'"), 2)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE source = 'xkcd'"), 4)
    }

    func testWithBackgroundRefreshOffAStaleListIsRefreshedBeforePrinting() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["config", "set", "background-refresh", "off"]).status, 0)
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        try server.control(.object([
            ("latest", .int(201)),
            ("comics", .object([("201", FixtureServer.comic(201, title: "Brand New"))])),
        ]))
        let stale = try comics.run(["list"], clockOffset: "+2h")
        XCTAssertEqual(stale.line(1), "  201 2007-01-02 Brand New", "refreshed in the foreground")
        XCTAssertFalse(comics.waitForBackgroundWorkToStart(timeout: 1), "no background process")

        try server.control(.object([("fault", .string("refuse"))]))
        let down = try comics.run(["list"], clockOffset: "+4h")
        XCTAssertEqual(down.status, 0, "the stale copy is still served when the network fails")
        XCTAssertEqual(down.line(1), "  201 2007-01-02 Brand New")
        XCTAssertTrue(down.stderr.contains("comics: warning:"), down.stderr)
    }

    func testAutomaticCleanupCanBeTurnedOff() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["config", "set", "auto-cleanup", "off"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "2"], clockOffset: "+40d").status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.rows("SELECT id FROM items ORDER BY id").map { $0[0] }, ["1", "2"], "comic 1 kept")
    }

    func testMachineOutputSaysWhetherEachRowIsStale() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "2"], clockOffset: "+2d").status, 0)
        let rows = try JSONValue.parse(try comics.run(["--offline", "fav", "list", "-f", "json"]).stdout)
        XCTAssertEqual(rows, .array([]))
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "2"], clockOffset: "+2d").status, 0)
        let later = try comics.run(["--offline", "fav", "list", "-f", "ndjson"], clockOffset: "+2d")
        let staleness = try later.stdoutLines.map { try JSONValue.parse($0) }.map { [$0["id"], $0["stale"]] }
        XCTAssertEqual(staleness, [[.int(1), .bool(true)], [.int(2), .bool(false)]])
    }
}
