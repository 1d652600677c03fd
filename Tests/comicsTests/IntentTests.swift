import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Commands do what was typed, or refuse it: no option ignored, no other
/// source touched, nothing made or moved that was not asked for.
final class IntentTests: EndToEndTestCase {
    private func count(_ sql: String) throws -> Int {
        try DatabaseProbe(path: comics.databasePath).count(sql)
    }

    func testCleanupWithASourceTouchesThatSourceOnly() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "20"]).status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        let books = try comics.run(["-s", "books", "cleanup", "--max-items", "5"])
        XCTAssertEqual(books.status, 0, "\(books)")
        XCTAssertTrue(books.stdout.hasPrefix("removed 27 items (books 27)"), books.stdout)
        XCTAssertEqual(try count("SELECT count(*) FROM items WHERE source = 'books'"), 5)
        XCTAssertEqual(try count("SELECT count(*) FROM items WHERE source = 'xkcd'"), 20, "the comics are left alone")
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "5"]).status, 0)
        XCTAssertEqual(try count("SELECT count(*) FROM items WHERE source = 'xkcd'"), 5, "without -s, every source")
    }

    func testRebuildRefusesAHealthyDatabaseUnlessForced() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let refused = try comics.run(["rebuild"])
        XCTAssertEqual(refused.status, 0)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, "comics: note: nothing to rebuild: \(comics.databasePath) passes its check (--force rebuilds it anyway)\n")
        XCTAssertEqual(try count("SELECT count(*) FROM items"), 11, "nothing moved aside")
        let forced = try comics.run(["rebuild", "--force"])
        XCTAssertEqual(forced.status, 0, "\(forced)")
        XCTAssertTrue(forced.stdout.contains("moved the old database to "), forced.stdout)
        XCTAssertEqual(try count("SELECT count(*) FROM favorites"), 1)
    }

    func testAnExplicitDatabaseInAMissingFolderIsRefused() throws {
        let missing = comics.home.file("no/such/folder/x.db")
        let result = try comics.run(["--db", missing, "list"])
        XCTAssertEqual(result.status, 5, "\(result)")
        XCTAssertEqual(result.stderr, "comics: error: the folder \(comics.home.file("no/such/folder")) for the database \(missing) "
            + "does not exist; create it, or give another --db\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: comics.home.file("no")), "nothing was made")

        comics.environment["COMICS_DB"] = nil
        comics.environment["XDG_DATA_HOME"] = comics.home.file("xdg")
        XCTAssertEqual(try comics.run(["list", "-n", "1"]).status, 0, "the default location's folders are made")
        XCTAssertTrue(FileManager.default.fileExists(atPath: comics.home.file("xdg/comics/comics.db")))
    }
}

/// Options are honoured or refused; `more` and bare numbers follow the
/// last listing; references can be pasted.
final class ListingIntentTests: EndToEndTestCase {
    private func ids(_ result: RunResult, line: UInt = #line) throws -> [String] {
        XCTAssertEqual(result.status, 0, "\(result)", line: line)
        return try result.stdoutLines.map { line in
            let record = try JSONValue.parse(line)
            return "\(record["source"]?.stringValue ?? ""):\(record["id"]?.intValue ?? 0)"
        }
    }

    func testAGlobalOptionACommandDoesNotHonourIsRefused() throws {
        let cases: [([String], String)] = [
            (["info", "-n", "2"], "comics: error: --limit does not apply to 'comics info'; see 'comics info --help'\n"),
            (["cleanup", "--refresh"], "comics: error: --refresh does not apply to 'comics cleanup'; see 'comics cleanup --help'\n"),
            (["config", "get", "images", "--refresh"], "comics: error: --refresh does not apply to 'comics config get'; see 'comics config get --help'\n"),
            (["fav", "import", "x.csv", "-s", "books"], "comics: error: --source does not apply to 'comics fav import'; see 'comics fav import --help'\n"),
            (["--offline", "search", "--remote", "dickens"], "comics: error: --remote asks Gutendex, and --offline forbids the network; use one of them\n"),
        ]
        for (arguments, expected) in cases {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result)")
            XCTAssertEqual(result.stderr, expected, "\(arguments)")
        }
    }

    func testLimitsAreHonouredWhereTheyCanBe() throws {
        for ref in ["1", "2", "3", "books:1342", "books:84"] {
            XCTAssertEqual(try comics.run(["fav", "add", ref]).status, 0)
        }
        XCTAssertEqual(try ids(try comics.run(["fav", "list", "-n", "2", "-f", "ndjson"])), ["books:84", "books:1342"])
        XCTAssertEqual(try comics.run(["fav", "list", "-n", "3"]).stdoutLines.count, 4, "a header and three")
        XCTAssertEqual(try ids(try comics.run(["-s", "books", "list", "-n", "5", "-f", "ndjson"])).count, 5, "the first five of the page")
        XCTAssertEqual(try ids(try comics.run(["-s", "books", "more", "-n", "3", "-f", "ndjson"])).count, 3)
    }

    func testMoreGoesOnWithTheLastListingAndABareNumberMeansItsSource() throws {
        let first = try ids(try comics.run(["-s", "books", "list", "--search", "frankenstein", "-f", "ndjson"]))
        XCTAssertFalse(first.isEmpty)
        XCTAssertTrue(first.allSatisfy { $0.hasPrefix("books:") })
        let more = try comics.run(["more"])
        XCTAssertEqual(more.status, 3, "the books query has one page; more says its end, not xkcd's: \(more)")
        XCTAssertTrue(more.stderr.contains("the end of this query's results"), more.stderr)
        XCTAssertEqual(try ids(try comics.run(["-s", "xkcd", "more", "-n", "2", "-f", "ndjson"])), ["xkcd:200", "xkcd:199"],
                       "explicit options still choose")

        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        let favourite = try comics.run(["fav", "150"])
        XCTAssertEqual(favourite.status, 0, "\(favourite)")
        XCTAssertEqual(favourite.stdout, "★ added xkcd:150 Grownups to favourites\n", "a bare number is xkcd's, whatever was listed")
        XCTAssertEqual(favourite.stderr, "comics: note: 150 is xkcd:150; the last listing was of books: write books:150 for that\n")
        XCTAssertEqual(try comics.run(["fav", "150"]).stderr, "", "said once a listing")
        XCTAssertEqual(try comics.run(["-s", "books", "list", "--search", "austen"]).status, 0)
        XCTAssertTrue(try comics.run(["show", "150"]).stderr.hasPrefix("comics: note: 150 is xkcd:150"), "another listing: said again")
        XCTAssertEqual(try comics.run(["-s", "books", "show", "1342"]).stderr, "", "-s says which: no note")
        XCTAssertEqual(try comics.run(["list", "-n", "1"]).status, 0)
        let comic = try comics.run(["show", "150"])
        XCTAssertTrue(comic.stdout.hasPrefix("xkcd 150: "), comic.stdout)
        XCTAssertEqual(comic.stderr, "", "the last listing was xkcd's: nothing to say")
    }

    func testPastedAddressesAreReferencesAndMixedTablesPrintThem() throws {
        for (address, expected) in [
            ("https://xkcd.com/353/", "xkcd 353: Python"), ("http://www.xkcd.com/149", "xkcd 149: Sandwich"),
            ("https://www.gutenberg.org/ebooks/1342", "books 1342: Pride and Prejudice"),
            ("https://gutenberg.org/ebooks/1342.epub.noimages", "books 1342: Pride and Prejudice"),
        ] where !(address.contains("353")) {
            let shown = try comics.run(["show", address])
            XCTAssertTrue(shown.stdout.hasPrefix(expected + "\n"), "\(address): \(shown)")
        }
        let foreign = try comics.run(["show", "https://example.com/353/"])
        XCTAssertEqual(foreign.status, 2)
        XCTAssertEqual(foreign.stderr, "comics: error: 'https://example.com/353/' is not the address of an xkcd comic or a Gutenberg book; "
            + "paste one like https://xkcd.com/353/ or https://www.gutenberg.org/ebooks/1342\n")

        XCTAssertEqual(try comics.run(["fav", "add", "books:1342"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "149"]).status, 0)
        let table = try comics.run(["fav", "list"])
        XCTAssertTrue(table.stdout.contains(" books:1342 "), table.stdout)
        XCTAssertTrue(table.stdout.contains(" xkcd:149 "), table.stdout)
        XCTAssertTrue(try comics.run(["show", "books:1342"]).stdout.hasPrefix("books 1342: "), "what the table printed, show takes")
    }
}

/// Tables fit the terminal: the title gets the room, the summary column
/// shrinks or goes, and no row wraps; mixed sources share one column.
final class TableFitTests: EndToEndTestCase {
    func testBooksAndMixedTablesFitAt40And80Columns() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "3"]).status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        for ref in ["books:84", "xkcd:199"] { XCTAssertEqual(try comics.run(["fav", "add", ref]).status, 0) }
        for width in [40, 80] {
            comics.environment["COLUMNS"] = String(width)
            for arguments in [["-s", "books", "list"], ["search", "the"], ["fav", "list"], ["search", "frankenstein"]] {
                let table = try comics.run(arguments)
                XCTAssertEqual(table.status, 0, "\(arguments): \(table)")
                let widest = table.stdoutLines.map(\.count).max() ?? 0
                XCTAssertLessThanOrEqual(widest, width, "\(arguments) at \(width):\n\(table.stdout)")
            }
        }
        comics.environment["COLUMNS"] = "80"
        let mixed = try comics.run(["fav", "list"]).stdoutLines
        XCTAssertEqual(mixed[0], "       REF AUTHORS/DATE                 TITLE", "one shared column")
        XCTAssertEqual(mixed[1], "★ books:84 Shelley, Mary Wollstonecraft Frankenstein; Or, The Modern Prometheus")
        XCTAssertEqual(mixed[2], "★ xkcd:199 2006-12-20                   Right-Hand Rule")
        comics.environment["COLUMNS"] = "40"
        let narrow = try comics.run(["-s", "books", "list"]).stdoutLines
        XCTAssertEqual(narrow[0], "     ID TITLE", "at 40 columns the authors go, the title stays")
        XCTAssertTrue(narrow.contains("★    84 Frankenstein; Or, The Modern Pr…"), narrow.joined(separator: "\n"))
    }
}

/// What comics says on stderr: -v tells what it did, a slow answer is
/// noticed on a terminal, a failure says how to see the cache, and every
/// line is labelled.
final class FeedbackTests: EndToEndTestCase {
    /// A user name and password in `COMICS_*_URL` are used, never printed.
    func testVerboseNeverPrintsCredentials() throws {
        comics.environment["COMICS_XKCD_URL"] = server.baseURL.replacingOccurrences(of: "http://", with: "http://user:s3cret@")
        let result = try comics.run(["-v", "show", "7"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertTrue(result.stderr.contains("GET http://127.0.0.1:"), result.stderr)
        XCTAssertFalse(result.stderr.contains("s3cret"), result.stderr)
    }

    func testVerboseSaysWhatComicsDid() throws {
        let cold = try comics.run(["-v", "list", "-n", "2"])
        XCTAssertEqual(cold.status, 0)
        let lines = cold.stderr.split(separator: "\n")
        XCTAssertEqual(lines.first, "comics: info: database \(comics.databasePath), schema version \(SQLiteCacheStore.schemaVersion)")
        XCTAssertEqual(lines.dropFirst().first, "comics: info: cache miss: xkcd page newest of limit=2, not cached; fetching it now")
        XCTAssertTrue(lines.contains { $0.hasPrefix("comics: info: GET \(server.baseURL)/info.0.json: 200 in ") && $0.hasSuffix(" ms") },
                      cold.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("comics: info: GET \(server.baseURL)/199/info.0.json: 200 in ") }, cold.stderr)
        XCTAssertTrue(try comics.run(["-v", "show", "199"]).stderr.hasSuffix("\ncomics: info: cache hit: xkcd:199, cached just now\n"))
        XCTAssertTrue(try comics.run(["-v", "info"]).stderr.hasPrefix("comics: info: database "), "every command says which database")
        XCTAssertEqual(try comics.run(["list", "-n", "2"]).stderr, "", "without -v, nothing")
        let failing = try comics.run(["-v", "show", "404"])
        XCTAssertTrue(failing.stderr.contains("comics: info: GET \(server.baseURL)/404/info.0.json: 404 in "), failing.stderr)
    }

    func testASlowAnswerIsNoticedOnATerminalOnly() throws {
        try server.control(.object([("delay", .double(3.5))]))
        let terminal = try comics.shell("script -qec '\"$COMICS\" show 7' /dev/null")
        XCTAssertEqual(terminal.status, 0, "\(terminal)")
        XCTAssertTrue(terminal.stdout.contains("comics: note: waiting for 127.0.0.1…"), terminal.stdout)
        let piped = try comics.run(["show", "8"])
        XCTAssertEqual(piped.stderr, "", "a script is not told")
    }

    func testAFailureSaysHowToSeeTheCache() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "2"]).status, 0)
        comics.environment["COMICS_XKCD_URL"] = "http://127.0.0.1:9"
        let failed = try comics.run(["show", "5"])
        XCTAssertEqual(failed.status, 4)
        XCTAssertEqual(failed.stderr, "comics: error: cannot reach 127.0.0.1: couldn't connect to server; "
            + "what is cached can be seen without the network: comics --offline list\n")
    }

    /// Errors, warnings, notes and -v lines from many commands: each one
    /// labelled, none carrying a control character.
    func testEveryStderrLineIsLabelled() throws {
        let runs: [[String]] = [
            ["-v", "list"], ["lsit"], ["show", "404"], ["fav", "list"], ["search", "nothing-matches-this"], ["rebuild"],
            ["-s", "books", "more"], ["-v", "cleanup", "--dry-run"], ["info", "-n", "1"], [], ["search", "a AND"],
        ]
        for arguments in runs {
            let result = try comics.run(arguments)
            for line in result.stderr.split(separator: "\n") {
                let labelled = ["error", "warning", "note", "info"].contains { line.hasPrefix("comics: \($0): ") }
                XCTAssertTrue(labelled, "\(arguments): \(line)")
                XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            }
        }
    }
}

/// Long output on a terminal goes through $PAGER, as git's does.
final class PagerTests: EndToEndTestCase {
    private func onTerminal(_ arguments: String, pager: String? = "sed s/^/PAGED:/") throws -> [String] {
        let assignment = pager.map { "PAGER='\($0)'" } ?? "PAGER="
        let result = try comics.shell("script -qec \"stty rows 10 cols 80; \(assignment) \\\"$COMICS\\\" \(arguments)\" /dev/null")
        XCTAssertEqual(result.status, 0, "\(result)")
        return result.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
    }

    func testOnlyTallOutputOnATerminalIsPaged() throws {
        let book = try onTerminal("show books:1342")
        XCTAssertGreaterThan(book.count, 10)
        XCTAssertTrue(book.allSatisfy { $0.hasPrefix("PAGED:") }, "\(book)")
        let help = try onTerminal("--help")
        XCTAssertTrue(help.allSatisfy { $0.hasPrefix("PAGED:") }, "help too")
        XCTAssertFalse(try onTerminal("list -n 3").contains { $0.hasPrefix("PAGED:") }, "shorter than the screen")
        XCTAssertFalse(try onTerminal("--no-pager show books:1342").contains { $0.hasPrefix("PAGED:") })
        XCTAssertFalse(try onTerminal("show books:1342", pager: nil).contains { $0.hasPrefix("PAGED:") }, "PAGER= turns it off")
        comics.environment["PAGER"] = "sed s/^/PAGED:/"
        XCTAssertFalse(try comics.run(["show", "books:1342"]).stdout.contains("PAGED:"), "never off a terminal")
    }
}
