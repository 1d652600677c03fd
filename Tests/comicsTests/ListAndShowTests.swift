import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `list`, `more` and `show` from the built binary against the loopback server.
final class ListAndShowTests: EndToEndTestCase {
    func testListShowsTheNewestTenComicsNewestFirst() throws {
        let result = try comics.run(["list"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.stdoutLines.first, "   ID DATE       TITLE")
        XCTAssertEqual(result.stdoutLines.count, 11)
        XCTAssertEqual(result.line(1), "  200 2006-12-22 Bill Nye")
        XCTAssertEqual(result.line(10), "  191 2006-12-01 Lojban")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try server.stats().total, 10, "info.0.json (comic 200), then one request for each other comic")
        XCTAssertEqual(try server.stats().agents, ["comics/\(ComicsVersion.current)"])
    }

    func testASecondListWithinTheHourMakesNoRequest() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let before = try server.stats().total
        let again = try comics.run(["list"], clockOffset: "+50m")
        XCTAssertEqual(again.status, 0, "\(again)")
        XCTAssertEqual(again.stdoutLines.count, 11)
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.stats().total, before)
    }

    func testAStaleListPrintsAtOnceAndIsRefreshedInTheBackground() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        try server.control(.object([
            ("latest", .int(201)),
            ("comics", .object([("201", FixtureServer.comic(201, title: "Brand New"))])),
            ("fault", .string("hang")),
        ]))
        // The server holds every request: the page must print while it does.
        // (faketime's wrapper then waits for the background refresh to end.)
        let stale = try comics.start(["list"], clockOffset: "+2h")
        XCTAssertTrue(stale.waitForStdoutLines(11, timeout: 20), "the stale page was not printed at once")
        try server.control(.object([("fault", .null)]))
        let result = try stale.finish(timeout: 30)
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.line(1), "  200 2006-12-22 Bill Nye")
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.stats().hits["/info.0.json"], 2)

        let fresh = try comics.run(["list"], clockOffset: "+2h")
        XCTAssertEqual(fresh.line(1), "  201 2007-01-02 Brand New")
    }

    func testNeverTwoBackgroundRefreshesAtOnce() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        try server.control(.object([("fault", .string("hang"))]))
        let first = try comics.start(["list"], clockOffset: "+2h")
        XCTAssertTrue(first.waitForStdoutLines(11, timeout: 20))
        XCTAssertTrue(comics.waitForBackgroundWorkToStart())
        // The first refresh is stuck on the server; a second stale list must not start another.
        let second = try comics.start(["list", "-v"], clockOffset: "+2h")
        XCTAssertTrue(second.waitForStdoutLines(11, timeout: 20))
        try server.control(.object([("fault", .null)]))
        let secondResult = try second.finish(timeout: 30)
        XCTAssertTrue(secondResult.stderr.hasSuffix("\ncomics: info: a background refresh is already running\n"), secondResult.stderr)
        XCTAssertEqual(try first.finish(timeout: 30).status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.stats().hits["/info.0.json"], 2, "the first list and one refresh")
    }

    func testRefreshWaitsForFreshData() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        try server.control(.object([
            ("latest", .int(201)), ("comics", .object([("201", FixtureServer.comic(201, title: "Brand New"))])),
        ]))
        let result = try comics.run(["list", "--refresh"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.line(1), "  201 2007-01-02 Brand New")
    }

    func testMoreWalksBackThroughTheArchiveAcrossRuns() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "5"]).status, 0)
        let first = try comics.run(["more", "-n", "5", "--format", "ndjson"])
        XCTAssertEqual(ids(first), [195, 194, 193, 192, 191])
        let second = try comics.run(["more", "--limit=3", "-f", "ndjson"])
        XCTAssertEqual(ids(second), [190, 189, 188])
        XCTAssertEqual(try comics.run(["list", "-n", "5"]).status, 0, "list resets the cursor")
        let reset = try comics.run(["more", "-n", "2", "-f", "ndjson"])
        XCTAssertEqual(ids(reset), [195, 194])
    }

    func testPagingSkipsComic404AndStopsAtTheEndOfTheArchive() throws {
        try server.control(.object([
            ("latest", .int(405)),
            ("comics", .object([
                ("405", FixtureServer.comic(405, title: "Four Oh Five")),
                ("403", FixtureServer.comic(403, title: "Four Oh Three")),
            ])),
        ]))
        let page = try comics.run(["list", "-n", "2", "-f", "ndjson"])
        XCTAssertEqual(ids(page), [405, 403], "\(page)")

        let end = try comics.run(["more", "-n", "200", "-f", "ndjson"])
        XCTAssertEqual(end.status, 0, "\(end)")
        // 402..201 do not exist on this server; 200..1 do.
        XCTAssertEqual(end.stdoutLines.count, 200)
        let pastTheEnd = try comics.run(["more"])
        XCTAssertEqual(pastTheEnd.status, 3, "\(pastTheEnd)")
        XCTAssertTrue(pastTheEnd.stderr.hasPrefix("comics: error: no more to show"))
        XCTAssertEqual(pastTheEnd.stdout, "")
    }

    func testShowPrintsOneComicInFull() throws {
        let result = try comics.run(["show", "150"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.line(0), "xkcd 150: Grownups")
        XCTAssertTrue(result.stdout.contains("URL:         https://xkcd.com/150/"))
        XCTAssertTrue(result.stdout.contains("Date:        2006-08-29"))
        XCTAssertTrue(result.stdout.contains("Image URL:   https://imgs.xkcd.com/comics/grownups.png"))
        XCTAssertTrue(result.stdout.contains("I've looked into this"))
        XCTAssertTrue(result.stdout.contains("Transcript:"))
    }

    func testShowLatestAndQualifiedReferences() throws {
        let latest = try comics.run(["show", "latest", "-f", "json"])
        XCTAssertEqual(latest.status, 0, "\(latest)")
        XCTAssertEqual(try JSONValue.parse(latest.stdout)["id"], .int(200))
        let qualified = try comics.run(["show", "xkcd:1", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(qualified.stdout)["title"], .string("Barrel - Part 1"))
    }

    func testShow404AndPastTheLatestAreNotFound() throws {
        let missing = try comics.run(["show", "404"])
        XCTAssertEqual(missing.status, 3, "\(missing)")
        XCTAssertEqual(missing.stderr, "comics: error: there is no xkcd comic 404\n")
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(try comics.run(["show", "99999"]).status, 3)
    }

    /// Upstream's 404 is a fact the cache keeps a day: the same answer
    /// again with no request; --refresh asks.
    func testA404IsRememberedAndRefreshAsksAgain() throws {
        let asked = { try self.server.requests().filter { $0.hasPrefix("/404/") }.count }
        XCTAssertEqual(try comics.run(["show", "404"]).status, 3)
        XCTAssertEqual(try asked(), 1)
        let again = try comics.run(["show", "404"])
        XCTAssertEqual(again.status, 3)
        XCTAssertEqual(again.stderr, "comics: error: there is no xkcd comic 404\n")
        XCTAssertEqual(try asked(), 1, "not asked again")
        XCTAssertEqual(try comics.run(["show", "404", "--refresh"]).status, 3)
        XCTAssertEqual(try asked(), 2, "--refresh asks")
    }

    func testAStaleItemIsRevalidatedConditionally() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["show", "150"]).status, 0)
        let stale = try comics.run(["show", "150"], clockOffset: "+25h")
        XCTAssertEqual(stale.status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.stats().hits["/150/info.0.json"], 2)
        let probe = try DatabaseProbe(path: comics.databasePath)
        let age = try Double(probe.scalar("SELECT cached_at FROM items WHERE id = 150")) ?? 0
        XCTAssertGreaterThan(age, Date().timeIntervalSince1970 + 24 * 3600, "the 304 renewed freshness")
    }

    func testHTMLEntitiesAndMisEncodedTitlesAreRepaired() throws {
        try server.control(.object([("comics", .object([
            ("7", FixtureServer.comic(7, title: "Clich&eacute;d &amp; Caf\u{C3}\u{A9}")),
        ]))]))
        let result = try comics.run(["show", "7", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(result.stdout)["title"], .string("Clichéd & Café"))
    }

    /// The ids of an ndjson listing, in order.
    private func ids(_ result: RunResult) -> [Int] {
        result.stdoutLines.compactMap { try? JSONValue.parse($0)["id"]?.intValue }
    }
}
