@testable import ComicsKit
import Foundation
import TestSupport
import XCTest
@testable import comics

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

        let probe = try DatabaseProbe(path: comics.databasePath)
        let newestBefore = try probe.scalar("SELECT max(cached_at) FROM items WHERE source = 'xkcd'")
        let revalidated = try comics.run(["sync", "--refresh"])
        XCTAssertTrue(revalidated.stdout.hasPrefix("synced xkcd: fetched 0, 450 already fresh"), revalidated.stdout)
        for format in ["json", "ndjson"] {
            let summary = try comics.run(["sync", "--quiet", "-f", format])
            let record = try JSONValue.parse(summary.stdout)
            XCTAssertEqual(record["source"], .string("xkcd"), summary.stdout)
            XCTAssertEqual(record["fetched"], .int(0))
            XCTAssertEqual(record["already_fresh"], .int(450))
            XCTAssertEqual(record["absent"], .int(0))
            XCTAssertNotNil(record["seconds"], summary.stdout)
        }
        XCTAssertTrue(try comics.run(["sync", "-f", "csv"]).stdout.hasPrefix("source,fetched,already_fresh,absent,seconds,complete,missing\r\nxkcd,0,450,0,"))
        XCTAssertGreaterThan(try probe.scalar("SELECT min(cached_at) FROM items WHERE source = 'xkcd'"), newestBefore,
                             "every comic answered 304 and was renewed")
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

    /// A catalogue of `extra` more books than the fixtures' 64.
    private func catalogue(adding extra: Int) throws {
        let books = (1...extra).map { offset in
            (String(200_000 + offset), FixtureServer.book(200_000 + offset, title: "Volume \(offset)", downloads: 0))
        }
        try server.control(.object([("books", .object(books))]))
    }

    private func bookCount() throws -> Int {
        try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM items WHERE source = 'books'")
    }

    private func bookPageRequests(since start: Int = 0) throws -> [String] {
        try server.requests().dropFirst(start).filter { $0.hasPrefix("/books/") && !$0.contains("ids=") }
    }

    /// After the first page, its count names every page: they are asked for
    /// together, each once, and stored.
    func testABooksSyncFetchesThePagesTogether() throws {
        try catalogue(adding: 300)
        try server.control(.object([("delay", .double(0.05))]))
        let synced = try comics.run(["-s", "books", "sync", "--jobs", "8"])
        XCTAssertEqual(synced.status, 0, "\(synced)")
        XCTAssertTrue(synced.stdout.hasPrefix("synced books: fetched 364, 0 already fresh"), synced.stdout)
        XCTAssertGreaterThan(try server.load().mostInFlight, 1, "pages in flight at once")
        XCTAssertEqual(try bookPageRequests().sorted(), (["/books/"] + (2...12).map { "/books/?page=\($0)" }).sorted())
        XCTAssertEqual(try bookCount(), 364)
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM pages WHERE source = 'books'"), 12)
        let again = try comics.run(["-s", "books", "sync"])
        XCTAssertTrue(again.stdout.hasPrefix("synced books: fetched 0, 364 already fresh"), again.stdout)
        XCTAssertEqual(try bookPageRequests().count, 12, "nothing asked again")
    }

    /// Pages are stored a few at a time as they arrive: a sync killed
    /// midway asks, when run again, only for the pages it did not store.
    func testAKilledBooksSyncResumesWithThePagesItDidNotStore() throws {
        try catalogue(adding: 1_100)
        try server.control(.object([("delay", .double(0.25))]))
        let running = try comics.start(["-s", "books", "sync", "--jobs", "4"])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? bookCount()) ?? 0 < 32 * 9 { usleep(20_000) }
        running.killAtOnce()
        let kept = try bookCount()
        XCTAssertGreaterThanOrEqual(kept, 32 * 9, "the first page and at least one commit of eight")
        XCTAssertLessThan(kept, 1_164, "killed before the end")
        let stored = Set(try DatabaseProbe(path: comics.databasePath).rows(
            "SELECT position FROM pages WHERE source = 'books' AND position != ''").compactMap { row in
                row[0].split(separator: "=").last.flatMap { Int($0) }
            })
        try server.control(.object([("delay", .double(0))]))
        let before = try server.requests().count
        let resumed = try comics.run(["-s", "books", "sync"])
        XCTAssertEqual(resumed.status, 0, "\(resumed)")
        XCTAssertEqual(try bookPageRequests(since: before).sorted(),
                       (2...37).filter { !stored.contains($0) }.map { "/books/?page=\($0)" }.sorted())
        XCTAssertEqual(try bookCount(), 1_164)
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

        try server.control(.object([("book_count", .int(76_000))]))
        for arguments in [["-s", "books", "sync"], ["-s", "books", "sync", "--language", "en", "--refresh"]] {
            let tooLarge = try comics.run(arguments)
            XCTAssertEqual(tooLarge.status, 2, "\(arguments): \(tooLarge)")
            XCTAssertEqual(tooLarge.stderr, "comics: error: this query matches 76000 books, more than the 10000 a sync mirrors; "
                + "narrow it with --search, --topic or --language, or sync --favorites\n")
        }
        XCTAssertEqual(try comics.run(["sync", "--jobs", "0"]).status, 2)
    }

    func testSyncIsBoundedReusesConnectionsAndWaitsOutRateLimits() throws {
        try archive(of: 300)
        try server.control(.object([("delay", .double(0.02))]))
        try server.control(.object([("fault", .string("429")), ("count", .int(2)), ("retry_after", .string("1"))]))
        let connectionsBefore = try server.load().connections
        let result = try comics.run(["sync", "--jobs", "3"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertTrue(result.stdout.hasPrefix("synced xkcd: fetched 299, 1 already fresh"), result.stdout)
        XCTAssertEqual(try itemCount(), 300, "the rate-limited requests were tried again")
        let load = try server.load()
        XCTAssertLessThanOrEqual(load.mostInFlight, 3, "--jobs bounds the requests in flight")
        XCTAssertGreaterThanOrEqual(load.mostInFlight, 2, "requests overlap")
        XCTAssertLessThanOrEqual(load.connections - connectionsBefore, 6, "connections are kept alive, not one a request")
        XCTAssertEqual(try comics.run(["sync", "--jobs", "33"]).status, 2)
    }

    func testAProgressBarOnATerminalAndNothingLeftOfItAfter() throws {
        try archive(of: 250)
        let onTerminal = try comics.shell("script -qec \"$COMICS sync --jobs 2\" /dev/null")
        XCTAssertEqual(onTerminal.status, 0, "\(onTerminal)")
        XCTAssertTrue(onTerminal.stdout.contains("\r["), onTerminal.stdout.debugDescription)
        XCTAssertTrue(onTerminal.stdout.contains("/250  "), onTerminal.stdout.debugDescription)
        XCTAssertTrue(onTerminal.stdout.contains("\r\u{1B}[Ksynced xkcd: fetched 249, 1 already fresh"), "the bar is erased before the summary")
    }

    func testTheBarFitsItsWidthAndEstimatesTheRest() {
        let half = SyncCommand.bar(SyncProgress(done: 1500, total: 3000), elapsed: 10, width: 80)
        XCTAssertEqual(half, "[" + String(repeating: "#", count: 20) + String(repeating: ".", count: 20) + "]  1500/3000  150/s  ETA 10s")
        let narrow = SyncCommand.bar(SyncProgress(done: 3000, total: 3000), elapsed: 2, width: 40)
        XCTAssertEqual(narrow, "[" + String(repeating: "#", count: 10) + "]  3000/3000  1500/s  ETA 0s")
        XCTAssertLessThan(narrow.count, 40, "the cursor stays on the line")
        XCTAssertEqual(SyncCommand.bar(SyncProgress(done: 64, total: nil), elapsed: 2, width: 80), "syncing: 64 done, 32/s")
    }

    /// The newest comic could not be learned: what is known is synced, and
    /// the run says what is missing and exits 4 in every format, --quiet
    /// or not; nothing is marked mirrored until a whole run.
    func testASyncThatCouldNotLearnTheNewestSaysWhatIsMissingAndFails() throws {
        try archive(of: 450)
        XCTAssertEqual(try comics.run(["show", "375"]).status, 0)
        let missing = "sync incomplete: the newest xkcd comic could not be learned (127.0.0.1 failed (HTTP 500); try again later); "
            + "any after #375 are missing; run 'comics sync' again to finish"
        try server.control(.object([("fault", .string("500")), ("count", .int(3))]))
        let partial = try comics.run(["sync"])
        XCTAssertEqual(partial.status, 4, "\(partial)")
        XCTAssertTrue(partial.stdout.hasPrefix("synced part of xkcd: fetched 374, 1 already fresh in "), partial.stdout)
        XCTAssertEqual(partial.stderr, "comics: error: \(missing)\n")
        XCTAssertEqual(try itemCount(), 375)
        XCTAssertNotEqual(try comics.run(["config", "get", "xkcd.mirror"]).stdout, "on\n", "a part is not a mirror")

        try server.control(.object([("fault", .string("500")), ("count", .int(3))]))
        let quiet = try comics.run(["sync", "--quiet"])
        XCTAssertEqual(quiet.status, 4, "--quiet never hides a shortfall")
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertEqual(quiet.stderr, "comics: error: \(missing)\n")
        for format in ["json", "csv"] {
            try server.control(.object([("fault", .string("500")), ("count", .int(3))]))
            let record = try comics.run(["sync", "--quiet", "-f", format])
            XCTAssertEqual(record.status, 4, format)
            XCTAssertEqual(record.stderr, "comics: error: \(missing)\n", format)
            if format == "json" {
                let parsed = try JSONValue.parse(record.stdout)
                XCTAssertEqual(parsed["complete"], .bool(false), record.stdout)
                XCTAssertEqual(parsed["missing"]?.arrayValue?.count, 1, record.stdout)
            } else {
                XCTAssertTrue(record.stdout.hasPrefix("source,fetched,already_fresh,absent,seconds,complete,missing\r\nxkcd,0,375,0,"), record.stdout)
            }
        }

        let whole = try comics.run(["sync", "-f", "json"])
        XCTAssertEqual(whole.status, 0, "\(whole)")
        XCTAssertEqual(try JSONValue.parse(whole.stdout)["complete"], .bool(true))
        XCTAssertEqual(try JSONValue.parse(whole.stdout)["fetched"], .int(74))
        XCTAssertEqual(try itemCount(), 450)
        XCTAssertEqual(try comics.run(["config", "get", "xkcd.mirror"]).stdout, "on\n")
    }

    /// Comics upstream sent that cannot be read are skipped, each named,
    /// and the sync fails for them.
    func testASyncThatSkippedUnreadableComicsFails() throws {
        try archive(of: 250)
        try server.control(.object([("comics", .object([("230", .string("{not json"))]))]))
        let result = try comics.run(["sync"])
        XCTAssertEqual(result.status, 4, "\(result)")
        XCTAssertTrue(result.stdout.hasPrefix("synced part of xkcd: fetched 248, 1 already fresh"), result.stdout)
        XCTAssertTrue(result.stderr.contains("comics: warning: skipped xkcd:230: "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("comics: error: sync incomplete: 1 xkcd comic upstream sent could not be read; run 'comics sync' again to finish\n"), result.stderr)
    }

    func testANetworkFailureBeforeAnythingIsCheckedSaysSo() throws {
        try archive(of: 250)
        XCTAssertEqual(try comics.run(["list", "-n", "1"]).status, 0)
        try server.control(.object([("fault", .string("500"))]))
        let result = try comics.run(["sync"])
        XCTAssertEqual(result.status, 4, "\(result)")
        XCTAssertTrue(result.stderr.hasPrefix("comics: error: sync stopped before checking anything: 127.0.0.1 "), result.stderr)
        XCTAssertEqual(result.stderr, "comics: error: sync stopped before checking anything: 127.0.0.1 failed (HTTP 500); try again later\n")
    }
}
