import ComicsKit
import Foundation
import TestSupport
import XCTest

/// What is cached is always served: pages composed from cached comics,
/// the newest cached comic, a random one, favourites recorded without the
/// network, and `more` keeping the page size of the `list` it follows.
final class OfflineFirstTests: EndToEndTestCase {
    private var upstream = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        upstream = try XCTUnwrap(comics.environment["COMICS_XKCD_URL"])
    }

    /// Nothing listens on port 9 of the loopback: every connection is refused.
    private func takeTheNetworkDown() {
        comics.environment["COMICS_XKCD_URL"] = "http://127.0.0.1:9"
        comics.environment["COMICS_GUTENDEX_URL"] = "http://127.0.0.1:9"
    }

    private func bringTheNetworkBack() {
        comics.environment["COMICS_XKCD_URL"] = upstream
        comics.environment["COMICS_GUTENDEX_URL"] = upstream
    }

    private func ids(_ result: RunResult, line: UInt = #line) throws -> [Int] {
        XCTAssertEqual(result.status, 0, "\(result)", line: line)
        return try result.stdoutLines.map { try JSONValue.parse($0)["id"]?.intValue ?? 0 }
    }

    func testOfflineListAndMoreAreComposedFromCachedComics() throws {
        try server.control(.object([("latest", .int(60))]))
        XCTAssertEqual(try comics.run(["sync", "--quiet"]).status, 0)
        XCTAssertEqual(try ids(try comics.run(["--offline", "list", "-f", "ndjson"])), Array((51...60).reversed()))
        XCTAssertEqual(try ids(try comics.run(["--offline", "list", "-n", "5", "-f", "ndjson"])), Array((56...60).reversed()))
        XCTAssertEqual(try ids(try comics.run(["--offline", "more", "-f", "ndjson"])), Array((51...55).reversed()),
                       "more goes on below, as large as the list before it")
        let table = try comics.run(["--offline", "list", "-n", "3"])
        XCTAssertEqual(table.stderr, "", "--offline asked for the cache: nothing to warn about")

        try comics.run(["cleanup", "--max-items", "0"])
        let nothing = try comics.run(["--offline", "list"])
        XCTAssertEqual(nothing.status, 4)
        XCTAssertEqual(nothing.stderr, "comics: error: nothing cached for this page, and --offline forbids the network\n")
    }

    /// A cron `sync` caches comics newer than the stored newest page:
    /// `list` without the network shows them, not the page it stored before.
    func testAListAfterASyncShowsTheNewestCachedComics() throws {
        try server.control(.object([("latest", .int(150))]))
        XCTAssertEqual(try ids(try comics.run(["list", "-n", "3", "-f", "ndjson"])), [150, 149, 148])
        try server.control(.object([("latest", .int(160))]))
        XCTAssertEqual(try comics.run(["sync", "--quiet"]).status, 0)
        XCTAssertEqual(try ids(try comics.run(["--offline", "list", "-n", "3", "-f", "ndjson"])), [160, 159, 158])
        takeTheNetworkDown()
        let down = try comics.run(["list", "-n", "3", "-f", "ndjson"])
        XCTAssertEqual(try ids(down), [160, 159, 158])
        XCTAssertEqual(down.stderr, "", "a page served from the cache within its time to live")
    }

    func testOfflineABooksQueryServesWhatItsStoredPageStillHolds() throws {
        XCTAssertEqual(try comics.run(["-s", "books", "list", "--language", "en"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:1342"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "3"]).status, 0)
        let served = try comics.run(["--offline", "-s", "books", "list", "--language", "en", "-f", "ndjson"])
        XCTAssertEqual(served.status, 0, "\(served)")
        XCTAssertEqual(served.stdoutLines.count, 4, "the favourite and the three kept, in the page's order")
        XCTAssertTrue(try ids(served).contains(1342))
    }

    func testWithTheNetworkDownAListOfAnotherSizeIsComposedWithOneWarning() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        takeTheNetworkDown()
        let five = try comics.run(["list", "-n", "5", "-f", "ndjson"])
        XCTAssertEqual(try ids(five), Array((196...200).reversed()))
        XCTAssertEqual(five.stderr, "comics: warning: cannot reach 127.0.0.1: couldn't connect to server; showing what is cached\n")
        XCTAssertEqual(try ids(try comics.run(["more", "-f", "ndjson"])), Array((191...195).reversed()))
        let beyond = try comics.run(["more"])
        XCTAssertEqual(beyond.status, 4, "nothing below 191 is cached: \(beyond)")
    }

    func testShowLatestServesTheNewestCachedComic() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list", "-n", "3"]).status, 0)
        let offline = try comics.run(["--offline", "show", "latest", "-f", "json"])
        XCTAssertEqual(offline.status, 0, "\(offline)")
        XCTAssertEqual(try JSONValue.parse(offline.stdout)["id"], .int(200))
        XCTAssertEqual(offline.stderr, "", "checked minutes ago: no newer comic is likely")

        takeTheNetworkDown()
        let later = try comics.run(["show", "latest"], clockOffset: "+3h")
        XCTAssertEqual(later.status, 0, "\(later)")
        XCTAssertTrue(later.stdout.hasPrefix("xkcd 200: Bill Nye\n"), later.stdout)
        XCTAssertEqual(later.stderr, "comics: warning: cannot reach 127.0.0.1: couldn't connect to server; #200 is the newest "
            + "xkcd comic cached; 127.0.0.1 was last checked 3 hours ago, so there may be a newer one\n")
        XCTAssertTrue(try comics.run(["--offline", "show", "latest"], clockOffset: "+3h").stderr
            .hasSuffix("#200 is the newest xkcd comic cached; 127.0.0.1 was last checked 3 hours ago, so there may be a newer one\n"))
    }

    func testAFavouriteIsRecordedWithoutTheNetworkAndFetchedWhenItIsBack() throws {
        try requireClockControl()
        takeTheNetworkDown()
        let added = try comics.run(["fav", "150"])
        XCTAssertEqual(added.status, 0, "\(added)")
        XCTAssertEqual(added.stdout, "★ added xkcd:150 to favourites\n")
        XCTAssertEqual(added.stderr, "comics: warning: cannot reach 127.0.0.1: couldn't connect to server; "
            + "xkcd:150 is not cached yet; it will be fetched when the network is back\n")
        let offline = try comics.run(["--offline", "fav", "add", "151", "-f", "json"])
        XCTAssertEqual(offline.status, 0)
        XCTAssertEqual(try JSONValue.parse(offline.stdout)["title"], .null)
        XCTAssertEqual(try comics.run(["fav", "remove", "151"]).stdout, "removed xkcd:151 from favourites\n",
                       "removing needs no fetch")
        let listed = try comics.run(["fav", "list", "-f", "ndjson"])
        XCTAssertEqual(try ids(listed), [150])

        // The background attempt the failed command started failed too: the
        // next is due a minute later, not an hour.
        XCTAssertTrue(comics.waitForBackgroundWork())
        bringTheNetworkBack()
        XCTAssertEqual(try comics.run(["list", "-n", "1"], clockOffset: "+2m").status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        let fetched = try JSONValue.parse(try comics.run(["--offline", "fav", "list", "-f", "ndjson"]).stdout)
        XCTAssertEqual(fetched["title"], .string("Grownups"), "fetched in the background once online")
    }

    func testRandomPicksFromTheArchiveOrOfflineFromTheCache() throws {
        var online = Set<Int>()
        for _ in 0..<25 {
            let shown = try comics.run(["show", "random", "-f", "json"])
            XCTAssertEqual(shown.status, 0, "\(shown)")
            online.insert(try XCTUnwrap(JSONValue.parse(shown.stdout)["id"]?.intValue))
        }
        XCTAssertTrue(online.allSatisfy { (1...200).contains($0) && $0 != 404 }, "\(online)")
        XCTAssertGreaterThan(online.count, 15, "25 picks from 200 rarely repeat much: \(online.sorted())")

        try comics.run(["cleanup", "--max-items", "0"])
        for number in [3, 30, 130] { XCTAssertEqual(try comics.run(["show", String(number)]).status, 0) }
        var offline = Set<Int>()
        for _ in 0..<20 {
            let shown = try comics.run(["--offline", "show", "random", "-f", "json"])
            XCTAssertEqual(shown.status, 0, "\(shown)")
            offline.insert(try XCTUnwrap(JSONValue.parse(shown.stdout)["id"]?.intValue))
        }
        XCTAssertTrue(offline.isSubset(of: [3, 30, 130]) && offline.count > 1, "\(offline)")

        takeTheNetworkDown()
        let down = try comics.run(["show", "random"])
        XCTAssertEqual(down.status, 0, "\(down)")
        XCTAssertTrue(down.stderr.hasSuffix("; picking from the cached comics instead\n"), down.stderr)

        let books = try comics.run(["-s", "books", "show", "random"])
        XCTAssertEqual(books.status, 2)
        XCTAssertEqual(books.stderr, "comics: error: books has no numbered archive to pick from; name one by its number\n")
    }

    func testAFailingBackgroundRefreshIsSaidByTheNextCommandAndShownByInfo() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        takeTheNetworkDown()
        let first = try comics.run(["list"], clockOffset: "+3h")
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.stderr, "", "stale but not known to be stuck: refreshed in the background")
        XCTAssertTrue(comics.waitForBackgroundWork())

        let second = try comics.run(["list"], clockOffset: "+3h")
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(second.stdoutLines.count, 11, "the cached page, as before")
        XCTAssertEqual(second.stderr, "comics: warning: showing the copy cached 3 hours ago; refreshing failed just now: "
            + "cannot reach 127.0.0.1: couldn't connect to server\n")
        XCTAssertEqual(try comics.run(["-q", "list"], clockOffset: "+3h").stderr, "", "-q silences it")
        XCTAssertTrue(comics.waitForBackgroundWork(), "the refresh it started ends before the next command starts its own")
        let machine = try comics.run(["list", "-f", "ndjson"], clockOffset: "+2d")
        XCTAssertTrue(machine.stderr.hasPrefix("comics: warning: showing the copy cached 2 days ago; refreshing failed 1 day ago"), machine.stderr)
        XCTAssertTrue(try machine.stdoutLines.allSatisfy { try JSONValue.parse($0)["stale"] == .bool(true) })
        XCTAssertTrue(comics.waitForBackgroundWork())

        let shown = try comics.run(["show", "195"], clockOffset: "+2d")
        XCTAssertTrue(shown.stderr.hasPrefix("comics: warning: showing the copy cached 2 days ago; refreshing failed just now"), shown.stderr)
        XCTAssertTrue(comics.waitForBackgroundWork())

        let info = try JSONValue.parse(try comics.run(["info", "-f", "json"]).stdout)
        XCTAssertNotNil(info["sources"]?["xkcd"]?["last_refresh"]?.stringValue)
        XCTAssertEqual(info["sources"]?["xkcd"]?["last_refresh_failure"]?["reason"],
                       .string("cannot reach 127.0.0.1: couldn't connect to server"))
        XCTAssertEqual(info["sources"]?["books"]?["last_refresh"], .null)
        XCTAssertTrue(try comics.run(["info"]).stdout.contains("  refreshed   "), "and in the table")

        bringTheNetworkBack()
        XCTAssertEqual(try comics.run(["list"], clockOffset: "+2d").status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try comics.run(["list"], clockOffset: "+2d").stderr, "", "refreshed since: nothing to say")
    }

    func testMoreKeepsThePageSizeOfTheListItFollows() throws {
        XCTAssertEqual(try ids(try comics.run(["list", "-n", "50", "-f", "ndjson"])).count, 50)
        XCTAssertEqual(try ids(try comics.run(["more", "-f", "ndjson"])), Array((101...150).reversed()))
        XCTAssertEqual(try ids(try comics.run(["more", "-n", "5", "-f", "ndjson"])), Array((96...100).reversed()))
        XCTAssertEqual(try ids(try comics.run(["more", "-f", "ndjson"])).count, 5, "the last size given is kept")
        XCTAssertEqual(try ids(try comics.run(["list", "-f", "ndjson"])).count, 10)
        XCTAssertEqual(try ids(try comics.run(["more", "-f", "ndjson"])), Array((181...190).reversed()))
    }
}
