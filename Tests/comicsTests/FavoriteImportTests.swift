import ComicsKit
import Foundation
import TestSupport
import XCTest
@testable import comics

/// `comics fav import`: the export read back, merged, idempotent, and
/// all-or-nothing when the file is bad.
final class FavoriteImportTests: EndToEndTestCase {
    private func markFavourites() throws {
        for ref in ["150", "3", "books:1342", "books:84"] {
            XCTAssertEqual(try comics.run(["fav", "add", ref]).status, 0)
        }
    }

    private func favouriteCount() throws -> Int {
        try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM favorites")
    }

    /// The export without `cached_at`, the only field allowed to differ.
    private func exportWithoutCachedAt(format: String) throws -> String {
        let export = try comics.run(["fav", "list", "-f", format])
        XCTAssertEqual(export.status, 0, "\(export)")
        switch format {
        case "json", "ndjson":
            let records = format == "json"
                ? try JSONValue.parse(export.stdout).arrayValue ?? []
                : try export.stdoutLines.map { try JSONValue.parse($0) }
            return records.map { record -> String in
                guard case let .object(members) = record else { return "" }
                return JSONValue.object(members.filter { $0.0 != "cached_at" }).serialized
            }.joined(separator: "\n")
        default:
            let rows = try DelimitedText.rows(export.stdout, separator: format == "csv" ? "," : "\t", label: format)
            let column = try XCTUnwrap(rows.first?.firstIndex(of: "cached_at"))
            return rows.map { row in
                var cells = row
                cells.remove(at: column)
                return cells.joined(separator: "|")
            }.joined(separator: "\n")
        }
    }

    func testRoundTripThroughAnEmptyDatabaseInEveryFormat() throws {
        try markFavourites()
        let original = comics.databasePath
        for format in ["json", "ndjson", "csv", "tsv"] {
            comics.environment["COMICS_DB"] = original
            let expected = try exportWithoutCachedAt(format: format)
            let file = comics.home.file("favourites.\(format)")
            try Data(try comics.run(["fav", "list", "-f", format]).stdout.utf8).write(to: URL(fileURLWithPath: file))

            try FileManager.default.createDirectory(atPath: comics.home.file(format), withIntermediateDirectories: true)
            comics.environment["COMICS_DB"] = comics.home.file("\(format)/comics.db")
            let imported = try comics.run(["fav", "import", file])
            XCTAssertEqual(imported.status, 0, "\(imported)")
            XCTAssertEqual(imported.stdout, "added 4 favourites (books 2, xkcd 2); 0 were favourites already\n")
            XCTAssertEqual(try exportWithoutCachedAt(format: format), expected, format)

            let again = try comics.run(["fav", "import", file])
            XCTAssertEqual(again.stdout, "added 0 favourites; 4 were favourites already\n", "idempotent")
            XCTAssertEqual(try favouriteCount(), 4)
        }
    }

    /// A cell a spreadsheet would run as a formula is written behind a `'`
    /// in CSV and TSV, and read back as it was.
    func testFormulaCellsAreNeutralisedAndReadBack() throws {
        let titles = ["=cmd|' /C calc'!A0", "=HYPERLINK(\"http://evil.example/\",\"x\")", "+1+1", "-2-2", "@SUM(A1)",
                      "'=quoted already", "''+twice", "'plain quote", "fine - title"]
        try server.control(.object([
            ("latest", .int(200 + titles.count)),
            ("comics", .object(titles.enumerated().map { (String(201 + $0), FixtureServer.comic(201 + $0, title: $1)) })),
        ]))
        for number in 201...(200 + titles.count) { XCTAssertEqual(try comics.run(["fav", "add", String(number)]).status, 0) }
        for (format, separator) in [("csv", ","), ("tsv", "\t")] {
            let export = try comics.run(["fav", "list", "-f", format]).stdout
            let written = export.split(separator: format == "csv" ? "\r\n" : "\n").dropFirst()
                .map { $0.split(separator: Character(separator), omittingEmptySubsequences: false)[2] }
            for cell in written {
                let text = cell.hasPrefix("\"") ? cell.dropFirst() : cell
                XCTAssertFalse(["=", "+", "-", "@", "\t"].contains(text.first.map(String.init) ?? ""), "\(format): \(cell)")
            }
            XCTAssertTrue(export.contains("'=cmd|' /C calc'!A0"), export)
            let rows = try DelimitedText.rows(export, separator: Character(separator), label: format)
            let readBack = format == "csv" ? rows.dropFirst().map { $0[2] } : DelimitedText.tsvRows(export).dropFirst().map { $0[2] }
            XCTAssertEqual(readBack.sorted(), titles.sorted(), format)
            let file = comics.home.file("favourites.\(format)")
            try Data(export.utf8).write(to: URL(fileURLWithPath: file))
            comics.environment["COMICS_DB"] = comics.home.file("data/\(format).db")
            let imported = try comics.run(["--offline", "fav", "import", file])
            XCTAssertEqual(imported.status, 0, "\(imported)")
            XCTAssertEqual(try favouriteCount(), titles.count)
            comics.environment["COMICS_DB"] = comics.home.file("data/comics.db")
        }
    }

    /// For any cell, in CSV and TSV: what is written never begins like a
    /// formula, and reading it back gives the cell (controls the writers
    /// drop aside).
    func testAnyCellRoundTripsAndNoneStartsAFormula() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["=", "+", "-", "@", "'", "\t", "a", ",", "\"", " ", "\n", "é", "\\", "1"]
        for _ in 0..<3_000 {
            let cell = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let record = JSONValue.object([("source", .string("xkcd")), ("id", .int(1)), ("title", .string(cell))])
            for (format, separator) in [(OutputFormat.csv, Character(",")), (.tsv, "\t")] {
                let written = Records.render([record], as: format, columns: ["source", "id", "title"])
                let rows = format == .csv ? try DelimitedText.rows(written, separator: separator, label: "csv") : DelimitedText.tsvRows(written)
                XCTAssertEqual(rows.last?.last, cell, "\(format) \(cell.debugDescription): \(written.debugDescription)")
                let start = try XCTUnwrap(written.range(of: "xkcd\(separator)1\(separator)")).upperBound
                let raw = written[start...]
                let first = raw.unicodeScalars.first { $0 != "\"" }
                XCTAssertFalse(first.map { ["=", "+", "-", "@", "\t"].contains($0) } ?? false, "\(format): \(raw.debugDescription)")
            }
        }
    }

    func testImportMergesWithExistingFavouritesAndReadsStandardInput() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        let result = try comics.run(["fav", "import", "-", "-f", "json"], stdin: #"source,id,title\#nxkcd,1,ignored\#nxkcd,2,"a title, with a comma and ""quotes"""\#nbooks,1342,\#n"#)
        XCTAssertEqual(result.status, 0, "\(result)")
        let report = try JSONValue.parse(result.stdout)
        XCTAssertEqual(report["added"], .array([.string("xkcd:2"), .string("books:1342")]))
        XCTAssertEqual(report["already_favorites"], .int(1))
        let listed = try JSONValue.parse(try comics.run(["fav", "list", "-f", "json"]).stdout).arrayValue ?? []
        XCTAssertEqual(listed.map { $0["title"] }, [.string("Pride and Prejudice"), .string("Barrel - Part 1"), .string("Petit Trees (sketch)")])
    }

    func testMalformedFilesAreRefusedAndChangeNothing() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        let before = try server.requests().count
        let cases: [(String, String)] = [
            (#"[{"source": "xkcd", "id": 2}, {"source": "xkcd"}]"#, "FILE record 2 has no id, or one that is not a positive whole number"),
            (#"[{"source": "xkcd", "id": 2}"#, "FILE is not valid JSON"),
            ("{\"source\": \"xkcd\", \"id\": 2}\n{\"source\": \"xkcd\", \"id\": \n", "FILE line 2 is not valid JSON"),
            ("source,id\nxkcd,2\nmarvel,3\n", "FILE row 3 names an unknown source 'marvel'"),
            ("source,id\nxkcd,2\nxkcd,-4\n", "FILE row 3 has no id, or one that is not a positive whole number"),
            ("source,id\nxkcd,2,extra\n", "FILE row 2 has 3 fields where the header has 2"),
            ("source,id,title\nxkcd,2,\"never closed\n", "FILE ends inside a quoted field"),
            ("hello, I am a letter\nnot a list\n", "FILE is neither JSON nor CSV/TSV with a header naming source and id"),
            (#"{"favorites": [1, 2]}"#, "FILE has no source"),
        ]
        for (index, (content, message)) in cases.enumerated() {
            let file = comics.home.file("bad\(index)")
            try Data(content.utf8).write(to: URL(fileURLWithPath: file))
            let result = try comics.run(["fav", "import", file])
            XCTAssertEqual(result.status, 2, "\(content): \(result)")
            XCTAssertTrue(result.stderr.hasPrefix("comics: error: " + message.replacingOccurrences(of: "FILE", with: file)), result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        try Data([0x5B, 0xFF, 0xFE, 0x5D]).write(to: URL(fileURLWithPath: comics.home.file("binary")))
        XCTAssertEqual(
            try comics.run(["fav", "import", comics.home.file("binary")]).stderr,
            "comics: error: \(comics.home.file("binary")) is not UTF-8 text; "
                + "'comics fav import' reads what 'comics fav list --format json|ndjson|csv|tsv' writes\n")
        let missing = try comics.run(["fav", "import", comics.home.file("absent.json")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "comics: error: cannot read \(comics.home.file("absent.json")): No such file or directory\n")
        XCTAssertEqual(try comics.run(["fav", "import"]).status, 2)

        XCTAssertEqual(try favouriteCount(), 1, "nothing was imported")
        XCTAssertEqual(try server.requests().count, before, "nothing was fetched")
    }

    func testOfflineImportRecordsFavouritesAndAnOnlineCommandFetchesThem() throws {
        let file = comics.home.file("favourites.json")
        try Data(#"[{"source": "xkcd", "id": 150}, {"source": "books", "id": 1342}]"#.utf8).write(to: URL(fileURLWithPath: file))
        let offline = try comics.run(["--offline", "fav", "import", file])
        XCTAssertEqual(offline.status, 0, "\(offline)")
        XCTAssertEqual(offline.stderr, "comics: warning: 2 favourites are not cached yet and will be fetched when online\n")
        XCTAssertEqual(try server.requests(), [])

        let listed = try comics.run(["--offline", "fav", "list", "-f", "json"])
        let records = try JSONValue.parse(listed.stdout).arrayValue ?? []
        XCTAssertEqual(records.map { $0["id"] }, [.int(1342), .int(150)])
        XCTAssertEqual(records[1]["url"], .string("https://xkcd.com/150/"))
        XCTAssertEqual(records[1]["title"], .null)
        XCTAssertEqual(records[1]["stale"], .bool(true))
        XCTAssertEqual(try comics.run(["--offline", "info", "-f", "json"]).stdout.contains(#""favorites_not_cached": 1"#), true)

        XCTAssertEqual(try comics.run(["config", "get", "images"]).status, 0, "any command run online")
        XCTAssertTrue(comics.waitForBackgroundWork())
        let titles = try JSONValue.parse(try comics.run(["--offline", "fav", "list", "-f", "json"]).stdout).arrayValue?.map { $0["title"] }
        XCTAssertEqual(titles, [.string("Pride and Prejudice"), .string("Grownups")])
    }

    func testTheNetworkFailingMidImportKeepsTheFavouritesForLater() throws {
        try server.control(.object([("fault", .string("500")), ("count", .int(100))]))
        let result = try comics.run(["fav", "import", "-"], stdin: "source,id\nxkcd,150\n")
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertTrue(result.stderr.hasSuffix("1 favourite is not cached yet and will be fetched when online\n"), result.stderr)
        XCTAssertEqual(try favouriteCount(), 1)
    }

    func testItemsUpstreamDoesNotHaveAreNotImported() throws {
        let result = try comics.run(["fav", "import", "-"], stdin: "source,id\nxkcd,404\nxkcd,150\n")
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.stdout, "added 1 favourite (xkcd 1); 0 were favourites already\n")
        XCTAssertEqual(result.stderr, "comics: warning: not imported, upstream has no such item: xkcd:404\n")
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).rows("SELECT id FROM favorites").map { $0[0] }, ["150"])
    }

    func testAProgressLineOnATerminal() throws {
        let file = comics.home.file("favourites.csv")
        try Data("source,id\nxkcd,1\nxkcd,2\nxkcd,3\n".utf8).write(to: URL(fileURLWithPath: file))
        let onTerminal = try comics.shell("script -qec \"$COMICS fav import \(file)\" /dev/null")
        XCTAssertEqual(onTerminal.status, 0, "\(onTerminal)")
        XCTAssertTrue(onTerminal.stdout.contains("\rfetching favourites: 3/3\u{1B}[K"), onTerminal.stdout.debugDescription)
        let piped = try comics.run(["fav", "import", file])
        XCTAssertEqual(piped.stderr, "", "no progress off a terminal")
    }
}
