import ComicsKit
import Foundation
import TestSupport
import XCTest

/// A database that is damaged, foreign, read-only or on a full disk:
/// exit 5 with a message that says what to do, nothing written, and
/// `comics rebuild` as the way out that keeps favourites and settings.
final class DatabaseFaultTests: EndToEndTestCase {
    /// A cache with two favourites and a setting, closed.
    private func warmDatabase() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "100"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "150"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:1342"]).status, 0)
        XCTAssertEqual(try comics.run(["config", "set", "max-age", "2w"]).status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
    }

    private func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Overwrites page `page` (1-based) with bytes that mean nothing.
    private func scribble(onPage page: Int) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: comics.databasePath))
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        try handle.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }))
        try handle.close()
    }

    func testATruncatedFileIsRefusedAndLeftAlone() throws {
        try warmDatabase()
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: comics.databasePath))
        try handle.truncate(atOffset: 40_000)
        try handle.close()
        let before = try contents(comics.databasePath)
        for arguments in [["list"], ["fav", "list"], ["cleanup"], ["show", "7"]] {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 5, "\(arguments): \(result)")
            XCTAssertEqual(result.stderr, "comics: error: \(comics.databasePath) is damaged or not a comics database "
                + "(database disk image is malformed); 'comics rebuild' moves it aside and keeps your favourites\n")
        }
        XCTAssertEqual(try contents(comics.databasePath), before, "nothing written")
    }

    func testADamagedPageIsReportedByInfoAndRebuildKeepsFavouritesAndSettings() throws {
        try warmDatabase()
        let itemsRoot = try Int(DatabaseProbe(path: comics.databasePath).scalar("SELECT rootpage FROM sqlite_master WHERE name = 'items'"))
        try scribble(onPage: try XCTUnwrap(itemsRoot))
        let damaged = try contents(comics.databasePath)

        let info = try comics.run(["info", "-f", "json"])
        XCTAssertEqual(info.status, 5, "\(info)")
        XCTAssertTrue(try JSONValue.parse(info.stdout)["quick_check"]?.stringValue?.contains("malformed") == true, info.stdout)
        XCTAssertTrue(info.stderr.contains("'comics rebuild' moves it aside"), info.stderr)

        let rebuild = try comics.run(["rebuild"])
        XCTAssertEqual(rebuild.status, 0, "\(rebuild)")
        let aside = try XCTUnwrap(rebuild.stdout.components(separatedBy: "moved the old database to ").last?.components(separatedBy: ";").first)
        XCTAssertTrue(rebuild.stdout.hasSuffix("the new one keeps 2 favourites and 1 setting\n"), rebuild.stdout)
        XCTAssertEqual(try contents(aside), damaged, "the damaged file is kept as it was")

        let favourites = try JSONValue.parse(try comics.run(["fav", "list", "-f", "json"]).stdout).arrayValue ?? []
        XCTAssertEqual(favourites.map { $0["title"] }, [.string("Pride and Prejudice"), .string("Grownups")], "fetched again")
        XCTAssertEqual(try comics.run(["config", "get", "max-age"]).stdout, "2w\n")
        XCTAssertEqual(try comics.run(["info"]).status, 0)
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).scalar("PRAGMA integrity_check"), "ok")
    }

    /// Where reading stopped and the bookmarks are user data: a rebuild
    /// keeps them, and they find their places once the text is back.
    func testRebuildKeepsWhereReadingStoppedAndTheBookmarks() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "30"]).status, 0)
        XCTAssertEqual(try comics.run(["get", "11", "--edition", "text"]).status, 0)
        let session = try TerminalSession(comics, ["read", "11"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), session.screen.joined(separator: "\n"))
        try session.send(":5\rm")
        XCTAssertTrue(try session.wait(for: "bookmark 1: CHAPTER V."), session.screen[19])
        try session.send(":3\rq")
        XCTAssertNotNil(try session.finish())
        XCTAssertTrue(comics.waitForBackgroundWork())
        let itemsRoot = try Int(DatabaseProbe(path: comics.databasePath).scalar("SELECT rootpage FROM sqlite_master WHERE name = 'items'"))
        try scribble(onPage: try XCTUnwrap(itemsRoot))

        let rebuild = try comics.run(["rebuild"])
        XCTAssertEqual(rebuild.status, 0, "\(rebuild)")
        XCTAssertTrue(rebuild.stdout.hasSuffix("the new one keeps 0 favourites, 0 settings, 1 place where reading stopped and 1 bookmark\n"), rebuild.stdout)
        let shown = try JSONValue.parse(try comics.run(["show", "books:11", "-f", "json"]).stdout)
        XCTAssertEqual(shown["reading"]?["section"], .int(3))
        XCTAssertEqual(shown["text"], .null, "the text itself is downloaded again when read")

        let again = try TerminalSession(comics, ["read", "11"], rows: 20, columns: 80)
        XCTAssertTrue(try again.wait(for: "§3 CHAPTER III."), again.screen.joined(separator: "\n"))
        try again.send("'")
        XCTAssertTrue(try again.wait(for: "  1  CHAPTER V. Advice from a Caterpillar"), again.screen.joined(separator: "\n"))
        try again.send("\r")
        XCTAssertTrue(try again.wait(for: "§5 CHAPTER V."), again.screen[19])
        try again.send("q")
        XCTAssertEqual(try again.finish()?.status, 0)
    }

    func testRebuildWithNoDatabaseChangesNothing() throws {
        let result = try comics.run(["rebuild"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "comics: note: there is no database at \(comics.databasePath) yet; nothing to rebuild\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: comics.databasePath))
    }

    func testAnotherProgramsDatabaseIsRefused() throws {
        try FileManager.default.createDirectory(atPath: comics.home.file("data"), withIntermediateDirectories: true)
        try DatabaseProbe.execute(on: comics.databasePath, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        let before = try contents(comics.databasePath)
        let result = try comics.run(["list"])
        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("is not a comics database"), result.stderr)
        XCTAssertEqual(try contents(comics.databasePath), before)
    }

    func testAFullDiskRollsBackAndKeepsEverything() throws {
        if ProcessInfo.processInfo.environment["COMICS_TEST_SANITIZER"] == "thread" {
            throw XCTSkip("ThreadSanitizer's own runtime dies under a file size limit")
        }
        try warmDatabase()
        let probe = try DatabaseProbe(path: comics.databasePath)
        let items = try probe.count("SELECT count(*) FROM items")
        // Files may not grow past 50 KiB; SIGXFSZ ignored, so writes fail with EFBIG as on a full disk.
        let result = try comics.shell(#"trap '' XFSZ; ulimit -f 50; "$COMICS" list -n 200 --refresh"#)
        XCTAssertEqual(result.status, 5, "\(result)")
        XCTAssertTrue(result.stderr.hasPrefix("comics: error: cannot write the database"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("is the disk full?\n"), result.stderr)
        XCTAssertEqual(try probe.scalar("PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items"), items, "the transaction was rolled back whole")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 2)
        XCTAssertEqual(try comics.run(["list", "-n", "200"]).status, 0, "with room again, the same command works")
    }

    func testReadOnlyFilesAndDirectoriesAreExit5() throws {
        try warmDatabase()
        let data = comics.home.file("data")
        // Permission bits do not bind root: run comics as nobody then.
        let runAs = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        if getuid() == 0 {
            chmod(comics.home.path, 0o755)
            for path in [data, comics.databasePath] { chown(path, 65534, 65534) }
        }
        let before = try contents(comics.databasePath)

        chmod(comics.databasePath, 0o444)
        let readOnlyFile = try comics.shell(runAs + #""$COMICS" fav add 7"#)
        XCTAssertEqual(readOnlyFile.status, 5, "\(readOnlyFile)")
        XCTAssertTrue(readOnlyFile.stderr.hasPrefix("comics: error: cannot write the database"), readOnlyFile.stderr)
        chmod(comics.databasePath, 0o600)

        chmod(data, 0o555)
        let readOnlyDirectory = try comics.shell(runAs + #""$COMICS" fav add 7"#)
        XCTAssertEqual(readOnlyDirectory.status, 5, "\(readOnlyDirectory)")
        XCTAssertTrue(readOnlyDirectory.stderr.contains("check that it and its directory are writable"), readOnlyDirectory.stderr)
        chmod(data, 0o700)

        XCTAssertEqual(try contents(comics.databasePath), before, "nothing written")
    }

    func testClosedStandardStreamsNeitherCrashNorLeaveHalfATransaction() throws {
        try warmDatabase()
        let quiet = try comics.shell(#""$COMICS" cleanup --quiet --max-items 10 <&- >&- 2>&-; echo "exit $?" > status"#)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(try String(contentsOfFile: comics.home.file("status"), encoding: .utf8), "exit 0\n")
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items"), 12, "ten non-favourites and the two favourites")
        XCTAssertEqual(try probe.scalar("PRAGMA integrity_check"), "ok")

        let noStdout = try comics.shell(#""$COMICS" list -n 3 >&-"#)
        XCTAssertEqual(noStdout.status, 1)
        XCTAssertEqual(noStdout.stderr, "comics: error: cannot write output: standard output is closed\n")
        let nothingOpen = try comics.shell(#""$COMICS" fav list <&- >&- 2>&-; echo "exit $?""#)
        XCTAssertEqual(nothingOpen.stdout, "exit 1\n", "the output could not go anywhere; nothing crashed")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 2)
    }
}

/// A database file is data: SQL written into its schema text is never run.
final class TamperedSchemaTests: EndToEndTestCase {
    func testAFileWhoseSchemaWasEditedIsRefusedAndRebuildKeepsItsRows() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "20"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "200"]).status, 0)
        let planted = comics.home.file("planted.db")
        try DatabaseProbe.execute(on: comics.databasePath, """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = sql || '; ATTACH ''\(planted)'' AS planted; CREATE TABLE planted.owned (x)'
            WHERE name IN ('item_search', 'item_search_delete');
            PRAGMA writable_schema = OFF;
            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: comics.databasePath))
        for arguments in [["cleanup", "--max-items", "0"], ["show", "200"], ["list"]] {
            let refused = try comics.run(arguments)
            XCTAssertEqual(refused.status, 5, "\(arguments): \(refused)")
            XCTAssertEqual(refused.stderr, "comics: error: \(comics.databasePath) has a schema comics did not make (edited by hand?); "
                + "'comics rebuild' moves it aside and keeps your favourites\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: planted), "nothing was attached or written")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: comics.databasePath)), before, "the file is left as it was")

        let rebuilt = try comics.run(["rebuild"])
        XCTAssertEqual(rebuilt.status, 0, "\(rebuilt)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: planted))
        XCTAssertEqual(try comics.run(["search", "bill", "-f", "ndjson"]).stdoutLines.count, 1, "the favourite came back")
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).scalar("PRAGMA integrity_check"), "ok")
    }
}
