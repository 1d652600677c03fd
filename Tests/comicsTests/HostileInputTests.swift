@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Hostile upstream text, headers and paths: nothing reaches a terminal
/// raw, data cannot forge search's markers, a header cannot be split, and
/// files are never replaced or created where they should not be.
final class HostileInputTests: EndToEndTestCase {
    private static let nasty = "\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[1A\u{1B}[2K\u{9B}31m\u{202E}\u{E000}\u{E001}\r\u{7F}\u{85}"

    private func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
            || TerminalText.isBidiControl(scalar)
    }

    func testNoFieldOrMessageCarriesAControlToAnyOutput() throws {
        var comic = FixtureServer.comic(201, title: "Evil\(Self.nasty) title", alt: "alt\(Self.nasty)", transcript: "line\(Self.nasty)\nnext")
        if case var .object(members) = comic {
            members.removeAll { $0.0 == "img" || $0.0 == "link" }
            members += [("img", .string("\(server.baseURL)/images/x\(Self.nasty).png")), ("link", .string("https://x/\(Self.nasty)"))]
            comic = .object(members)
        }
        try server.control(.object([("comics", .object([("201", comic)])), ("latest", .int(201))]))
        let runs: [[String]] = [
            ["list", "-n", "2"], ["show", "201"], ["show", "201", "--image"], ["fav", "add", "201"], ["fav", "list"],
            ["search", "evil"], ["show", "201", "-f", "csv"], ["show", "201", "-f", "tsv"], ["fav", "list", "-f", "csv"],
            ["fav", "list", "-f", "tsv"], ["search", "evil", "-f", "tsv"], ["search", "evil\(Self.nasty)"], ["-v", "show", "201"],
            ["show", "\(Self.nasty)"],
        ]
        for arguments in runs {
            let result = try comics.run(arguments)
            // CSV's records end in CRLF; no other CR may appear.
            let output = arguments.contains("csv") ? result.stdout.replacingOccurrences(of: "\r\n", with: "\n") : result.stdout
            let bad = (output + result.stderr).unicodeScalars.filter(isForbidden)
            XCTAssertTrue(bad.isEmpty, "\(arguments): \(bad.map { String($0.value, radix: 16) })")
        }
        let json = try JSONValue.parse(try comics.run(["show", "201", "-f", "json"]).stdout)
        XCTAssertFalse(json["title"]?.stringValue?.contains("\u{E000}") ?? true, "data never carries a highlight marker")
        XCTAssertTrue(json["title"]?.stringValue?.contains("\u{1B}") ?? false, "JSON keeps the text (escaped)")
    }

    func testAValidatorWithAControlCharacterIsNeverSentBack() throws {
        try server.control(.object([("fault", .string("etag-cr"))]))
        XCTAssertEqual(try comics.run(["show", "7"]).status, 0)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.scalar("SELECT coalesce(etag, 'none') FROM items WHERE id = 7"), "none")
    }

    func testADatabasePathThatIsNoRegularFileIsRefused() throws {
        for path in ["/dev/null", comics.home.path] {
            let result = try comics.run(["--db", path, "list"])
            XCTAssertEqual(result.status, 5, "\(path): \(result)")
            XCTAssertEqual(result.stderr, "comics: error: \(path) is not a regular file; give a database file with --db\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/null-journal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }

    /// As ssh refuses such keys: a database or its folder that another
    /// user owns, or that others may write, is exit 5 with the reason, and
    /// nothing is written; a sticky shared folder (/tmp) is fine.
    func testADatabaseOthersCouldHaveWrittenIsRefused() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        let data = comics.home.file("data")
        let database = comics.databasePath
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        func refused(_ expected: String, _ situation: String) throws {
            let result = try comics.run(["fav", "add", "2"])
            XCTAssertEqual(result.status, 5, "\(situation): \(result)")
            XCTAssertEqual(result.stderr, "comics: error: \(expected)\n", situation)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database)), before, "\(situation): nothing written")
        }
        chmod(database, 0o620)
        try refused("the database \(database) is writable by others; make it private: chmod 600 '\(database)'", "group-writable file")
        chmod(database, 0o600)
        chmod(data, 0o757)
        try refused("the folder \(data) holding the database is writable by others; make it private: chmod go-w '\(data)'", "open folder")
        chmod(data, 0o1777)
        XCTAssertEqual(try comics.run(["fav", "list"]).status, 0, "a sticky folder, as /tmp")
        chmod(data, 0o700)
        if getuid() == 0 {
            chown(database, 65534, 65534)
            try refused("the database \(database) belongs to another user; comics opens only its own files", "nobody's file")
            chown(database, 0, 0)
            chown(data, 65534, 65534)
            try refused(
                "the folder \(data) holding the database belongs to another user; comics keeps its data only in folders of its own",
                "nobody's folder")
            chown(data, 0, 0)
        }
        XCTAssertEqual(try comics.run(["fav", "add", "2"]).status, 0, "mended, it works again")
    }

    /// In a sticky folder anyone may write (as /tmp), another user plants
    /// the files SQLite reads as part of the database: each is refused
    /// before SQLite opens anything, and the favourites stay.
    func testAnotherUsersWriteAheadLogIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to plant files as another user (nobody)") }
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        let data = comics.home.file("data")
        chmod(comics.home.path, 0o755)
        chmod(data, 0o1777)
        let database = comics.databasePath
        for suffix in ["-wal", "-shm", "-journal"] {
            let planted = database + suffix
            let attacker = try comics.shell(
                "setpriv --reuid=65534 --regid=65534 --clear-groups /bin/sh -c 'printf planted > \"$0\" && chmod 666 \"$0\"' '\(planted)'")
            XCTAssertEqual(attacker.status, 0, "\(attacker)")
            let result = try comics.run(["fav", "list"])
            XCTAssertEqual(result.status, 5, "\(suffix): \(result)")
            XCTAssertEqual(result.stderr, "comics: error: \(planted), which SQLite would read as part of the database, is not a file "
                + "of yours; comics opens only its own files: remove it if no comics is running: rm '\(planted)'\n")
            XCTAssertEqual(try String(contentsOfFile: planted, encoding: .utf8), "planted", "\(suffix): left as it was")
            unlink(planted)
        }
        let open = database + "-wal"
        XCTAssertTrue(FileManager.default.createFile(atPath: open, contents: Data()))
        chmod(open, 0o622)
        XCTAssertEqual(try comics.run(["fav", "list"]).stderr, "comics: error: \(open), which SQLite would read as part of the database, "
            + "is writable by others; make it private: chmod 600 '\(open)'\n")
        unlink(open)
        symlink("/tmp", open)
        XCTAssertEqual(try comics.run(["fav", "list"]).status, 5, "a link in its place")
        unlink(open)
        chmod(data, 0o700)
        XCTAssertEqual(try comics.run(["fav", "list", "-f", "ndjson"]).stdoutLines.count, 1, "the favourite is still there")
    }

    /// A link another user planted at the database's path, or at its folder,
    /// is refused before anything is created or read through it; a link of
    /// the user's own is followed, and checked where it leads.
    func testALinkAnotherUserPlantedAtTheDatabasePathIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to plant links as another user (nobody)") }
        let shared = comics.home.file("shared")
        let secret = comics.home.file("root-only")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: secret, withIntermediateDirectories: true)
        chmod(comics.home.path, 0o755)
        chmod(shared, 0o1777)
        func plant(_ link: String, to target: String) throws {
            let attacker = try comics.shell("setpriv --reuid=65534 --regid=65534 --clear-groups ln -s '\(target)' '\(link)'")
            XCTAssertEqual(attacker.status, 0, "\(attacker)")
        }
        let link = shared + "/s.db"
        try plant(link, to: secret + "/created.db")
        comics.environment["COMICS_DB"] = link
        let refused = try comics.run(["config"])
        XCTAssertEqual(refused.status, 5, "\(refused)")
        XCTAssertEqual(refused.stderr, "comics: error: \(link) is a symbolic link another user made; comics does not follow it: remove it, or give another --db\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: secret + "/created.db"), "nothing created through the link")

        // The default place, through a linked folder.
        comics.environment["COMICS_DB"] = nil
        comics.environment["XDG_DATA_HOME"] = shared
        try plant(shared + "/comics", to: secret)
        let linkedFolder = try comics.run(["fav", "add", "1"])
        XCTAssertEqual(linkedFolder.status, 5, "\(linkedFolder)")
        XCTAssertTrue(linkedFolder.stderr.contains("\(shared)/comics is a symbolic link another user made"), linkedFolder.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: secret), [])

        // The user's own link is theirs to make: followed, the file made
        // where it leads, private.
        comics.environment["XDG_DATA_HOME"] = nil
        let own = comics.home.file("data/mine.db")
        symlink(secret + "/real.db", own)
        comics.environment["COMICS_DB"] = own
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        var status = stat()
        XCTAssertEqual(lstat(secret + "/real.db", &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertEqual(try comics.run(["fav", "list", "-f", "ndjson"]).stdoutLines.count, 1)
    }

    /// The page `open` launches is made from the reference: a URL stored in
    /// the database is never launched.
    func testOpenNeverLaunchesAURLFromTheDatabase() throws {
        XCTAssertEqual(try comics.run(["show", "149"]).status, 0)
        try DatabaseProbe.execute(on: comics.databasePath, "UPDATE items SET url = 'https://evil.example/' WHERE id = 149")
        let record = comics.home.file("opened")
        let browser = comics.home.file("browser")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(record)\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        comics.environment["BROWSER"] = browser
        XCTAssertEqual(try comics.run(["--offline", "open", "149"]).status, 0)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: record) { usleep(50_000) }
        usleep(100_000)
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "https://xkcd.com/149/\n")
    }

    func testTwoRebuildsInOneSecondReplaceNothing() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["rebuild", "--force"]).status, 0)
        XCTAssertEqual(try comics.run(["rebuild", "--force"]).status, 0)
        let aside = try FileManager.default.contentsOfDirectory(atPath: comics.home.file("data")).filter { $0.contains(".damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        XCTAssertEqual(aside.count, 2, "\(aside)")
    }

    /// One comic upstream garbles costs that comic, not the page or the sync.
    func testAnUnreadableComicInAPageIsSkippedAndNamed() throws {
        try server.control(.object([("comics", .object([
            ("195", .string("<html>not a comic</html>")), ("193", .object([("num", .string("many"))])),
        ]))]))
        let listed = try comics.run(["list", "-f", "json"])
        XCTAssertEqual(listed.status, 0, "\(listed)")
        let ids = try JSONValue.parse(listed.stdout).arrayValue?.compactMap { $0["id"]?.intValue }
        XCTAssertEqual(ids, [200, 199, 198, 197, 196, 194, 192, 191, 190, 189])
        XCTAssertEqual(listed.stderr, """
            comics: warning: skipped xkcd:195: 127.0.0.1 sent a response comics cannot read: expected a JSON object
            comics: warning: skipped xkcd:193: 127.0.0.1 sent a response comics cannot read: no comic number

            """)

        try server.control(.object([("comics", .object((179...188).map { (String($0), JSONValue.string("garbage")) }))]))
        let garbled = try comics.run(["more"])
        XCTAssertEqual(garbled.status, 4, "a page of nothing but garbage is a broken upstream: \(garbled)")
        XCTAssertEqual(garbled.stderr.split(separator: "\n").count, 1, garbled.stderr)
        try server.control(.object([("reset", .bool(true))]))
        try server.control(.object([("comics", .object([
            ("195", .string("<html>not a comic</html>")), ("193", .object([("num", .string("many"))])),
        ]))]))

        let synced = try comics.run(["sync"])
        XCTAssertEqual(synced.status, 4, "the rest is synced, and the run says it fell short: \(synced)")
        XCTAssertTrue(synced.stderr.contains("skipped xkcd:195: "), synced.stderr)
        XCTAssertTrue(synced.stderr.contains("skipped xkcd:193: "), synced.stderr)
        XCTAssertTrue(synced.stderr.hasSuffix("comics: error: sync incomplete: 2 xkcd comics upstream sent could not be read; run 'comics sync' again to finish\n"))
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM items WHERE source = 'xkcd'"), 198)
        XCTAssertEqual(try comics.run(["--offline", "show", "195"]).status, 4, "nothing of it was stored")
    }

    /// A field of a file, an argument or a setting can be megabytes; a
    /// message repeats 200 characters of it, and names 20 items at most.
    func testInputEchoedInAMessageIsCut() throws {
        let huge = String(repeating: "x", count: 100_000)
        let file = comics.home.file("favourites.csv")
        try Data("source,id\n\(String(repeating: "y", count: 5_000_000)),1\n".utf8).write(to: URL(fileURLWithPath: file))
        let attempts: [(arguments: [String], echo: String)] = [
            (["fav", "import", file], "y"), (["show", huge], "x"), (["list", "--limit", huge], "x"),
            (["config", "set", "images", huge], "x"), (["list", "-s", huge], "x"), (["list", "--\(huge)"], "x"),
        ]
        for attempt in attempts {
            let result = try comics.run(attempt.arguments)
            XCTAssertEqual(result.status, 2, "\(attempt.arguments.map { $0.prefix(20) })")
            let quoted = String(repeating: attempt.echo, count: MessageText.quotedLimit - 3) + "…'"
            XCTAssertTrue(result.stderr.contains(quoted), String(result.stderr.prefix(300)))
            XCTAssertLessThan(result.stderr.utf8.count, 1_000, String(result.stderr.prefix(300)))
        }

        let missing = (["source,id"] + (201...300).map { "xkcd,\($0)" }).joined(separator: "\n")
        let imported = try comics.run(["fav", "import", "-"], stdin: missing)
        XCTAssertEqual(imported.status, 0, "\(imported)")
        XCTAssertEqual(
            imported.stderr,
            "comics: warning: not imported, upstream has no such item: "
                + (201...220).map { "xkcd:\($0)" }.joined(separator: ", ") + ", … and 80 more\n")
    }
}

/// Numbers a server makes up are malformed documents: nothing is stored
/// and nothing runs forever.
final class HostileNumberTests: EndToEndTestCase {
    private func items() throws -> Int {
        try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM items")
    }

    func testAbsurdOrMismatchedNumbersAreRefused() throws {
        try server.control(.object([("comics", .object([("7", FixtureServer.comic(1007, title: "Imposter"))]))]))
        let imposter = try comics.run(["show", "7"])
        XCTAssertEqual(imposter.status, 4, "\(imposter)")
        XCTAssertTrue(imposter.stderr.contains("describes comic 1007"), imposter.stderr)
        XCTAssertEqual(try items(), 0)

        for number in [1_000_000_000_000, 1 << 62] {
            try server.control(.object([("comics", .object([("200", FixtureServer.comic(number, title: "Huge"))]))]))
            let listed = try comics.run(["list"])
            XCTAssertEqual(listed.status, 4, "\(number): \(listed)")
            XCTAssertTrue(listed.stderr.hasPrefix("comics: error: "), listed.stderr)
            let synced = try comics.run(["sync"])
            XCTAssertEqual(synced.status, 4, "sync does not walk to \(number): \(synced)")
            XCTAssertEqual(try items(), 0)
        }
    }
}

/// A server that sends megabytes where a comic takes a kilobyte costs a
/// bounded download, a bounded database and flat memory: fields are cut at
/// decode, and a batch's answers together stay under 32 MiB.
final class HostileSizeTests: EndToEndTestCase {
    /// One letter under 300,000 combining marks is one character;
    /// an alt text of ZWJs is a handful of characters: both are cut by
    /// scalars, in what is stored and what is printed.
    func testFloodsOfScalarsInOneCharacterAreCut() throws {
        let flood = "a" + String(repeating: "\u{301}", count: 300_000)
        let joiners = String(repeating: "\u{200D}", count: 300_000)
        try server.control(.object([
            ("latest", .int(201)),
            ("comics", .object([("201", FixtureServer.comic(201, title: flood, alt: joiners))])),
        ]))
        XCTAssertEqual(try comics.run(["show", "201"]).status, 0)
        let record = try JSONValue.parse(try comics.run(["show", "201", "-f", "json"]).stdout)
        XCTAssertEqual(record["title"]?.stringValue?.unicodeScalars.count, UpstreamText.titleLimit)
        XCTAssertEqual(record["alt"]?.stringValue?.unicodeScalars.count, UpstreamText.textLimit)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertLessThanOrEqual(try probe.count("SELECT length(title) FROM items WHERE id = 201"), UpstreamText.titleLimit)
        XCTAssertLessThan(try probe.count("SELECT length(CAST(attributes AS BLOB)) FROM items WHERE id = 201"), 4 * UpstreamText.textLimit)
    }

    func testBloatedDocumentsAreCutAndABatchIsBounded() throws {
        try server.control(.object([("bloat", .int(7 << 20))]))
        let refused = try comics.run(["list", "-n", "50"], timeout: 60)
        XCTAssertEqual(refused.status, 4, "\(refused)")
        XCTAssertEqual(refused.stderr, "comics: error: 127.0.0.1 sent too much: the answers to one batch of requests passed 32 MiB together\n")
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items"), 0, "nothing of the refused batch is stored")

        let few = try comics.run(["list", "-n", "3"], timeout: 60)
        XCTAssertEqual(few.status, 0, "\(few)")
        let transcript = try XCTUnwrap(JSONValue.parse(try comics.run(["show", "200", "-f", "json"]).stdout)["transcript"]?.stringValue)
        XCTAssertEqual(transcript.count, UpstreamText.textLimit, "cut")
        XCTAssertTrue(transcript.hasSuffix("…"))
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: comics.databasePath)[.size] as? Int)
        XCTAssertLessThan(size, 8 << 20, "three capped comics, not 21 MiB")

        let cached = try comics.run(["list", "-n", "50"], timeout: 60)
        XCTAssertEqual(cached.status, 0, "\(cached)")
        XCTAssertEqual(cached.stdout.split(separator: "\n").count, 4, "the three cached, under the header")
        XCTAssertEqual(
            cached.stderr,
            "comics: warning: 127.0.0.1 sent too much: the answers to one batch of requests passed 32 MiB together; showing what is cached\n")
    }
}

/// The picture folder is comics' own: a symbolic link in its place is
/// neither written through nor cleaned through, and a FIFO at a picture's
/// path does not hang `show`.
final class HostilePictureFolderTests: EndToEndTestCase {
    func testALinkedFolderIsRefusedAndAFIFOIsSkipped() throws {
        let target = comics.home.file("elsewhere")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: target + "/" + String(repeating: "a", count: 64), contents: Data("precious".utf8))
        try FileManager.default.createSymbolicLink(atPath: comics.databasePath + ".images", withDestinationPath: target)
        try server.control(.object([("comics", .object([("201", FixtureServer.comic(201, title: "Pictured"))]))]))
        let shown = try comics.run(["show", "1", "--image"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertEqual(try comics.run(["cleanup", "--max-age", "0s"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), [String(repeating: "a", count: 64)],
                       "nothing written or deleted through the link")

        try FileManager.default.removeItem(atPath: comics.databasePath + ".images")
        try FileManager.default.createDirectory(atPath: comics.databasePath + ".images", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        let url = try XCTUnwrap(JSONValue.parse(try comics.run(["show", "1", "-f", "json"]).stdout)["image_url"]?.stringValue)
        XCTAssertEqual(mkfifo(comics.databasePath + ".images/" + SHA256.hex(url), 0o600), 0)
        let started = Date()
        let fifo = try comics.run(["--offline", "show", "1", "--image"], timeout: 20)
        XCTAssertEqual(fifo.status, 0, "\(fifo)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the FIFO did not hang it")
    }
}
