import ComicsKit
import Foundation
import TestSupport
import XCTest

/// What a user meets when the network, the upstream or the disk fails.
final class FailureTests: EndToEndTestCase {
    func testNetworkDownWithNothingCachedIsExit4() throws {
        server.stop()
        let result = try comics.run(["list"])
        XCTAssertEqual(result.status, 4, "\(result)")
        XCTAssertTrue(result.stderr.hasPrefix("comics: error: cannot reach 127.0.0.1: "), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(result.stdout, "")
    }

    func testNetworkDownServesTheStaleCacheWithAWarning() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "150"]).status, 0)
        server.stop()
        let list = try comics.run(["list", "--refresh"])
        XCTAssertEqual(list.status, 0, "\(list)")
        XCTAssertEqual(list.stdoutLines.count, 11)
        XCTAssertTrue(list.stderr.hasPrefix("comics: warning: cannot reach 127.0.0.1"), list.stderr)
        XCTAssertTrue(list.stderr.contains("showing the copy cached"), list.stderr)

        let show = try comics.run(["show", "150", "--refresh"])
        XCTAssertEqual(show.status, 0)
        XCTAssertEqual(show.stdoutLines.first, "xkcd 150: Grownups")
        XCTAssertEqual(try comics.run(["show", "150", "--refresh", "-q"]).stderr, "", "--quiet silences warnings")

        let stale = try comics.run(["list"], clockOffset: "+3h")
        XCTAssertEqual(stale.status, 0, "a stale page is served and refreshed in the background")
        XCTAssertEqual(stale.stdoutLines.count, 11)
    }

    func testOfflineServesTheCacheAndNeverTouchesTheNetwork() throws {
        try requireClockControl()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let before = try server.stats().total
        let offline = try comics.run(["list", "--offline"], clockOffset: "+5h")
        XCTAssertEqual(offline.status, 0, "\(offline)")
        XCTAssertEqual(offline.stdoutLines.count, 11)
        comics.environment["COMICS_OFFLINE"] = "1"
        XCTAssertEqual(try comics.run(["show", "200"]).status, 0)
        let uncached = try comics.run(["show", "5"])
        XCTAssertEqual(uncached.status, 4)
        XCTAssertEqual(uncached.stderr, "comics: error: xkcd:5 is not cached, and --offline forbids the network\n")
        XCTAssertEqual(try comics.run(["more"]).status, 4)
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.stats().total, before)
    }

    func testUpstreamErrorsWithNothingCachedAreExit4() throws {
        for (fault, message) in [
            ("500", "127.0.0.1 failed (HTTP 500)"),
            ("429", "127.0.0.1 is rate-limiting requests (HTTP 429)"),
            ("truncated", "127.0.0.1 sent a response comics cannot read"),
            ("html", "127.0.0.1 sent a response comics cannot read"),
        ] {
            try server.control(.object([("fault", .string(fault))]))
            let result = try comics.run(["show", "150"])
            XCTAssertEqual(result.status, 4, "\(fault): \(result)")
            XCTAssertTrue(result.stderr.hasPrefix("comics: error: \(message)"), "\(fault): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        }
        try server.control(.object([("fault", .null)]))
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM items"), 0)
    }

    func testATransient500IsRetried() throws {
        try server.control(.object([("fault", .string("500")), ("count", .int(1))]))
        let result = try comics.run(["show", "150"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(try server.stats().hits["/150/info.0.json"], 2)
    }

    func testEscapeSequencesInTitlesNeverReachTheTerminal() throws {
        let hostile = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mRed\u{9B}1mC1\u{202E}gnp.exe\r\nNext"
        try server.control(.object([
            ("latest", .int(201)),
            ("comics", .object([("201", FixtureServer.comic(201, title: hostile, alt: "alt\u{1B}[5m", transcript: "t\u{07}"))])),
        ]))
        for arguments in [["list"], ["show", "201"], ["fav", "201"], ["fav", "list"]] {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result)")
            let forbidden = result.stdout.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
            }
            XCTAssertEqual(Array(forbidden), [], "\(arguments) printed control characters")
            XCTAssertFalse(result.stdout.contains("pwned"), "OSC payload printed by \(arguments)")
            XCTAssertTrue(result.stdout.contains("EvilRed›1mC1gnp.exe Next"), "\(arguments): \(result.stdout)")
        }
        let json = try comics.run(["show", "201", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(json.stdout)["title"], .string(hostile.replacingOccurrences(of: "\u{9B}", with: "›")),
                       "machine formats escape, not drop; a lone C1 control is its Windows-1252 character")
        XCTAssertTrue(json.stdout.contains("\\u001b"))
    }

    func testACorruptDatabaseIsExit5AndLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: comics.home.file("data"), withIntermediateDirectories: true)
        try Data("hi, I am not a database\n".utf8).write(to: URL(fileURLWithPath: comics.databasePath))
        let result = try comics.run(["list"])
        XCTAssertEqual(result.status, 5, "\(result)")
        XCTAssertTrue(result.stderr.contains("is damaged or not a comics database"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: comics.databasePath, encoding: .utf8), "hi, I am not a database\n")
    }

    func testANewerSchemaIsRefused() throws {
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "1"]).status, 0)
        try DatabaseProbe.execute(on: comics.databasePath, "PRAGMA user_version = 999")
        let result = try comics.run(["fav", "list"])
        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("schema version 999, newer than this comics understands"), result.stderr)
        try DatabaseProbe.execute(on: comics.databasePath, "PRAGMA user_version = \(SQLiteCacheStore.schemaVersion)")
        XCTAssertEqual(try comics.run(["fav", "list", "-f", "ndjson"]).stdoutLines.count, 1, "the favourite is intact")
    }

    func testAnUnwritableDatabaseIsExit5() throws {
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        let directory = comics.home.file("data")
        chmod(comics.databasePath, 0o444)
        chmod(directory, 0o555)
        defer { chmod(directory, 0o700); chmod(comics.databasePath, 0o600) }
        guard getuid() != 0 else {
            // root ignores permission bits; check the same path with a missing directory instead.
            comics.environment["COMICS_DB"] = "/proc/comics/db"
            let result = try comics.run(["show", "1"])
            XCTAssertEqual(result.status, 5, "\(result)")
            XCTAssertTrue(result.stderr.hasPrefix("comics: error: the folder /proc/comics for the database"), result.stderr)
            return
        }
        let result = try comics.run(["show", "2"])
        XCTAssertEqual(result.status, 5, "\(result)")
    }

    func testProcessesWritingAtOnceAllSucceed() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        for round in 0..<5 {
            let results = try comics.runTogether([
                ["fav", String(191 + round)], ["cleanup", "--max-items", "3"], ["more"], ["list", "--refresh"],
            ])
            for result in results {
                let endOfArchive = result.status == 3 && result.stderr.contains("no more to show")
                XCTAssertTrue(result.status == 0 || endOfArchive, "\(result)")
                XCTAssertFalse(result.stderr.contains("locked"), "\(result)")
            }
        }
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.scalar("PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 5)
    }

    func testABrokenPipeEndsQuietly() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let closedReader = try comics.shell(#""$COMICS" list 2>errors | { exec <&-; sleep 0.3; }; echo "${PIPESTATUS[0]}"; cat errors"#)
        XCTAssertEqual(closedReader.stdout, "0\n")
        let head = try comics.shell(#""$COMICS" list | head -1"#)
        XCTAssertEqual(head.stdout, "   ID DATE       TITLE\n")
        XCTAssertEqual(head.stderr, "")
    }

    func testWritingToAFullDiskIsAnError() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let result = try comics.shell(#""$COMICS" list > /dev/full"#)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "comics: error: cannot write output: No space left on device\n")
    }
}
