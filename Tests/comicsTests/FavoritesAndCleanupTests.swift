import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `fav` and `cleanup` from the built binary, checked in the database too.
final class FavoritesAndCleanupTests: EndToEndTestCase {
    func testFavToggleAddRemoveAndList() throws {
        let added = try comics.run(["fav", "150"])
        XCTAssertEqual(added.status, 0, "\(added)")
        XCTAssertEqual(added.stdout, "★ added xkcd:150 Grownups to favourites\n")
        XCTAssertEqual(try comics.run(["fav", "add", "150"]).stdout, "xkcd:150 Grownups is already a favourite\n")
        XCTAssertEqual(try comics.run(["fav", "add", "xkcd:1"]).status, 0)

        let listed = try comics.run(["fav", "list", "-f", "json"])
        let favorites = try JSONValue.parse(listed.stdout).arrayValue ?? []
        XCTAssertEqual(favorites.map { $0["id"] }, [.int(1), .int(150)])
        XCTAssertEqual(favorites.map { $0["favorite"] }, [.bool(true), .bool(true)])

        XCTAssertEqual(try comics.run(["fav", "150"]).stdout, "removed xkcd:150 Grownups from favourites\n")
        XCTAssertEqual(try comics.run(["fav", "remove", "150"]).stdout, "xkcd:150 Grownups is not a favourite\n")
        let table = try comics.run(["fav", "list"])
        XCTAssertEqual(table.stdoutLines, ["     REF DATE       TITLE", "★ xkcd:1 2006-01-01 Barrel - Part 1"])
    }

    func testAnEmptyFavouriteListSaysSoToPeopleOnly() throws {
        let table = try comics.run(["fav", "list"])
        XCTAssertEqual(table.status, 0)
        XCTAssertEqual(table.stdout, "")
        XCTAssertEqual(table.stderr, "comics: note: no favourites yet; mark one with 'comics fav REF'\n")
        XCTAssertEqual(try comics.run(["fav", "list", "-q"]).stderr, "")
        let json = try comics.run(["fav", "list", "-f", "json"])
        XCTAssertEqual(json.stdout, "[]\n")
        XCTAssertEqual(json.stderr, "")
    }

    func testFavOfAnUncachedItemFetchesItFirst() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "42"]).status, 0)
        XCTAssertEqual(try server.stats().hits["/42/info.0.json"], 1)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE id = 42"), 1)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites WHERE id = 42"), 1)
    }

    func testFavOfAMissingComicIsNotFoundAndRecordsNothing() throws {
        let result = try comics.run(["fav", "404"])
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM favorites"), 0)
    }

    func testCleanupNeverRemovesFavourites() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "195"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "7"]).status, 0)

        let dryRun = try comics.run(["cleanup", "--dry-run", "--max-age", "0s"])
        XCTAssertEqual(dryRun.status, 0, "\(dryRun)")
        XCTAssertTrue(dryRun.stdout.contains("would remove 9 items (xkcd 9); kept 2 favourites"), dryRun.stdout)
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM items"), 11)

        let cleaned = try comics.run(["cleanup", "--max-items", "0"], clockOffset: "+31d")
        XCTAssertEqual(cleaned.status, 0, "\(cleaned)")
        XCTAssertTrue(cleaned.stdout.hasPrefix("removed 9 items (xkcd 9); kept 2 favourites; max age 30d, max 0 items per source; "), cleaned.stdout)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.rows("SELECT id FROM items ORDER BY id").map { $0[0] }, ["7", "195"])
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 2)
    }

    func testCleanupKeepsTheNewestWithinMaxItems() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "2"], clockOffset: "+1m").status, 0)
        XCTAssertEqual(try comics.run(["show", "3"], clockOffset: "+2m").status, 0)
        let result = try comics.run(["cleanup", "--max-items", "1", "--format", "json"], clockOffset: "+3m")
        let removed = try JSONValue.parse(result.stdout)["removed"]?.arrayValue?.map { $0["id"] }
        XCTAssertEqual(removed, [.int(1), .int(2)])
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).rows("SELECT id FROM items").map { $0[0] }, ["3"])
    }

    /// A sync gives the whole archive one refresh time: max-items goes by
    /// use (shown, listed, found), then by number, never by that time.
    func testCleanupByCountRemovesTheLeastRecentlyUsedFirst() throws {
        XCTAssertEqual(try comics.run(["sync", "--quiet"]).status, 0)
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "5"]).status, 0)
        XCTAssertEqual(try comics.run(["search", "velociraptor", "-n", "1"]).status, 0)
        let found = try DatabaseProbe(path: comics.databasePath).rows("SELECT id FROM items WHERE used_at IS NOT NULL ORDER BY id")
            .map { Int($0[0]) ?? 0 }
        XCTAssertEqual(found.count, 12, "the listed ten, the shown one, the found one: \(found)")
        let dryRun = try comics.run(["cleanup", "--max-items", "12", "--dry-run", "--format", "json"])
        XCTAssertEqual(dryRun.status, 0, "\(dryRun)")
        let removed = try XCTUnwrap(JSONValue.parse(dryRun.stdout)["removed"]?.arrayValue).compactMap { $0["id"]?.intValue }
        XCTAssertEqual(removed.count, 188)
        XCTAssertEqual(Set(removed).intersection(found), [], "nothing used is removed while unused ones remain")
        XCTAssertEqual(Array(removed.prefix(4)), Array((1...200).filter { !found.contains($0) }.prefix(4)), "then the oldest published")
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "12"]).status, 0)
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).rows("SELECT id FROM items ORDER BY id").map { Int($0[0]) ?? 0 }, found)
    }

    /// Use is recorded once a day per item, so a read run again is a read.
    func testUseIsRecordedOnceADay() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list", "-n", "3"]).status, 0)
        let probe = try DatabaseProbe(path: comics.databasePath)
        let first = try probe.rows("SELECT id, used_at FROM items ORDER BY id")
        XCTAssertEqual(first.count, 3)
        XCTAssertFalse(first.contains { $0[1].isEmpty }, "\(first)")
        XCTAssertEqual(try comics.run(["--offline", "list", "-n", "3"]).status, 0)
        XCTAssertEqual(try probe.rows("SELECT id, used_at FROM items ORDER BY id"), first, "the same day: not written again")
        XCTAssertEqual(try comics.run(["--offline", "show", "200"], clockOffset: "+1d").status, 0)
        let later = try probe.rows("SELECT id, used_at FROM items ORDER BY id")
        XCTAssertNotEqual(later.last?[1], first.last?[1], "the next day, a use is recorded again")
        XCTAssertEqual(Array(later.prefix(2)), Array(first.prefix(2)))
    }

    func testCleanupQuietPrintsNothingAndBadLimitsAreUsageErrors() throws {
        let quiet = try comics.run(["cleanup", "--quiet"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "")
        let badAge = try comics.run(["cleanup", "--max-age", "soon"])
        XCTAssertEqual(badAge.status, 2)
        XCTAssertTrue(badAge.stderr.hasPrefix("comics: error: --max-age must be a duration"))
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "-3"]).status, 2)
    }

    func testAutomaticCleanupRunsInTheBackgroundOnceADay() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "2"], clockOffset: "+40d").status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.rows("SELECT id FROM items ORDER BY id").map { $0[0] }, ["2"], "comic 1 expired")
    }
}
