import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `comics sync`: the whole archive, fetched once, resumable, polite, and
/// safe beside other commands.
final class SyncTests: EndToEndTestCase {
    /// An archive of `latest` comics: the 200 real fixtures and made-up ones after them.
    private func archive(of latest: Int) throws {
        let extra = (201...max(201, latest)).map { (String($0), FixtureServer.comic($0, title: "Comic \($0)")) }
        try server.control(.object([("latest", .int(latest)), ("comics", .object(extra))]))
    }

    private func itemCount() throws -> Int {
        try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM items WHERE source = 'xkcd'")
    }

    func testSyncFetchesWhatIsMissingOnceAndSaysSoOnOneLine() throws {
        try archive(of: 450)
        XCTAssertEqual(try comics.run(["show", "7"]).status, 0)
        let first = try comics.run(["sync"])
        XCTAssertEqual(first.status, 0, "\(first)")
        XCTAssertTrue(first.stdout.hasPrefix("synced xkcd: fetched 448, 2 already fresh in "), "7 and the newest were cached: \(first.stdout)")
        XCTAssertEqual(first.stdoutLines.count, 1)
        XCTAssertEqual(first.stderr, "", "no progress bar off a terminal")
        XCTAssertEqual(try itemCount(), 450)

        let before = try server.requests().count
        let again = try comics.run(["sync", "--quiet"])
        XCTAssertEqual(again.stdout + again.stderr, "")
        XCTAssertEqual(try server.requests().count, before, "nothing stale: no request (the newest page is fresh)")
        XCTAssertEqual(try comics.run(["config", "get", "xkcd.mirror"]).stdout, "on\n")
    }

    func testAKilledSyncResumesWithoutFetchingAgain() throws {
        try archive(of: 800)
        try server.control(.object([("delay", .double(0.01))]))
        let running = try comics.start(["sync", "--jobs", "4"])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? itemCount()) ?? 0 < 200 { usleep(20_000) }
        running.killAtOnce()
        let kept = try itemCount()
        XCTAssertGreaterThanOrEqual(kept, 200, "at least one batch was committed before the kill")
        XCTAssertLessThan(kept, 800, "the sync was killed before the end")
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).scalar("PRAGMA integrity_check"), "ok")

        try server.control(.object([("delay", .double(0))]))
        let requestsBefore = try server.requests().count
        let resumed = try comics.run(["sync"])
        XCTAssertEqual(resumed.status, 0, "\(resumed)")
        XCTAssertTrue(resumed.stdout.contains("fetched \(800 - kept), \(kept) already fresh"), resumed.stdout)
        let comicRequests = try server.requests().dropFirst(requestsBefore).filter { $0.hasSuffix("/info.0.json") && $0 != "/info.0.json" }
        XCTAssertEqual(comicRequests.count, 800 - kept, "only what was missing")
    }

    func testSyncBesideAListAndACleanupAllSucceed() throws {
        try archive(of: 600)
        XCTAssertEqual(try comics.run(["fav", "add", "3"]).status, 0)
        let results = try comics.runTogether([["sync"], ["list"], ["more"], ["cleanup", "--max-items", "50"], ["list", "-n", "20"]])
        for result in results {
            XCTAssertEqual(result.status, 0, "\(result)")
            XCTAssertFalse(result.stderr.contains("locked"), "\(result)")
        }
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).scalar("PRAGMA integrity_check"), "ok")
    }

    func testCleanupKeepsAMirrorWhole() throws {
        try archive(of: 600)
        XCTAssertEqual(try comics.run(["sync"]).status, 0)
        let kept = try comics.run(["cleanup"])
        XCTAssertTrue(kept.stdout.contains("removed 0 items; kept 0 favourites; books: max age 30d, max 500 items; xkcd: max age 30d, no item limit (mirrored)"), kept.stdout)
        XCTAssertEqual(try itemCount(), 600, "more than max-items (500), all kept")
        XCTAssertEqual(try comics.run(["config", "set", "xkcd.mirror", "off"]).status, 0)
        let trimmed = try comics.run(["cleanup"])
        XCTAssertTrue(trimmed.stdout.hasPrefix("removed 100 items (xkcd 100)"), trimmed.stdout)
        XCTAssertEqual(try itemCount(), 500)
    }

    func testBooksSyncAQueryOrTheFavourites() throws {
        let query = try comics.run(["-s", "books", "sync", "--language", "en"])
        XCTAssertEqual(query.status, 0, "\(query)")
        XCTAssertTrue(query.stdout.hasPrefix("synced books: fetched "), query.stdout)
        XCTAssertTrue(try server.requests().contains { $0.contains("languages=en") && $0.contains("page=2") }, "every page")

        XCTAssertEqual(try comics.run(["fav", "add", "books:1342"]).status, 0)
        let favourites = try comics.run(["-s", "books", "sync", "--favorites", "--refresh"])
        XCTAssertEqual(favourites.status, 0, "\(favourites)")
        XCTAssertTrue(favourites.stdout.hasPrefix("synced books: fetched 1, 0 already fresh"), favourites.stdout)
        XCTAssertEqual(try comics.run(["config", "get", "books.mirror"]).stdout, "on\n", "the query sync mirrored books")
        XCTAssertEqual(try comics.run(["sync", "--favorites"]).status, 0)
        XCTAssertEqual(try comics.run(["config", "get", "xkcd.mirror"]).stdout, "off\n", "a favourites sync mirrors nothing")

        let everything = try comics.run(["-s", "books", "sync"])
        XCTAssertEqual(everything.status, 2)
        XCTAssertTrue(everything.stderr.contains("too large to mirror"), everything.stderr)
        XCTAssertEqual(try comics.run(["sync", "--jobs", "0"]).status, 2)
    }

    func testANetworkFailureStopsTheSyncAndSaysHowToResume() throws {
        try archive(of: 250)
        XCTAssertEqual(try comics.run(["list", "-n", "1"]).status, 0)
        try server.control(.object([("fault", .string("500"))]))
        let result = try comics.run(["sync"])
        XCTAssertEqual(result.status, 4, "\(result)")
        XCTAssertTrue(result.stderr.hasPrefix("comics: error: sync stopped: "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("run the same 'comics sync' again to resume\n"), result.stderr)
    }
}
