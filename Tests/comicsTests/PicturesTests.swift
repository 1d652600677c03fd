import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Pictures under `show`, drawn by the built binary from images the
/// loopback server sends.
final class PicturesTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        comics.environment["COLUMNS"] = "40"
        try server.control(.object([
            ("latest", .int(203)),
            ("comics", .object([
                ("201", comic(201, title: "Pictured", image: "comic.png")),
                ("202", comic(202, title: "Moving", image: "animated.gif", interactive: true)),
                ("203", comic(203, title: "Nameless", image: nil)),
            ])),
        ]))
    }

    private func comic(_ number: Int, title: String, image: String?, interactive: Bool = false) -> JSONValue {
        guard case var .object(members) = FixtureServer.comic(number, title: title) else { return .null }
        members.removeAll { $0.0 == "img" }
        members.append(("img", .string(image.map { "\(server.baseURL)/images/\($0)" } ?? "https://imgs.xkcd.com/comics/")))
        if interactive { members.append(("extra_parts", .object([("pre", .string("<div>"))]))) }
        return .object(members)
    }

    /// Bytes as the fixture server's `images` control takes them.
    private func hex(_ bytes: [UInt8]) -> JSONValue {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return .string(String(decoding: text, as: UTF8.self))
    }

    /// The image's lines: what follows the blank line after the text.
    private func pictureLines(_ output: String) -> [String] {
        guard let range = output.range(of: "\n\n") else { return [] }
        return output[range.upperBound...].split(separator: "\n").map(String.init)
    }

    /// Columns a line takes on screen: SGR sequences take none.
    private func visibleWidth(_ line: String) -> Int {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).unicodeScalars.count
    }

    /// A GIF whose frame is far larger than its screen is refused before
    /// any decoder sees it (gdk-pixbuf made room for the frame: 537 MB).
    func testAGIFFrameLargerThanItsScreenIsRefusedUndecoded() throws {
        let little = { (value: Int) -> [UInt8] in [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var gif = Array("GIF89a".utf8) + little(16) + little(16) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        gif += [0x2C] + little(0) + little(0) + little(65535) + little(8190) + [0] + [2, 2, 0x44, 0x01, 0, 0x3B]
        try server.control(.object([
            ("images", .object([("frame.gif", hex(gif))])),
            ("comics", .object([("310", comic(310, title: "Frame", image: "frame.gif"))])),
        ]))
        let shown = try comics.run(["show", "310", "--image-format", "symbols"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertEqual(shown.stderr, "comics: note: cannot draw the picture of xkcd:310: the image is too large to draw (65535×8190 pixels)\n")
        XCTAssertTrue(shown.stdout.contains("Frame"))
    }

    /// The child that decodes runs with its address space bounded, beside its CPU time.
    func testThePictureChildHasAMemoryLimit() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: ComicsRunner.executable)
        child.arguments = ["__draw-picture", "png", "10", "10", "symbols", "truecolor", "10", "20"]
        let input = Pipe()
        child.standardInput = input
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        var limit = ""
        for _ in 0..<200 {
            let limits = (try? String(contentsOfFile: "/proc/\(child.processIdentifier)/limits", encoding: .utf8)) ?? ""
            limit = limits.split(separator: "\n").first { $0.hasPrefix("Max address space") }.map(String.init) ?? ""
            if !limit.contains("unlimited") && !limit.isEmpty { break }
            usleep(10_000)
        }
        if ProcessInfo.processInfo.environment["COMICS_TEST_SANITIZER"] != nil {
            XCTAssertTrue(limit.contains("unlimited"), "a sanitizer's shadow memory needs the whole address space: \(limit)")
        } else {
            XCTAssertTrue(limit.contains("1073741824"), limit)
        }
    }

    /// A pane size no screen has is clamped before anything is drawn.
    func testAHugePaneSizeIsClamped() throws {
        comics.environment["COLUMNS"] = "100000"
        comics.environment["LINES"] = "100000"
        let shown = try comics.run(["show", "201", "--image-format", "symbols"], timeout: 30)
        XCTAssertEqual(shown.status, 0, "\(shown)")
        let lines = pictureLines(shown.stdout)
        XCTAssertFalse(lines.isEmpty)
        XCTAssertLessThanOrEqual(lines.map(visibleWidth).max() ?? 0, 1_000, "at most 1,000 columns")
        XCTAssertLessThanOrEqual(lines.count, 1_000)
        XCTAssertEqual(shown.stderr, "")
    }

    func testAPNGIsDrawnInSymbolsAtTheRequestedWidth() throws {
        let shown = try comics.run(["show", "201", "--image-format", "symbols"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertEqual(shown.line(0), "xkcd 201: Pictured")
        let lines = pictureLines(shown.stdout)
        XCTAssertEqual(lines.count, 15, "400×300 pixels in 40 columns of 1:2 cells")
        XCTAssertEqual(Set(lines.map(visibleWidth)), [40], shown.stdout)
        XCTAssertTrue(lines.joined().contains("\u{1B}[38;5;"), "in colour")
        XCTAssertEqual(shown.stderr, "")

        comics.environment["COLUMNS"] = "24"
        XCTAssertEqual(Set(pictureLines(try comics.run(["show", "201", "--image"]).stdout).map(visibleWidth)), [24])
    }

    func testAJPEGCoverAndTheFirstFrameOfAGIF() throws {
        var book = FixtureServer.book(90_001, title: "Covered")
        if case var .object(members) = book {
            members.removeAll { $0.0 == "formats" }
            members.append(("formats", .object([("image/jpeg", .string("\(server.baseURL)/images/cover.jpg"))])))
            book = .object(members)
        }
        try server.control(.object([("books", .object([("90001", book)]))]))
        let cover = try comics.run(["show", "books:90001", "--image-format", "symbols"])
        XCTAssertEqual(cover.status, 0, "\(cover)")
        XCTAssertEqual(pictureLines(cover.stdout).count, 30, "200×300 pixels in 40 columns")

        let animated = try comics.run(["show", "202", "--image-format", "symbols"])
        XCTAssertEqual(animated.status, 0, "\(animated)")
        XCTAssertFalse(pictureLines(animated.stdout).isEmpty)
        XCTAssertEqual(animated.stderr, """
            comics: note: the picture of xkcd:202 is animated; this is its first frame
            comics: note: xkcd:202 is interactive; this is its still picture, the real thing is at https://xkcd.com/202/

            """)
    }

    func testGraphicsProtocolsStartWithTheirIntroducers() throws {
        let introducers = [("kitty", "\u{1B}_G"), ("sixel", "\u{1B}P"), ("iterm2", "\u{1B}]1337;File=")]
        for (format, introducer) in introducers {
            let shown = try comics.run(["show", "201", "--image-format", format])
            XCTAssertEqual(shown.status, 0, "\(shown)")
            let picture = shown.stdout.components(separatedBy: "\n\n").last ?? ""
            XCTAssertTrue(picture.hasPrefix(introducer), "\(format): \(picture.prefix(20).debugDescription)")
        }
        comics.environment["TMUX"] = "/tmp/tmux-0/default,1,0"
        let inTmux = try comics.run(["show", "201", "--image-format", "kitty"])
        let picture = inTmux.stdout.components(separatedBy: "\n\n").last ?? ""
        XCTAssertTrue(picture.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"), picture.prefix(20).debugDescription)
        XCTAssertTrue(picture.hasSuffix("\u{1B}\\\n"))
    }

    func testTheTerminalIsRecognisedFromTheEnvironment() throws {
        comics.environment["KITTY_WINDOW_ID"] = "1"
        XCTAssertTrue(try comics.run(["show", "201", "--image"]).stdout.contains("\n\n\u{1B}_G"))
        comics.environment["KITTY_WINDOW_ID"] = nil
        comics.environment["TERM_PROGRAM"] = "iTerm.app"
        XCTAssertTrue(try comics.run(["show", "201", "--image"]).stdout.contains("\n\n\u{1B}]1337;File="))
        comics.environment["TERM_PROGRAM"] = nil
        comics.environment["TERM"] = "xterm-256color"
        comics.environment["COLORTERM"] = "truecolor"
        let symbols = try comics.run(["show", "201", "--image"]).stdout
        XCTAssertTrue(symbols.contains("\u{1B}[38;2;"), "24-bit colour")
        comics.environment["NO_COLOR"] = "1"
        let plain = pictureLines(try comics.run(["show", "201", "--image"]).stdout)
        XCTAssertEqual(plain.count, 15)
        XCTAssertFalse(plain.joined().contains("\u{1B}["), "NO_COLOR: shapes only")
    }

    func testAPictureIsFetchedOnceAndKeptUnderItsHash() throws {
        XCTAssertEqual(try comics.run(["show", "201", "--image"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "201", "--image"]).status, 0)
        XCTAssertEqual(try server.stats().hits["/images/comic.png"], 1)

        let directory = comics.databasePath + ".images"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        XCTAssertEqual(files.count, 1)
        XCTAssertTrue(files[0].range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil, files[0])
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + files[0])
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)

        let offline = try comics.run(["--offline", "show", "201", "--image-format", "symbols"])
        XCTAssertEqual(offline.status, 0)
        XCTAssertEqual(pictureLines(offline.stdout).count, 15, "drawn from the cache")
        XCTAssertEqual(try comics.run(["show", "202"]).status, 0)
        let none = try comics.run(["--offline", "show", "202", "--image"])
        XCTAssertEqual(none.status, 0, "\(none)")
        XCTAssertEqual(none.stderr, "comics: note: no picture of xkcd:202 is cached, and --offline forbids the network\n")
        XCTAssertEqual(pictureLines(none.stdout), [])
    }

    /// A document names its picture's address; comics asks only the
    /// source's picture hosts and the configured server, never another
    /// port, host or an address with a user in it.
    func testPicturesComeOnlyFromTheSourcesOwnHosts() throws {
        let elsewhere = try FixtureServer()
        defer { elsewhere.stop() }
        let port = try XCTUnwrap(URLOrigin(server.baseURL)?.port)
        let addresses = [
            "\(elsewhere.baseURL)/images/comic.png", "http://user@127.0.0.1:\(port)/images/comic.png",
            "http://localhost:\(port)/images/comic.png", "http://169.254.169.254/latest/meta-data/x.png",
            "http://imgs.xkcd.com:8080/comics/x.png",
        ]
        var documents: [(String, JSONValue)] = []
        for (offset, address) in addresses.enumerated() {
            guard case var .object(members) = comic(401 + offset, title: "Elsewhere", image: "comic.png") else { continue }
            members.removeAll { $0.0 == "img" }
            members.append(("img", .string(address)))
            documents.append((String(401 + offset), .object(members)))
        }
        try server.control(.object([("comics", .object(documents))]))
        for (offset, address) in addresses.enumerated() {
            let shown = try comics.run(["show", String(401 + offset), "--image"])
            XCTAssertEqual(shown.status, 0, "\(shown)")
            let place = URLOrigin(address).map { "\($0.host):\($0.port)" } ?? ""
            XCTAssertEqual(
                shown.stderr, "comics: note: the picture of xkcd:\(401 + offset) is on \(place), not where xkcd keeps pictures; not fetched\n")
        }
        XCTAssertEqual(try elsewhere.requests(), [])
        XCTAssertEqual(try server.stats().hits["/images/comic.png"], nil)
        XCTAssertEqual(try comics.run(["show", "201", "--image"]).stderr, "", "the configured server's own pictures are drawn")

        let origins = PictureOrigins(configuredBase: "https://gutendex.com", hosts: ["www.gutenberg.org"], pathPrefix: "/cache/epub/")
        XCTAssertTrue(origins.allows("https://www.gutenberg.org/cache/epub/1342/pg1342.cover.medium.jpg"))
        XCTAssertTrue(origins.allows("https://gutendex.com/anything.jpg"))
        XCTAssertFalse(origins.allows("https://www.gutenberg.org/ebooks/1342.jpg"), "a cover path only")
        XCTAssertFalse(origins.allows("http://gutendex.com/x.jpg"), "another scheme is another origin")
    }

    func testBadPicturesAreANoticeAndTheTextStillPrints() throws {
        let png = try Fixtures.image("comic.png")
        var bomb = png
        bomb.replaceSubrange(16..<24, with: [0, 0x01, 0x86, 0xA0, 0, 0x01, 0x86, 0xA0])
        var empty = png
        empty.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        var garbled = png
        garbled.replaceSubrange(40..<png.count - 12, with: [UInt8](repeating: 0x5A, count: png.count - 52))
        try server.control(.object([
            ("images", .object([
                ("bomb.png", hex(bomb)), ("empty.png", hex(empty)), ("garbled.png", hex(garbled)),
                ("page.png", hex(Array("<!doctype html><title>Not Found</title>".utf8))),
            ])),
            ("comics", .object([
                ("301", comic(301, title: "Bomb", image: "bomb.png")),
                ("302", comic(302, title: "Empty", image: "empty.png")),
                ("303", comic(303, title: "Garbled", image: "garbled.png")),
                ("304", comic(304, title: "Page", image: "page.png")),
                ("305", comic(305, title: "Gone", image: "missing.png")),
            ])),
        ]))
        let cases: [(String, String)] = [
            ("203", "comics: note: xkcd:203 has no picture\n"),
            ("301", "comics: note: cannot draw the picture of xkcd:301: the image is too large to draw (100000×100000 pixels)\n"),
            ("302", "comics: note: cannot draw the picture of xkcd:302: the image has no pixels\n"),
            ("304", "comics: note: cannot draw the picture of xkcd:304: it is not a PNG, JPEG or GIF image\n"),
            ("305", "comics: note: cannot fetch the picture of xkcd:305: 127.0.0.1 answered HTTP 404\n"),
        ]
        for (number, notice) in cases {
            let shown = try comics.run(["show", number, "--image"])
            XCTAssertEqual(shown.status, 0, "\(number): \(shown)")
            XCTAssertTrue(shown.stdout.hasPrefix("xkcd \(number): "), shown.stdout)
            XCTAssertEqual(shown.stderr, notice)
            // On a terminal with images=auto the picture was not asked for: nothing is said.
            let auto = try comics.shell("script -qec '\"$COMICS\" show \(number)' /dev/null")
            XCTAssertEqual(auto.status, 0, "\(number): \(auto)")
            XCTAssertTrue(auto.stdout.contains("xkcd \(number): "), auto.stdout)
            XCTAssertFalse(auto.stdout.contains("comics: note:"), "\(number), images=auto: \(auto.stdout)")
        }
        let garbledShow = try comics.run(["show", "303", "--image"])
        XCTAssertEqual(garbledShow.status, 0)
        XCTAssertTrue(garbledShow.stderr.hasPrefix("comics: note: cannot draw the picture of xkcd:303: "), garbledShow.stderr)
        XCTAssertEqual(garbledShow.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(try comics.run(["show", "303", "--image"]).stderr, garbledShow.stderr)
        XCTAssertEqual(try server.stats().hits["/images/garbled.png"], 2, "a picture that does not decode is not kept")

        XCTAssertEqual(try comics.run(["show", "201"]).status, 0)
        try server.control(.object([("fault", .string("truncated")), ("count", .int(1))]))
        let truncated = try comics.run(["show", "201", "--image"])
        XCTAssertEqual(truncated.status, 0, "\(truncated)")
        XCTAssertEqual(truncated.stderr, "comics: note: cannot draw the picture of xkcd:201: the image is cut short\n")
        XCTAssertEqual(pictureLines(try comics.run(["show", "201", "--image"]).stdout).count, 15, "fetched whole the next time")
    }

    /// Files built to decode for minutes cost seconds: the child that
    /// draws is stopped at its limit, the text has been printed, the
    /// picture is forgotten, and one line says so, even when the picture
    /// was only a nicety (images=auto on a terminal).
    func testPicturesThatDecodeForeverAreStoppedAndForgotten() throws {
        try server.control(.object([
            ("images", .object([
                ("scans.jpg", hex(HostileImages.progressiveJPEG(width: 6000, height: 6000, repeatedScans: 4000))),
                ("frames.gif", hex(HostileImages.gif(frames: 100_000))),
            ])),
            ("comics", .object([
                ("301", comic(301, title: "Scans", image: "scans.jpg")),
                ("302", comic(302, title: "Frames", image: "frames.gif")),
            ])),
        ]))
        let images = comics.databasePath + ".images"
        let scans = try comics.run(["show", "301", "--image-format", "symbols"])
        XCTAssertEqual(scans.status, 0, "\(scans)")
        XCTAssertTrue(scans.stdout.hasPrefix("xkcd 301: Scans\n"), scans.stdout)
        XCTAssertEqual(pictureLines(scans.stdout), [])
        XCTAssertEqual(scans.stderr, "comics: note: cannot draw the picture of xkcd:301: decoding it took longer than 5 seconds\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: images), [], "the picture is not kept")
        let offline = try comics.run(["--offline", "show", "301", "--image"])
        XCTAssertEqual(offline.stderr, "comics: note: no picture of xkcd:301 is cached, and --offline forbids the network\n")

        comics.environment["TERM"] = "xterm-256color"
        let frames = try comics.shell("script -qec \"$COMICS show 302\" /dev/null")
        XCTAssertEqual(frames.status, 0, "\(frames)")
        let lines = frames.stdout.components(separatedBy: "\r\n")
        XCTAssertTrue(lines.contains { $0.hasSuffix("xkcd 302: Frames\u{1B}[0m") }, frames.stdout.debugDescription)
        XCTAssertEqual(
            lines.filter { $0.contains("comics: note:") },
            ["comics: note: cannot draw the picture of xkcd:302: decoding it took longer than 5 seconds"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: images), [])
    }

    /// Two databases in one folder: each keeps its own pictures, so the
    /// cleanup of one never takes the other's favourite's picture.
    func testEachDatabaseKeepsItsOwnPictures() throws {
        let first = comics.databasePath
        let second = comics.home.file("data/other.db")
        XCTAssertEqual(try comics.run(["fav", "add", "201"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "201", "--image"]).status, 0)
        XCTAssertEqual(try comics.run(["--db", second, "show", "201", "--image"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: first + ".images").count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: second + ".images").count, 1)
        let cleanup = try comics.run(["--db", second, "cleanup", "--max-age", "0s"])
        XCTAssertTrue(cleanup.stdout.hasPrefix("removed 1 item (xkcd 1) and 1 picture"), cleanup.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: second + ".images").count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: first + ".images").count, 1, "the favourite's picture stays")
        XCTAssertFalse(FileManager.default.fileExists(atPath: comics.home.file("data/images")))
    }

    /// Earlier versions kept pictures in `images` beside the database: the
    /// default database, comics.db, takes that folder over once.
    func testTheDefaultDatabaseAdoptsTheOldSharedPictureFolder() throws {
        let legacy = comics.home.file("data/images")
        try FileManager.default.createDirectory(atPath: legacy, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: legacy + "/kept.png", contents: Data([1, 2, 3]))
        XCTAssertEqual(try comics.run(["--offline", "info"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: legacy))
        XCTAssertTrue(FileManager.default.fileExists(atPath: comics.databasePath + ".images/kept.png"))
        try FileManager.default.createDirectory(atPath: legacy, withIntermediateDirectories: true)
        XCTAssertEqual(try comics.run(["--offline", "info"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: legacy), "once: a folder of its own is never replaced")
        XCTAssertEqual(try comics.run(["--db", comics.home.file("data/other.db"), "--offline", "info"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: legacy), "only comics.db adopts it")
    }

    func testCleanupRemovesThePicturesOfRemovedItemsAndKeepsFavourites() throws {
        XCTAssertEqual(try comics.run(["show", "201", "--image"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "202", "--image"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "202"]).status, 0)
        let cleanup = try comics.run(["cleanup", "--max-age", "0s"])
        XCTAssertEqual(cleanup.status, 0, "\(cleanup)")
        XCTAssertTrue(cleanup.stdout.hasPrefix("removed 1 item (xkcd 1) and 1 picture (1.3 KiB); kept 1 favourite"), cleanup.stdout)
        XCTAssertEqual(try comics.run(["--offline", "show", "202", "--image"]).stderr.contains("no picture"), false)
        let directory = comics.databasePath + ".images"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).count, 1)
    }

    func testTheImagesSettingDecidesWhenNothingIsAsked() throws {
        XCTAssertEqual(try comics.run(["config", "get", "images"]).stdout, "auto\n")
        XCTAssertEqual(pictureLines(try comics.run(["show", "201"]).stdout), [], "auto: not on a pipe")

        XCTAssertEqual(try comics.run(["config", "set", "images", "ALWAYS"]).stdout, "images = always\n")
        XCTAssertEqual(try comics.run(["config", "get", "images"]).stdout, "always\n")
        XCTAssertEqual(pictureLines(try comics.run(["show", "201"]).stdout).count, 15)
        XCTAssertEqual(pictureLines(try comics.run(["show", "201", "-f", "json"]).stdout), [], "only tables draw")

        XCTAssertEqual(try comics.run(["config", "set", "images", "never"]).status, 0)
        XCTAssertEqual(pictureLines(try comics.run(["show", "201"]).stdout), [])
        XCTAssertEqual(pictureLines(try comics.run(["show", "201", "--image"]).stdout).count, 15, "asking overrides")

        let json = try JSONValue.parse(try comics.run(["config", "get", "images", "-f", "json"]).stdout)
        XCTAssertEqual(json, .object([("key", .string("images")), ("value", .string("never")), ("default", .bool(false))]), "one object")
        XCTAssertEqual(try comics.run(["config", "unset", "images"]).stdout, "images = auto (default)\n")
    }

    func testAutoDrawsOnATerminal() throws {
        comics.environment["TERM"] = "xterm-256color"
        let onTerminal = try comics.shell("script -qec \"$COMICS show 201\" /dev/null")
        XCTAssertEqual(onTerminal.status, 0, "\(onTerminal)")
        let lines = onTerminal.stdout.components(separatedBy: "\r\n")
        XCTAssertTrue(lines.contains { $0.hasSuffix("xkcd 201: Pictured\u{1B}[0m") }, onTerminal.stdout.debugDescription)
        let picture = lines.drop { !$0.isEmpty }.dropFirst().filter { !$0.isEmpty }
        XCTAssertEqual(picture.count, 15, onTerminal.stdout.debugDescription)
        XCTAssertEqual(Set(picture.map(visibleWidth)), [40])
    }

    func testPictureOptionsAndSettingsAreValidated() throws {
        let cases: [([String], String)] = [
            (["config", "set", "images", "sometimes"], "comics: error: 'sometimes' is not a valid value for images; use one of: auto, always, never\n"),
            (["config", "get", "colour"], "comics: error: unknown setting 'colour'; settings are: \(ConfigKey.all.map(\.name).joined(separator: ", "))\n"),
            (["config", "set", "images"], "comics: error: 'comics config set' takes a KEY and a VALUE, got 1 arguments; see 'comics config set --help'\n"),
            (["show", "201", "--image", "-f", "json"], "comics: error: pictures are drawn in table output only, not json; the record's image_url or cover_url says where the picture is\n"),
            (["show", "201", "--image-format", "ascii"], "comics: error: unknown image format 'ascii'; use one of: auto, kitty, iterm2, sixel, symbols\n"),
        ]
        for (arguments, expected) in cases {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result)")
            XCTAssertEqual(result.stderr, expected)
        }
    }
}

/// Pictures made to cost a decoder minutes, built here rather than kept as
/// files: what matters is their shape, and the test says it.
enum HostileImages {
    /// A grey progressive JPEG whose last scan (every AC coefficient zero,
    /// coded as runs of 16,384 or more empty blocks) is repeated: each
    /// repeat is a few bytes, and each makes the decoder walk, and
    /// gdk-pixbuf redraw, the whole picture.
    static func progressiveJPEG(width: Int, height: Int, repeatedScans: Int) -> [UInt8] {
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        jpeg += segment(0xC2, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        // DC table 0: "no difference" as the code 0. AC table 0: EOB14 (a run of empty blocks) as the code 00.
        jpeg += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        jpeg += segment(0xC4, [0x10, 0, 1] + [UInt8](repeating: 0, count: 14) + [0xE0])
        var dc = BitWriter()
        for _ in 0..<blocks { dc.put(0, count: 1) }
        jpeg += segment(0xDA, [1, 1, 0x00, 0, 0, 0]) + dc.finish()
        var ac = BitWriter()
        var left = blocks
        while left > 0 {
            let run = max(16_384, min(left, 32_767))
            ac.put(0, count: 2)
            ac.put(run - 16_384, count: 14)
            left -= min(left, run)
        }
        let scan = segment(0xDA, [1, 1, 0x00, 1, 63, 0]) + ac.finish()
        for _ in 0..<repeatedScans { jpeg += scan }
        return jpeg + [0xFF, 0xD9]
    }

    /// A 1×1 GIF of `frames` frames, each a few bytes.
    static func gif(frames: Int) -> [UInt8] {
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        let frame: [UInt8] = [0x21, 0xF9, 4, 0, 1, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]
        for _ in 0..<frames { gif += frame }
        return gif + [0x3B]
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// Entropy-coded bits, most significant first, with JPEG's stuffed zero after 0xFF.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var pending = 0
        private var pendingCount = 0

        mutating func put(_ value: Int, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) {
                pending = (pending << 1) | ((value >> shift) & 1)
                pendingCount += 1
                if pendingCount == 8 {
                    bytes.append(UInt8(pending))
                    if pending == 0xFF { bytes.append(0) }
                    pending = 0
                    pendingCount = 0
                }
            }
        }

        mutating func finish() -> [UInt8] {
            while pendingCount != 0 { put(1, count: 1) }
            return bytes
        }
    }
}
