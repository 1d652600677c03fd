import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `comics browse` in a pseudo-terminal of 80×20, against the loopback
/// server: keys sent, the screen read back as a person would see it.
final class BrowseTests: EndToEndTestCase {
    private func browse(_ arguments: [String] = ["browse"], rows: Int = 20, columns: Int = 80) throws -> TerminalSession {
        let session = try TerminalSession(comics, arguments, rows: rows, columns: columns)
        XCTAssertTrue(try session.wait(for: "Bill Nye"), session.screen.joined(separator: "\n"))
        return session
    }

    /// Comic 201, "Pictured", whose picture is the fixture comic.png.
    private func servePicturedComic() throws {
        guard case var .object(members) = FixtureServer.comic(201, title: "Pictured") else { return }
        members.removeAll { $0.0 == "img" }
        members.append(("img", .string("\(server.baseURL)/images/comic.png")))
        try server.control(.object([("latest", .int(201)), ("comics", .object([("201", .object(members))]))]))
    }

    private func quit(_ session: TerminalSession, file: StaticString = #filePath, line: UInt = #line) throws {
        try session.send("Q")
        let ended = try XCTUnwrap(try session.finish(), "browse did not end", file: file, line: line)
        XCTAssertEqual(ended.status, 0, file: file, line: line)
        XCTAssertTrue(ended.modesRestored, "the terminal's modes are as before", file: file, line: line)
    }

    func testTheListOpensAnItemAndGoesBack() throws {
        let session = try browse()
        XCTAssertEqual(session.screen[0], "   200  2006-12-22  Bill Nye", "the newest first")
        XCTAssertTrue(session.screen[19].hasPrefix(" xkcd · 1 of 200 · updated just now"), session.screen[19])
        try session.send("jj\r")
        XCTAssertTrue(try session.wait(for: "xkcd 198: Perspective"))
        XCTAssertEqual(session.screen[0], "xkcd 198: Perspective")
        XCTAssertTrue(session.screen.contains { $0.contains("Narrator: Sometimes, when I first wake up") }, "the transcript")
        try session.send("n")
        XCTAssertTrue(try session.wait(for: "xkcd 197: Ninja Turtles"), "the next item without going back")
        try session.send("\u{1B}")
        XCTAssertTrue(try session.wait(for: "4 of 200"), "the list follows n")
        XCTAssertEqual(session.screen[0], "   200  2006-12-22  Bill Nye")
        try quit(session)
    }

    /// The list is the whole archive from the first frame: G reaches comic
    /// 1 at once (drawn as placeholders until fetched), fast keys are all
    /// answered, and the rows in view are fetched wherever they are.
    func testEveryRowIsReachableAndFilledWhereItIs() throws {
        let session = try browse()
        try session.send("G")
        XCTAssertTrue(try session.wait(for: "200 of 200 · end of results"), session.screen.last ?? "")
        XCTAssertTrue(try session.wait(for: "     1  2006-01-01  Barrel - Part 1"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen[18].hasPrefix("     1  "), "the selected row is the last one drawn")
        try session.send("g" + String(repeating: "j", count: 150))
        XCTAssertTrue(try session.wait(for: "151 of 200"), "every one of 150 fast keys moved: \(session.screen.last ?? "")")
        XCTAssertTrue(try session.wait(for: "    50  2006-"), "filled where it is: \(session.screen.joined(separator: "\n"))")
        try session.send("\u{1B}[5~")
        XCTAssertTrue(try session.wait(for: "132 of 200"), "PgUp")
        let cursor = try DatabaseProbe(path: comics.databasePath).rows("SELECT query FROM cursors")
        XCTAssertEqual(cursor, [], "browsing does not move the cursor of comics more")
        try quit(session)
    }

    /// The detail screen is a view of the database too: a favourite
    /// added in another shell shows in its text without a key press.
    func testTheDetailFollowsAFavouriteAddedElsewhere() throws {
        let session = try browse()
        try session.send("j\r")
        XCTAssertTrue(try session.wait(for: "Favourite:   no"), session.screen.joined(separator: "\n"))
        XCTAssertEqual(try comics.run(["fav", "add", "199"]).status, 0)
        XCTAssertTrue(try session.wait(for: "Favourite:   ★ yes", timeout: 5), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen.last?.hasPrefix(" xkcd:199 ★") == true, session.screen.last ?? "")
        try quit(session)
    }

    /// Ctrl-C in a prompt cancels the prompt, not browse; the books query
    /// is kept for the next run.
    func testCtrlCCancelsAPromptAndTheBooksQueryIsKept() throws {
        let session = try browse()
        try session.send("s")
        XCTAssertTrue(try session.wait(for: "Moby Dick"))
        try session.send(":frankenstein")
        XCTAssertTrue(try session.wait(for: "frankenstein▏"))
        try session.send("\u{03}")
        XCTAssertTrue(try session.wait(for: " books · 1 of "), session.screen.last ?? "")
        try session.send(":frankenstein\r")
        XCTAssertTrue(try session.wait(for: "books: frankenstein"), session.screen.last ?? "")
        try quit(session)

        let again = try TerminalSession(comics, ["-s", "books", "browse"], rows: 20, columns: 80)
        XCTAssertTrue(try again.wait(for: "Frankenstein; Or, The Modern Prometheus"), again.screen.joined(separator: "\n"))
        XCTAssertTrue(again.screen.last?.hasPrefix(" books: frankenstein") == true, again.screen.last ?? "")
        try quit(again)
    }

    /// The wheel scrolls, a click selects, a double click opens; with
    /// --no-mouse the terminal keeps the mouse.
    func testTheMouseScrollsSelectsAndOpens() throws {
        let session = try browse()
        XCTAssertTrue(try session.wait(forOutput: "\u{1B}[?1000h\u{1B}[?1006h"), "mouse reporting asked for")
        try session.send("\u{1B}[<65;10;5M\u{1B}[<65;10;5M")
        XCTAssertTrue(try session.wait(for: "7 of 200"), session.screen.last ?? "")
        try session.send("\u{1B}[<0;10;3M\u{1B}[<0;10;3m")
        XCTAssertTrue(try session.wait(for: "3 of 200"), "a click selects its row: \(session.screen.last ?? "")")
        try session.send("\u{1B}[<0;10;3M\u{1B}[<0;10;3m\u{1B}[<0;10;3M\u{1B}[<0;10;3m")
        XCTAssertTrue(try session.wait(for: "xkcd 198: Perspective"), "a double click opens it")
        try session.send("\u{1B}[<64;10;3M")
        try quit(session)

        let plain = try TerminalSession(comics, ["browse", "--no-mouse"], rows: 20, columns: 80)
        XCTAssertTrue(try plain.wait(for: "Bill Nye"))
        XCTAssertFalse(try plain.wait(forOutput: "\u{1B}[?1000h", timeout: 1))
        try quit(plain)
    }

    /// A picture that cannot be fetched says so in its pane.
    func testAMissingPictureSaysSoInItsPane() throws {
        guard case var .object(members) = FixtureServer.comic(201, title: "Pictureless") else { return }
        members.removeAll { $0.0 == "img" }
        members.append(("img", .string("\(server.baseURL)/images/missing.png")))
        try server.control(.object([("latest", .int(201)), ("comics", .object([("201", .object(members))]))]))
        let session = try TerminalSession(comics, ["browse"], rows: 30, columns: 100)
        XCTAssertTrue(try session.wait(for: "Pictureless"))
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "cannot fetch the picture of xkcd:201: 127.0.0.1 answered HTTP 404"),
                      session.screen.joined(separator: "\n"))
        try quit(session)
    }

    /// At 40 columns the detail wraps as `show` does, and a URL longer
    /// than the line goes on in the next, nothing cut off.
    func testTheDetailWrapsAtFortyColumns() throws {
        let session = try TerminalSession(comics, ["browse"], rows: 12, columns: 40)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("100\r\r")
        XCTAssertTrue(try session.wait(for: "xkcd 100: Family Circus"), session.screen.joined(separator: "\n"))
        let text = session.screen.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        XCTAssertTrue(text.contains("https://imgs.xkcd.com/comics/family_circus.jpg"), session.screen.joined(separator: "\n"))
        XCTAssertFalse(session.screen.dropLast().contains { $0.hasSuffix("…") }, session.screen.joined(separator: "\n"))
        try quit(session)
    }

    /// The whole archive synced (2,500 comics, as cron's `sync` leaves it):
    /// G shows comic 1 from the database, 300 fast keys move 300 rows, and
    /// nothing is asked of the network for rows the database holds.
    func testASyncedArchiveIsBrowsedFromTheDatabase() throws {
        try server.control(.object([
            ("comics", .object((201...2500).map { (String($0), FixtureServer.comic($0, title: "Comic \($0)")) })),
            ("latest", .int(2500)),
        ]))
        XCTAssertEqual(try comics.run(["sync", "--quiet"], timeout: 240).status, 0)
        let before = try server.requests().filter { $0.hasSuffix("/info.0.json") && $0 != "/info.0.json" }.count
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: " 2500  2007-01-02  Comic 2500"), session.screen.joined(separator: "\n"))
        try session.send("G")
        XCTAssertTrue(try session.wait(for: "2,500 of 2,500 · end of results"), session.screen.last ?? "")
        XCTAssertTrue(session.screen.contains { $0.hasPrefix("     1  2006-01-01  Barrel - Part 1") }, session.screen.joined(separator: "\n"))
        try session.send("g" + String(repeating: "j", count: 300))
        XCTAssertTrue(try session.wait(for: "301 of 2,500"), session.screen.last ?? "")
        XCTAssertTrue(session.screen.contains { $0.hasPrefix("  2200  2007-01-02  Comic 2200") }, session.screen.joined(separator: "\n"))
        try quit(session)
        let after = try server.requests().filter { $0.hasSuffix("/info.0.json") && $0 != "/info.0.json" }.count
        XCTAssertEqual(after, before, "every row came from the database")
    }

    /// One upstream hangs: the other source's screen loads, and a screen
    /// whose rows are cached draws them at once.
    func testAHangingUpstreamDelaysOnlyItsOwnRows() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let books = try FixtureServer()
        defer { books.stop() }
        comics.environment["COMICS_GUTENDEX_URL"] = books.baseURL
        try server.control(.object([("fault", .string("hang"))]))
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"), "cached rows while xkcd hangs")
        try session.send("r")
        XCTAssertTrue(try session.wait(for: "refreshing…"))
        try session.send("s")
        XCTAssertTrue(try session.wait(for: "Moby Dick; Or, The Whale"), "books load while the xkcd refresh hangs: \(session.screen.joined(separator: "\n"))")
        try session.send("s")
        XCTAssertTrue(try session.wait(for: "   200  2006-12-22  Bill Nye"), "back at once, from the database")
        try session.send("Q")
        XCTAssertNotNil(try session.finish())
        try server.control(.object([("fault", .null)]))
    }

    func testAFailedRefreshSaysWhyAndKeepsTheRows() throws {
        let session = try browse()
        try server.control(.object([("fault", .string("500")), ("count", .int(100))]))
        try session.send("r")
        XCTAssertTrue(try session.wait(for: "refresh failed"), session.screen.last ?? "")
        XCTAssertTrue(session.screen.last?.contains("refresh failed just now: 127.0.0.1 failed (HTTP 500)") == true, session.screen.last ?? "")
        XCTAssertEqual(session.screen[0], "   200  2006-12-22  Bill Nye")
        try server.control(.object([("reset", .bool(true))]))
        try session.send("r")
        XCTAssertTrue(try session.wait(for: "· updated just now"), "the failure goes with the next refresh that works")
        try quit(session)
    }

    /// Esc and a key typed within milliseconds are both keys; the end of
    /// a books query is the end of its results, not an error.
    func testEscThenAKeyAndTheEndOfABooksQuery() throws {
        let session = try browse()
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "xkcd 200: Bill Nye"))
        try session.send("\u{1B}j")
        XCTAssertTrue(try session.wait(for: " xkcd · 2 of 200"), "back, then down: \(session.screen.last ?? "")")
        try session.send("s")
        XCTAssertTrue(try session.wait(for: "Moby Dick"))
        try session.send("G")
        XCTAssertTrue(try session.wait(for: "64 of 64 · end of results"), session.screen.last ?? "")
        XCTAssertFalse(session.screen.last?.contains("failed") ?? true)
        try quit(session)
    }

    /// `r` keeps the place: the selection, the scroll and the rows.
    func testRefreshKeepsThePlace() throws {
        let session = try browse()
        try session.send(String(repeating: "j", count: 135))
        XCTAssertTrue(try session.wait(for: "136 of 200"))
        // The rows in view filled first, under a slow (sanitized) build too.
        XCTAssertTrue(try session.wait(whileShowing: "  …"), session.screen.joined(separator: "\n"))
        let before = session.screen
        try session.send("r")
        XCTAssertTrue(try session.wait(whileShowing: "refreshing…"))
        XCTAssertTrue(try session.wait(for: "136 of 200 · updated just now"), session.screen.last ?? "")
        XCTAssertEqual(Array(session.screen.dropLast()), Array(before.dropLast()), "the same rows in the same places")
        try quit(session)
    }

    func testAFavouriteShowsEverywhereAndOnTheFavouritesScreen() throws {
        let session = try browse()
        try session.send("jf")
        XCTAssertEqual(session.row(containing: "Right-Hand Rule")?.hasPrefix("★"), true, session.screen.joined(separator: "\n"))
        try session.send("F")
        XCTAssertTrue(try session.wait(for: "favourites · 1 of 1"))
        XCTAssertEqual(session.screen[0], "★ xkcd:199  2006-12-20  Right-Hand Rule")
        let listed = try comics.run(["fav", "list", "-f", "csv"])
        XCTAssertTrue(listed.stdout.contains("xkcd,199,Right-Hand Rule"), listed.stdout)

        // Another process adds one: it appears without a key press.
        XCTAssertEqual(try comics.run(["fav", "add", "200"]).status, 0)
        XCTAssertTrue(try session.wait(for: "xkcd:200"), session.screen.joined(separator: "\n"))
        try session.send("\u{1B}")
        XCTAssertTrue(try session.wait(for: "★  200  2006-12-22  Bill Nye"), "the list shows the other process's favourite")
        try quit(session)
    }

    /// A refresh by another process changes a title: the row shows it
    /// within a second, without a key press.
    func testARowChangedElsewhereIsRedrawn() throws {
        let session = try browse()
        try server.control(.object([("comics", .object([("199", FixtureServer.comic(199, title: "Left-Hand Rule"))]))]))
        XCTAssertEqual(try comics.run(["show", "199", "--refresh"]).status, 0)
        XCTAssertTrue(try session.wait(for: "Left-Hand Rule", timeout: 5), session.screen.joined(separator: "\n"))
        XCTAssertNil(session.row(containing: "Right-Hand Rule"))
        try quit(session)
    }

    /// A newer comic fetched by another process goes on top, without a key press.
    func testANewItemFetchedElsewhereAppearsOnTop() throws {
        let session = try browse()
        try session.send("j")
        try server.control(.object([("latest", .int(201)), ("comics", .object([("201", FixtureServer.comic(201, title: "Newer"))]))]))
        XCTAssertEqual(try comics.run(["list", "--refresh"]).status, 0)
        XCTAssertTrue(try session.wait(for: "Newer", timeout: 5), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen[0].hasSuffix("Newer"), session.screen[0])
        XCTAssertTrue(session.screen.last?.hasPrefix(" xkcd · 3 of 201") == true, "the selection stays on its comic: \(session.screen.last ?? "")")
        try quit(session)
    }

    func testSearchListsLocalMatchesAndOpensOne() throws {
        let session = try browse()
        try session.send("/perspective")
        XCTAssertEqual(session.screen.last, "search: perspective▏")
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "search: perspective · 1 of 1"))
        XCTAssertEqual(session.screen[0], "  xkcd:198  2006-12-18  Perspective")
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "xkcd 198: Perspective"))
        try quit(session)
    }

    func testBooksWithAQueryFromThePrompt() throws {
        let session = try browse()
        try session.send("s")
        XCTAssertTrue(try session.wait(for: "Moby Dick; Or, The Whale"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen.last?.hasPrefix(" books · 1 of ") == true, session.screen.last ?? "")
        XCTAssertTrue(session.row(containing: "Moby Dick")?.contains("Melville, Herman") == true, "authors in the detail column")
        try session.send(":frankenstein language:en")
        XCTAssertTrue(session.screen.last?.hasPrefix("books query (") == true)
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "books: frankenstein, language en"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(try session.wait(for: "Frankenstein; Or, The Modern Prometheus"))
        XCTAssertNil(session.row(containing: "Moby Dick"), "only what the query matches")
        try session.send("s")
        XCTAssertTrue(try session.wait(for: "Bill Nye"), "back to xkcd")
        try session.send(":")
        XCTAssertTrue(try session.wait(for: "go to: "), "xkcd has no queries: : goes to a number")
        try session.send("150\r")
        XCTAssertTrue(try session.wait(for: "51 of 200"), session.screen.last ?? "")
        try quit(session)
    }

    /// The detail screen draws the picture under the text, in symbols
    /// fitted to the pane; images=never leaves it out.
    func testTheDetailScreenDrawsThePicture() throws {
        try servePicturedComic()
        let session = try TerminalSession(comics, ["browse"], rows: 24, columns: 60)
        XCTAssertTrue(try session.wait(for: "Pictured"))
        XCTAssertEqual(session.coloredCells, 0)
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "▌"), session.screen.joined(separator: "\n"))
        try session.send("G")
        XCTAssertGreaterThan(session.coloredCells, 300, "the picture in colour, drawn by ncurses")
        try session.send("Q")
        XCTAssertNotNil(try session.finish())

        // NO_COLOR: shapes only.
        comics.environment["NO_COLOR"] = "1"
        let shapes = try TerminalSession(comics, ["browse"], rows: 24, columns: 60)
        XCTAssertTrue(try shapes.wait(for: "Pictured"))
        try shapes.send("\r")
        XCTAssertTrue(try shapes.wait(for: "█▌"), shapes.screen.joined(separator: "\n"))
        let picture = shapes.screen.filter { $0.contains("██") }
        XCTAssertGreaterThan(picture.count, 8, shapes.screen.joined(separator: "\n"))
        XCTAssertTrue(picture.allSatisfy { $0.unicodeScalars.count <= 60 }, "fitted to the pane (the symbols are narrow)")
        XCTAssertEqual(shapes.coloredCells, 0)
        try shapes.send("Q")
        XCTAssertNotNil(try shapes.finish())
        comics.environment["NO_COLOR"] = nil

        XCTAssertEqual(try comics.run(["config", "set", "images", "never"]).status, 0)
        let plain = try TerminalSession(comics, ["browse"], rows: 24, columns: 60)
        XCTAssertTrue(try plain.wait(for: "Pictured"))
        try plain.send("\r")
        XCTAssertTrue(try plain.wait(for: "Cached:"))
        Thread.sleep(forTimeInterval: 1)
        try plain.send("j")
        XCTAssertFalse(plain.screen.contains { $0.contains("██") }, "images=never")
        try plain.send("Q")
        XCTAssertNotNil(try plain.finish())
    }

    /// In kitty the picture is kitty graphics, written once where its rows
    /// are in view, and deleted when they leave.
    func testKittyGraphicsAreWrittenOverTheirRows() throws {
        try servePicturedComic()
        comics.environment["KITTY_WINDOW_ID"] = "1"
        let session = try TerminalSession(comics, ["browse"], rows: 24, columns: 60)
        XCTAssertTrue(try session.wait(for: "Pictured"))
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "Cached:"))
        // Sent before the picture may be drawn (under ThreadSanitizer it came
        // after the G, and its rows stayed out of view): G keeps the end in view.
        try session.send("G")
        XCTAssertTrue(try session.wait(forOutput: "\u{1B}_Ga=T"), "the image, once its rows are in view")
        try session.send("j")
        XCTAssertFalse(try session.wait(forOutput: "\u{1B}_Ga=T", count: 2, timeout: 1), "a frame that leaves it in place writes it not again")
        try session.send("\u{1B}")
        XCTAssertTrue(try session.wait(forOutput: "\u{1B}_Ga=d"), "deleted when the detail screen goes")
        try session.send("Q")
        XCTAssertNotNil(try session.finish())
    }

    func testHelpListsTheKeys() throws {
        let session = try browse()
        try session.send("?")
        XCTAssertTrue(try session.wait(for: "Keys (j k Space scroll, others close)"))
        XCTAssertTrue(session.screen.contains { $0.contains("f") && $0.contains("favourite or unfavourite the item") })
        try session.send("  ")
        XCTAssertTrue(try session.wait(for: "quit from anywhere"), "Space scrolls a help that does not fit")
        try session.send("x")
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try quit(session)
    }

    func testAResizeLaysTheScreenOutAgain() throws {
        let session = try browse()
        try session.resize(rows: 10, columns: 40)
        XCTAssertTrue(try session.wait(for: "1 of 200"))
        XCTAssertEqual(session.screen.count, 10)
        XCTAssertTrue(session.screen[9].hasPrefix(" xkcd · 1 of 200"), session.screen[9])
        XCTAssertTrue(session.screen.allSatisfy { $0.count <= 40 })
        try quit(session)
    }

    func testSignalsGiveTheTerminalBack() throws {
        for (name, number) in [("TERM", SIGTERM), ("INT", SIGINT), ("HUP", SIGHUP)] {
            let session = try browse()
            try session.signal(name)
            let ended = try XCTUnwrap(try session.finish(), "\(name): browse did not end")
            XCTAssertTrue(ended.modesRestored, "\(name): the terminal's modes are as before")
            XCTAssertEqual(ended.status, -Int(number), "\(name): ended by the signal itself")
        }
        let interrupted = try browse()
        try interrupted.send("\u{03}")
        let ended = try XCTUnwrap(try interrupted.finish(), "Ctrl-C")
        XCTAssertTrue(ended.modesRestored)
        XCTAssertEqual(ended.status, -Int(SIGINT))
    }

    /// Ctrl-\ and the signals of a crash: the terminal's modes, the main
    /// screen and the cursor are given back, then the signal ends the
    /// process as it would have (a core dump), not as an exit.
    func testCrashSignalsGiveTheTerminalBackToo() throws {
        let crashes = [("QUIT", SIGQUIT), ("SEGV", SIGSEGV), ("ABRT", SIGABRT), ("BUS", SIGBUS), ("ILL", SIGILL), ("TRAP", SIGTRAP), ("FPE", SIGFPE), ("SYS", SIGSYS)]
        for (name, number) in crashes {
            let session = try browse()
            XCTAssertTrue(try session.wait(forOutput: "\u{1B}[?1049h"), "\(name): on the alternate screen")
            try session.signal(name)
            let ended = try XCTUnwrap(try session.finish(), "\(name): browse did not end")
            XCTAssertTrue(ended.modesRestored, "\(name): the terminal's modes are as before")
            XCTAssertEqual(ended.status, -Int(number), "\(name): ended by the signal itself")
            XCTAssertTrue(try session.wait(forOutput: "\u{1B}[?1049l", timeout: 1), "\(name): the main screen is back")
            XCTAssertTrue(try session.wait(forOutput: "\u{1B}[?25h", timeout: 1), "\(name): the cursor is shown")
        }
    }

    /// The server hangs: keys are still answered, and the cached rows stay.
    func testKeysAreAnsweredWhileTheServerHangs() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        try server.control(.object([("fault", .string("hang"))]))
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"), session.screen.joined(separator: "\n"))
        try session.send("r")
        XCTAssertTrue(try session.wait(for: "refreshing…"))
        try session.send("j")
        XCTAssertTrue(try session.wait(for: "2 of 200"), "answered while the refresh hangs")
        try session.send("?")
        XCTAssertTrue(try session.wait(for: "Keys (j k Space scroll, others close)"))
        try session.send("xq")
        XCTAssertNotNil(try session.finish())
        try server.control(.object([("fault", .null)]))
    }

    func testOfflineTheStatusSaysSo() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        comics.environment["COMICS_XKCD_URL"] = "http://127.0.0.1:9"
        let session = try TerminalSession(comics, ["browse", "--refresh"].filter { $0 != "--refresh" }, rows: 20, columns: 100)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("r")
        XCTAssertTrue(try session.wait(for: "refresh failed"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen.last?.contains("refresh failed just now: cannot reach 127.0.0.1") == true, session.screen.last ?? "")
        XCTAssertTrue(session.row(containing: "Bill Nye") != nil, "the cached copy stays on screen")
        try quit(session)
    }

    func testHostileAndWideTitlesStayInTheirRows() throws {
        try server.control(.object([
            ("latest", .int(202)),
            ("comics", .object([
                ("201", FixtureServer.comic(201, title: "Evil\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m title")),
                ("202", FixtureServer.comic(202, title: String(repeating: "漢字", count: 40))),
            ])),
        ]))
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 60)
        XCTAssertTrue(try session.wait(for: "Evil"), session.screen.joined(separator: "\n"))
        XCTAssertEqual(session.row(containing: "Evil"), "   201  2007-01-02  Evil›31m title", "a lone C1 control is its Windows-1252 character")
        let wide = try XCTUnwrap(session.row(containing: "漢字"))
        XCTAssertTrue(wide.hasSuffix("…"), wide)
        XCTAssertEqual(session.screen[1].hasPrefix("   201"), true, "the wide title did not wrap into the next row")
        try quit(session)
    }

    func testBareComicsOnATerminalBrowses() throws {
        let session = try TerminalSession(comics, [])
        XCTAssertTrue(try session.wait(for: "Bill Nye"), session.screen.joined(separator: "\n"))
        try quit(session)
    }

    func testBrowseNeedsATerminal() throws {
        let result = try comics.run(["browse"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "comics: error: browse needs a terminal; use 'comics list' in scripts and pipes\n")
        let bare = try comics.run([])
        XCTAssertEqual(bare.status, 2, "bare comics off a terminal keeps printing usage")
        let dumb = try comics.shell("TERM=dumb script -qec \"$COMICS browse\" /dev/null; echo \"exit $?\"")
        XCTAssertTrue(dumb.stdout.contains("comics: error: browse needs a terminal that can move the cursor; use 'comics list'"), dumb.stdout)
        XCTAssertTrue(dumb.stdout.hasSuffix("exit 2\n"), dumb.stdout)

        // A terminal type whose terminfo has no cursor addressing.
        let terminfo = comics.home.file("terminfo")
        let nocup = try comics.shell("""
            printf 'nocup|a terminal without cursor addressing,\\n\\tam, cols#80, lines#24, bel=^G, cr=\\\\r, cud1=\\\\n,\\n' > nocup.src && \
            tic -o \(terminfo) nocup.src && \
            TERMINFO=\(terminfo) TERM=nocup script -qec "$COMICS browse" /dev/null; echo "exit $?"
            """)
        XCTAssertTrue(nocup.stdout.contains("comics: error: browse needs a terminal that can move the cursor (terminfo gives this TERM no cup); use 'comics list'"),
                      nocup.stdout + nocup.stderr)
        XCTAssertTrue(nocup.stdout.hasSuffix("exit 2\n"), nocup.stdout)
    }
}

/// Ctrl-Z needs a shell with job control to stop and resume browse: tmux
/// runs one, and its panes are read back with `capture-pane`.
final class BrowseJobControlTests: EndToEndTestCase {
    func testCtrlZGivesTheTerminalBackAndFgRepaints() throws {
        let script = #"""
            socket="comics-test-$$"; trap 'tmux -L "$socket" kill-server 2>/dev/null' EXIT
            pane() { tmux -L "$socket" capture-pane -p -t job; }
            until_shown() { for _ in $(seq 100); do pane | grep -q -- "$1" && return 0; sleep 0.1; done; pane; return 1; }
            until_gone() { for _ in $(seq 100); do pane | grep -q -- "$1" || return 0; sleep 0.1; done; pane; return 1; }
            tmux -L "$socket" new-session -d -s job -x 80 -y 12 "bash --norc --noprofile -i"
            until_shown 'bash' || exit 11
            tmux -L "$socket" send-keys -t job 'stty -g > before; "$COMICS" browse' Enter
            until_shown 'Bill Nye' || exit 12
            tmux -L "$socket" send-keys -t job C-z
            until_shown 'Stopped' || exit 13
            tmux -L "$socket" send-keys -t job 'stty -g > stopped; fg' Enter
            until_shown '1 of 200' || exit 14
            tmux -L "$socket" send-keys -t job j
            until_shown '2 of 200' || exit 15
            tmux -L "$socket" send-keys -t job q
            # What is typed before browse has ended is browse's to read.
            until_gone '2 of 200' || exit 19
            tmux -L "$socket" send-keys -t job 'stty -g > after; echo done' Enter
            until_shown '^done' || exit 16
            cmp -s before stopped || exit 17
            cmp -s before after || exit 18
            """#
        let result = try comics.shell(script, timeout: 60)
        XCTAssertEqual(result.status, 0, "\(result)")
    }
}

/// `comics open REF` and browse's `o`: the page in $BROWSER, given the URL
/// as its one argument.
final class OpenTests: EndToEndTestCase {
    private func fakeBrowser() throws -> String {
        let browser = comics.home.file("browser")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(comics.home.file("opened"))\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        comics.environment["BROWSER"] = browser
        return comics.home.file("opened")
    }

    private func opened(_ path: String, lines count: Int) -> [String] {
        for _ in 0..<100 {
            let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.count >= count { return lines }
            usleep(50_000)
        }
        return []
    }

    func testOpenGivesTheBrowserThePage() throws {
        let record = try fakeBrowser()
        let result = try comics.run(["open", "149"])
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(opened(record, lines: 1), ["https://xkcd.com/149/"])

        let session = try TerminalSession(comics, ["browse"])
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("o")
        XCTAssertTrue(try session.wait(for: "opened https://xkcd.com/200/"))
        XCTAssertEqual(opened(record, lines: 2), ["https://xkcd.com/149/", "https://xkcd.com/200/"])
        try session.send("Q")
        XCTAssertNotNil(try session.finish())
    }

    /// The browser keeps its standard streams and nothing else of comics:
    /// not the database's files, curl's connections, browse's pipes, nor
    /// what the process running comics left open. `ls` of its own
    /// descriptors sees 0, 1, 2 and the folder it reads.
    func testTheBrowserInheritsNoDescriptor() throws {
        let listing = comics.home.file("descriptors")
        let browser = comics.home.file("browser")
        try "#!/bin/sh\nexec /bin/ls /proc/self/fd >> \(listing)\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        comics.environment["BROWSER"] = browser
        XCTAssertEqual(try comics.run(["open", "149"]).status, 0)
        XCTAssertEqual(opened(listing, lines: 4), ["0", "1", "2", "3"], "comics open")

        let session = try TerminalSession(comics, ["browse"])
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("o")
        XCTAssertTrue(try session.wait(for: "opened https://xkcd.com/200/"))
        XCTAssertEqual(opened(listing, lines: 8), ["0", "1", "2", "3", "0", "1", "2", "3"], "browse's o")
        try session.send("Q")
        XCTAssertNotNil(try session.finish())
    }

    /// $BROWSER as its convention has it: a list tried in order, each a
    /// command with arguments, %s standing for the URL.
    func testBrowserIsAListOfCommandsWithArguments() throws {
        let record = try fakeBrowser()
        let browser = try XCTUnwrap(comics.environment["BROWSER"])
        comics.environment["BROWSER"] = "/nonexistent/firefox:\(browser) --new-tab %s --end"
        XCTAssertEqual(try comics.run(["open", "149"]).status, 0)
        XCTAssertEqual(opened(record, lines: 3), ["--new-tab", "https://xkcd.com/149/", "--end"])
        comics.environment["BROWSER"] = "\(browser) --private"
        XCTAssertEqual(try comics.run(["open", "150"]).status, 0)
        XCTAssertEqual(opened(record, lines: 5).suffix(2), ["--private", "https://xkcd.com/150/"], "without %s the URL goes last")
    }

    /// A browser that draws in the terminal gets it: the screen is given
    /// up while it runs and drawn again after; a detached one is reaped.
    func testATerminalBrowserGetsTheTerminal() throws {
        let folder = comics.home.file("bin")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let record = comics.home.file("lynx-saw")
        try "#!/bin/sh\nseen='no tty'\n[ -t 0 ] && [ -t 1 ] && seen=tty\necho \"$seen $1\" >> \(record)\n"
            .write(toFile: folder + "/lynx", atomically: true, encoding: .utf8)
        chmod(folder + "/lynx", 0o755)
        comics.environment["BROWSER"] = folder + "/lynx"
        let session = try TerminalSession(comics, ["browse"])
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("o")
        XCTAssertTrue(try session.wait(for: "opened https://xkcd.com/200/"))
        XCTAssertTrue(try session.wait(for: "Bill Nye"), "the screen drawn again")
        XCTAssertEqual(opened(record, lines: 1), ["tty https://xkcd.com/200/"])

        try session.send("Q")
        XCTAssertNotNil(try session.finish())
    }

    func testADetachedBrowserIsReaped() throws {
        _ = try fakeBrowser()
        let session = try TerminalSession(comics, ["browse"])
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("o")
        XCTAssertTrue(try session.wait(for: "opened https://xkcd.com/200/"))
        var zombies: [String] = []
        for _ in 0..<40 {
            usleep(100_000)
            zombies = zombieChildrenOfComics()
            if zombies.isEmpty { break }
        }
        XCTAssertEqual(zombies, [], "no browser left a zombie")
        try session.send("Q")
        XCTAssertNotNil(try session.finish())
    }

    /// Processes in state Z whose parent runs this build's comics.
    private func zombieChildrenOfComics() -> [String] {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] == "Z" else { return nil }
            let parent = (try? String(contentsOfFile: "/proc/\(fields[1])/cmdline", encoding: .utf8)) ?? ""
            return parent.contains(ComicsRunner.executable) ? pid : nil
        }
    }

    func testWithoutABrowserOpenSaysWhatToDo() throws {
        comics.environment["BROWSER"] = nil
        comics.environment["PATH"] = "/nonexistent"
        let result = try comics.run(["open", "149"])
        XCTAssertEqual(result.status, 1, "\(result)")
        XCTAssertEqual(result.stderr, "comics: error: no browser found to open https://xkcd.com/149/: set $BROWSER, or install xdg-utils\n")
    }
}
