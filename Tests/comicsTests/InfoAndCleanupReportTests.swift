import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `comics info` and the report `cleanup --format json` gives scripts.
final class InfoAndCleanupReportTests: EndToEndTestCase {
    func testInfoOnAnEmptyDatabase() throws {
        let result = try comics.run(["info", "-f", "json"])
        XCTAssertEqual(result.status, 0, "\(result)")
        let info = try JSONValue.parse(result.stdout)
        XCTAssertEqual(info["database"], .string(comics.databasePath))
        XCTAssertEqual(info["schema_version"], .int(SQLiteCacheStore.schemaVersion))
        XCTAssertEqual(info["quick_check"], .string("ok"))
        XCTAssertEqual(info["last_cleanup"], .null)
        XCTAssertGreaterThan(info["size_bytes"]?.intValue ?? 0, 0)
        for source in ["xkcd", "books"] {
            XCTAssertEqual(info["sources"]?[source]?["items"], .int(0))
            XCTAssertEqual(info["sources"]?[source]?["oldest_cached_at"], .null)
        }
        XCTAssertEqual(info["images"]?["files"], .int(0))

        let table = try comics.run(["info"])
        XCTAssertEqual(table.stdoutLines.first, "database      \(comics.databasePath)")
        XCTAssertTrue(table.stdout.contains("\nxkcd          0 items, 0 favourites\n"), table.stdout)
        XCTAssertTrue(table.stdout.hasSuffix("last cleanup  never\n"), table.stdout)
        XCTAssertEqual(try comics.run(["info", "-f", "csv"]).status, 2)
    }

    func testInfoOnAFullDatabase() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list", "-n", "5"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "1"], clockOffset: "-2d").status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "199"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:1342"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "1000"]).status, 0)

        let info = try JSONValue.parse(try comics.run(["info", "-f", "json"]).stdout)
        let xkcd = info["sources"]?["xkcd"]
        XCTAssertEqual(xkcd?["items"], .int(6))
        XCTAssertEqual(xkcd?["favorites"], .int(1))
        let oldest = try XCTUnwrap(xkcd?["oldest_cached_at"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) })
        let newest = try XCTUnwrap(xkcd?["newest_cached_at"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) })
        XCTAssertEqual(newest.timeIntervalSince(oldest), 2 * 86400, accuracy: 120, "show 1 ran two days earlier")
        XCTAssertEqual(info["sources"]?["books"]?["items"], .int(32))
        XCTAssertEqual(info["sources"]?["books"]?["favorites"], .int(1))
        XCTAssertNotEqual(info["last_cleanup"], .null)
        XCTAssertNotNil(try? Date(info["last_cleanup"]?.stringValue ?? "", strategy: .iso8601))
        let ndjson = try comics.run(["info", "-f", "ndjson"])
        XCTAssertEqual(ndjson.stdoutLines.count, 1)
        XCTAssertEqual(try JSONValue.parse(ndjson.stdout)["sources"], info["sources"])
    }

    func testCleanupReportsInJSONAndTheDatabaseShrinks() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "120"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "150"]).status, 0)
        let before = try fileSize(comics.databasePath)

        let dry = try JSONValue.parse(try comics.run(["cleanup", "--dry-run", "--max-age", "0s", "-f", "json"]).stdout)
        XCTAssertEqual(dry["dry_run"], .bool(true))
        XCTAssertEqual(dry["removed"]?.arrayValue?.count, 119)
        XCTAssertEqual(dry["database_bytes_after"], .null)

        let sizeInfoShows = try JSONValue.parse(try comics.run(["info", "-f", "json"]).stdout)["size_bytes"]?.intValue
        let result = try comics.run(["cleanup", "--max-age", "0s", "-f", "json"])
        XCTAssertEqual(result.status, 0, "\(result)")
        let report = try JSONValue.parse(result.stdout)
        XCTAssertEqual(report["dry_run"], .bool(false))
        XCTAssertEqual(report["removed"]?.arrayValue?.count, 119)
        XCTAssertEqual(report["removed"]?.arrayValue?.first?["source"], .string("xkcd"))
        XCTAssertEqual(report["favorites_kept"], .int(1))
        XCTAssertEqual(report["limits"]?["xkcd"]?["max_age"], .string("0s"))
        XCTAssertEqual(report["limits"]?["books"]?["max_items"], .int(500))
        let after = try XCTUnwrap(report["database_bytes_after"]?.intValue)
        XCTAssertLessThan(after, try XCTUnwrap(report["database_bytes_before"]?.intValue))
        XCTAssertEqual(report["database_bytes_before"]?.intValue, sizeInfoShows, "the size info showed")
        XCTAssertLessThan(try fileSize(comics.databasePath), before, "the file itself shrank")
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).rows("SELECT id FROM items").map { $0[0] }, ["150"])

        let csv = try comics.run(["cleanup", "-f", "csv"])
        XCTAssertEqual(csv.stdout, "source,id,cached_at\r\n", "nothing left to remove: a header alone")
    }

    func testAnOldDatabaseIsRebuiltOnceToShrink() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "150"]).status, 0)
        try DatabaseProbe.execute(on: comics.databasePath, "PRAGMA auto_vacuum = NONE; VACUUM;")
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).scalar("PRAGMA auto_vacuum"), "0")
        let before = try fileSize(comics.databasePath)

        let cleanup = try comics.run(["cleanup", "--max-age", "0s"])
        XCTAssertTrue(cleanup.stdout.contains("; the database shrank from "), cleanup.stdout)
        XCTAssertLessThan(try fileSize(comics.databasePath), before / 2)
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).scalar("PRAGMA auto_vacuum"), "2", "incremental from now on")
    }

    private func fileSize(_ path: String) throws -> Int {
        let main = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return main + wal
    }
}
