import ComicsKit
import Foundation
import TestSupport
import XCTest

/// A favourites file is a list of requests comics will make: its size, its
/// ids and what a later run fetches of it are bounded.
final class HostileFavoritesTests: EndToEndTestCase {
    /// None when the command refused before it made a database.
    private func favouriteCount() throws -> Int {
        guard FileManager.default.fileExists(atPath: comics.databasePath) else { return 0 }
        return try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM favorites")
    }

    private func write(_ text: String, to name: String) throws -> String {
        let file = comics.home.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The comic documents asked for, in order (`/N/info.0.json`).
    private func comicsAskedFor() throws -> [Int] {
        try server.requests().compactMap { path in
            let parts = path.split(separator: "/")
            return parts.count == 2 && parts[1] == "info.0.json" ? Int(parts[0]) : nil
        }
    }

    func testAFloodOfFavouritesIsRefusedBeforeAnyIsKept() throws {
        let flood = (1...200_000).map { "xkcd,\($0 % 1_000 + 1)" }
        let files = [
            try write((["source,id"] + flood).joined(separator: "\n") + "\n", to: "flood.csv"),
            try write((1...200_000).map { #"{"source":"books","id":\#($0)}"# }.joined(separator: "\n"), to: "flood.ndjson"),
            try write("[" + (1...200_000).map { #"{"source":"books","id":\#($0)}"# }.joined(separator: ",") + "]", to: "flood.json"),
        ]
        for file in files {
            let result = try comics.run(["fav", "import", file])
            XCTAssertEqual(result.status, 2, "\(result)")
            XCTAssertEqual(
                result.stderr,
                "comics: error: \(file) holds 200000 records, more than the 100000 one import takes; "
                    + "split it, or import only the favourites you want\n")
        }
        XCTAssertEqual(try favouriteCount(), 0)
        XCTAssertEqual(try server.requests(), [])
    }

    func testIdsBeyondASourcesNumberingAreRefused() throws {
        let result = try comics.run(["fav", "import", "-"], stdin: "source,id\nxkcd,5\nxkcd,1000001\n")
        XCTAssertEqual(result.status, 2, "\(result)")
        XCTAssertTrue(result.stderr.hasPrefix("comics: error: standard input row 3 has id 1000001; xkcd ids go from 1 to 1000000;"),
                      result.stderr)
        let books = try comics.run(["fav", "import", "-"], stdin: #"[{"source": "books", "id": 10000001}]"#)
        XCTAssertEqual(books.status, 2, "\(books)")
        XCTAssertTrue(books.stderr.contains("books ids go from 1 to 10000000"), books.stderr)
        for arguments in [["show", "1000001"], ["fav", "add", "books:99999999"], ["show", "https://xkcd.com/5000000/"]] {
            let refused = try comics.run(arguments)
            XCTAssertEqual(refused.status, 2, "\(arguments): \(refused)")
            XCTAssertTrue(refused.stderr.hasSuffix(" ids go from 1 to \(arguments.last?.hasPrefix("books") == true ? 10_000_000 : 1_000_000)\n"),
                          refused.stderr)
        }
        XCTAssertEqual(try favouriteCount(), 0)
        XCTAssertEqual(try server.requests(), [])
    }

    func testNoMoreThanAHundredThousandFavouritesAreKept() throws {
        let full = try write((["source,id"] + (1...100_000).map { "books,\($0)" }).joined(separator: "\n"), to: "full.csv")
        let imported = try comics.run(["--offline", "fav", "import", full])
        XCTAssertEqual(imported.status, 0, "\(imported)")
        XCTAssertEqual(try favouriteCount(), 100_000)

        let oneMore = try comics.run(["--offline", "fav", "add", "5"])
        XCTAssertEqual(oneMore.status, 2, "\(oneMore)")
        XCTAssertTrue(oneMore.stderr.hasPrefix("comics: error: that would make 100001 favourites; comics keeps at most 100000;"),
                      oneMore.stderr)
        let importedAgain = try comics.run(["--offline", "fav", "import", "-"], stdin: "source,id\nbooks,7\nxkcd,5\nxkcd,6\n")
        XCTAssertEqual(importedAgain.status, 2, "\(importedAgain)")
        XCTAssertTrue(importedAgain.stderr.hasPrefix("comics: error: that would make 100002 favourites"), importedAgain.stderr)
        XCTAssertEqual(try favouriteCount(), 100_000, "an import is all or nothing")
        XCTAssertEqual(try comics.run(["--offline", "fav", "add", "books:7"]).status, 0, "a favourite already is no new one")
        XCTAssertEqual(try comics.run(["--offline", "fav", "remove", "books:7"]).status, 0)
        XCTAssertEqual(try comics.run(["--offline", "fav", "add", "5"]).status, 0, "room again after a removal")
    }

    func testFavouritesNotCachedAreFetchedABatchARunAndAMissingOneOnceADay() throws {
        try requireClockControl()
        // 151–200 exist; the server's newest is 200, so 201–250 answer 404.
        let file = try write((["source,id"] + (151...250).map { "xkcd,\($0)" }).joined(separator: "\n"), to: "pending.csv")
        XCTAssertEqual(try comics.run(["--offline", "fav", "import", file]).status, 0)

        func runOnline(_ clockOffset: String) throws -> [Int] {
            let before = try comicsAskedFor().count
            XCTAssertEqual(try comics.run(["config", "get", "images"], clockOffset: clockOffset).status, 0)
            XCTAssertTrue(comics.waitForBackgroundWork())
            return try comicsAskedFor().dropFirst(before).sorted()
        }
        XCTAssertEqual(try runOnline("+0"), Array(151...214), "one batch of 64")
        XCTAssertEqual(try runOnline("+10s"), [], "the next batch waits a minute")
        XCTAssertEqual(try runOnline("+2m"), Array(215...250))
        XCTAssertEqual(try runOnline("+2h"), [], "an id upstream does not have is not asked for again the same day")
        XCTAssertEqual(try runOnline("+25h"), Array(201...250), "but it is the next day")

        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE source = 'xkcd'"), 50)
        XCTAssertEqual(try favouriteCount(), 100, "a favourite upstream lost is kept")
    }
}
