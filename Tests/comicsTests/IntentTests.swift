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
