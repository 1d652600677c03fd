import ComicsKit
import Foundation
import TestSupport
import XCTest

@testable import comics

/// The reader in a pseudo-terminal: a book's text from the cache, paged,
/// its place kept across quits, signals and widths.
final class ReaderTests: EndToEndTestCase {
    /// The reader's tests read the plain texts, whose every line they know.
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "text"]).status, 0)
    }

    private func reader(_ book: Int = 11, rows: Int = 20, columns: Int = 80, waitingFor text: String) throws -> TerminalSession {
        let session = try TerminalSession(comics, ["read", String(book)], rows: rows, columns: columns)
        XCTAssertTrue(try session.wait(for: text), session.screen.joined(separator: "\n"))
        return session
    }

    private func end(_ session: TerminalSession, file: StaticString = #filePath, line: UInt = #line) throws {
        let ended = try XCTUnwrap(try session.finish(), "the reader did not end", file: file, line: line)
        XCTAssertEqual(ended.status, 0, file: file, line: line)
        XCTAssertTrue(ended.modesRestored, "the terminal's modes are as before", file: file, line: line)
    }

    private func reading(_ book: Int = 11) throws -> JSONValue? {
        try JSONValue.parse(try comics.run(["show", "books:\(book)", "-f", "json"]).stdout)["reading"]
    }

    /// The first row of text on the screen, without the margin.
    private func topText(_ session: TerminalSession) -> String {
        (session.screen.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "").trimmingCharacters(in: .whitespaces)
    }

    func testReadOpensTheReaderPagesAndComesBackWhereItStopped() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        XCTAssertTrue(session.screen[19].contains("Alice's Adventures in Wonderland"), "the book in the status line: \(session.screen[19])")
        try session.send("]")
        XCTAssertTrue(try session.wait(for: "§1 CHAPTER I. Down the Rabbit-Hole"), session.screen[19])
        try session.send("]]")
        XCTAssertTrue(try session.wait(for: "§3 CHAPTER III. A Caucus-Race"), session.screen[19])
        try session.send("  ")
        XCTAssertTrue(try session.wait(whileShowing: "    CHAPTER III. A Caucus-Race and a Long Tale"), "two pages on")
        let page = session.screen.prefix(19).joined(separator: "\n")
        let top = topText(session)
        XCTAssertFalse(top.isEmpty)
        XCTAssertTrue(session.screen.prefix(19).allSatisfy { $0.count <= 80 })
        try session.send("q")
        try end(session)
        XCTAssertEqual(try reading()?["section"], .int(3))

        let again = try reader(waitingFor: top)
        XCTAssertEqual(again.screen.prefix(19).joined(separator: "\n"), page, "the same page again")
        try again.send("q")
        try end(again)
    }

    func testASignalLeavesThePlaceSaved() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]]]]j")
        XCTAssertTrue(try session.wait(for: "§4 CHAPTER IV."), session.screen[19])
        try session.signal("TERM")
        _ = try session.finish()
        XCTAssertEqual(try reading()?["section"], .int(4), "saved on the way out")
    }

    /// The place a frame shows is written just after it is drawn, not
    /// only on the way out: another process sees it while the reader is
    /// open, and a kill -9, which nothing can catch, keeps the last one.
    func testThePlaceShownIsSavedWhileReading() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]]")
        XCTAssertTrue(try session.wait(for: "§2 CHAPTER II."), session.screen[19])
        XCTAssertTrue(try savedSection(becomes: 2), "seen while the reader is open")
        try session.send("]")
        XCTAssertTrue(try session.wait(for: "§3 CHAPTER III."), session.screen[19])
        XCTAssertTrue(try savedSection(becomes: 3))
        try session.signal("KILL")
        _ = try session.finish()
        XCTAssertEqual(try reading()?["section"], .int(3))
    }

    /// Whether the saved place reaches `section` within five seconds.
    private func savedSection(becomes section: Int) throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if try reading()?["section"] == .int(section) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func testAnotherWidthKeepsTheLineAtTheTop() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(rows: 20, columns: 100, waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]" + String(repeating: "j", count: 7))
        XCTAssertTrue(try session.wait(for: "§1 CHAPTER I."))
        Thread.sleep(forTimeInterval: 0.3)
        let top = topText(session)
        let firstWords = top.split(separator: " ").prefix(2).joined(separator: " ")
        try session.resize(rows: 20, columns: 50)
        XCTAssertTrue(try session.wait(whileShowing: top))
        XCTAssertTrue(session.screen.prefix(2).joined(separator: " ").contains(firstWords), "\(firstWords) at the top: \(session.screen.prefix(3))")
        XCTAssertTrue(session.screen.prefix(19).allSatisfy { $0.trimmingCharacters(in: .whitespaces).count <= 48 }, "a 48-column text")
        try session.resize(rows: 20, columns: 100)
        XCTAssertTrue(try session.wait(for: top), "the same line at the top again: \(session.screen.prefix(2))")
        XCTAssertEqual(topText(session), top)
        try session.send("q")
        try end(session)
    }

    func testRInBrowseReadsAFavouriteBookAndEscGoesBack() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "books:11"]).status, 0)
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("F")
        XCTAssertTrue(try session.wait(for: "books:11"))
        try session.send("R")
        // Not downloaded yet: downloaded off the screen's thread, then shown.
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), session.screen.joined(separator: "\n"))
        try session.send(":5\r")
        XCTAssertTrue(try session.wait(for: "§5 CHAPTER V."), session.screen[19])
        try session.send("G")
        XCTAssertTrue(try session.wait(for: "% · §12 CHAPTER XII."), session.screen[19])
        try session.send("\u{1B}")
        XCTAssertTrue(try session.wait(for: "favourites"), session.screen[19])
        XCTAssertEqual(try reading()?["section"], .int(12), "leaving the reader for the list saves where it stopped")
        try session.send("gR")
        XCTAssertTrue(try session.wait(for: "THE END"), "from the cache the second time, where it stopped: \(session.screen[19])")
        try session.send("g\u{1B}\r")
        XCTAssertTrue(try session.wait(for: "Carroll, Lewis"), "the detail screen")
        XCTAssertTrue(try session.wait(for: "Read:           R or Enter reads it on from where you stopped"), session.screen.joined(separator: "\n"))
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), "Enter on a book's detail reads it")
        try session.send(":3\r")
        XCTAssertTrue(try session.wait(for: "§3 CHAPTER III."), session.screen[19])
        try session.send("\u{1B}")
        XCTAssertTrue(try session.wait(for: "Reading:        §3 CHAPTER III. A Caucus-Race and a Long Tale, 16%"),
                      "the detail says where reading stopped now: \(session.screen.joined(separator: "\n"))")
        try session.send("Q")
        try end(session)
        XCTAssertEqual(try comics.run(["--offline", "toc", "11"]).status, 0, "the text was downloaded into the cache")
    }

    func testOfflineAndNotDownloadedSaysSoInTheReader() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:11"]).status, 0)
        let session = try TerminalSession(comics, ["--offline", "browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("FR")
        XCTAssertTrue(try session.wait(for: "not downloaded, and --offline forbids the network"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen[19].hasSuffix(" · Esc back") && !session.screen[19].contains("t contents"),
                      "no text, no contents to offer: \(session.screen[19])")
        try session.send("Q")
        try end(session)
    }

    func testAComicHasNoTextToRead() throws {
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("R")
        XCTAssertTrue(try session.wait(for: "xkcd:200 is a comic; R reads a book's text"), session.screen[19])
        try session.send("Q")
        try end(session)
    }

    func testTheContentsGoToTheSectionChosen() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]]t")
        XCTAssertTrue(try session.wait(for: "contents: Enter goes"), session.screen[19])
        let first = try XCTUnwrap(session.screen.first { $0.hasPrefix("  1  CHAPTER I. Down the Rabbit-Hole  ") }, session.screen.joined(separator: "\n"))
        XCTAssertTrue(first.trimmingCharacters(in: .whitespaces).hasSuffix(" 0%"), first)
        let chapters = session.screen.prefix(19).filter { $0.contains("CHAPTER") }
        XCTAssertEqual(chapters.count, 12, "every chapter")
        XCTAssertEqual(Set(chapters.map { $0.trimmingCharacters(in: .whitespaces).count + ($0.count - $0.drop { $0 == " " }.count) }).count, 1,
                       "the percentages end in one column: \(chapters)")
        try session.send("jj\r")
        XCTAssertTrue(try session.wait(for: "§4 CHAPTER IV. The Rabbit Sends in a Little Bill"), session.screen[19])
        XCTAssertTrue(session.screen.contains("    CHAPTER IV. The Rabbit Sends in a Little Bill"), "the page opens at the heading")
        try session.send("q")
        try end(session)
        XCTAssertEqual(try reading()?["section"], .int(4))
    }

    func testColonGoesToASectionOrAPercentage() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send(":7\r")
        XCTAssertTrue(try session.wait(for: "§7 CHAPTER VII. A Mad Tea-Party"), session.screen[19])
        try session.send(":50%\r")
        XCTAssertTrue(try session.wait(whileShowing: "§7 CHAPTER VII."), session.screen[19])
        let percent = session.screen[19].split(separator: "·").compactMap { Int($0.trimmingCharacters(in: .whitespaces).dropLast()) }.first
        XCTAssertTrue((50...52).contains(percent ?? 0), "never less than asked: \(session.screen[19])")
        try session.send(":0\r")
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), "section 0 is the front matter: \(session.screen.joined(separator: "\n"))")
        try session.send(":99\r")
        XCTAssertTrue(try session.wait(for: "a section 0–12, or a percentage (40%)"), session.screen[19])
        try session.send("q")
        try end(session)
    }

    func testSearchFindsAPhraseAcrossTheFilesLinesAndNGoesOn() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        // "and then" ends a line of the file, "dipped suddenly" begins the next.
        try session.send("/\"and then dipped suddenly\"\r")
        XCTAssertTrue(try session.wait(for: "hit 1 of 1"), session.screen[19])
        XCTAssertTrue(session.screen.contains { $0.contains("The rabbit-hole went straight on like a tunnel") }, session.screen.joined(separator: "\n"))
        try session.send("g/tarts\r")
        XCTAssertTrue(try session.wait(for: "hit 1 of "), session.screen[19])
        let count = session.screen[19].components(separatedBy: "hit 1 of ").last?.prefix { $0.isNumber } ?? ""
        XCTAssertGreaterThan(Int(count) ?? 0, 3, "tarts come up in several paragraphs")
        try session.send("n")
        XCTAssertTrue(try session.wait(for: "hit 2 of \(count)"), session.screen[19])
        XCTAssertTrue(session.screen.prefix(19).contains { $0.lowercased().contains("tart") }, "the hit is on the page")
        try session.send("N")
        XCTAssertTrue(try session.wait(for: "hit 1 of \(count)"), session.screen[19])
        try session.send("/zzzqqq\r")
        XCTAssertTrue(try session.wait(for: "nothing in books:11 matches zzzqqq"), session.screen[19])
        try session.send("q")
        try end(session)
    }

    /// `search --in` names each hit's paragraph; `read --at N --search`
    /// opens the reader there with the search going on.
    func testASearchHitOpensInTheReaderAndDoubleQuoteGoesBack() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let hits = try JSONValue.parse(try comics.run(["search", "tarts", "--in", "11", "-f", "json", "-n", "100"]).stdout).arrayValue ?? []
        let blocks = hits.compactMap { $0["block"]?.intValue }.sorted()
        XCTAssertGreaterThan(blocks.count, 3)
        let printed = try comics.run(["search", "tarts", "--in", "11", "-n", "1"])
        XCTAssertTrue(printed.line(0).hasSuffix("  ¶\(hits[0]["block"]?.intValue ?? -1)"), printed.stdout)
        let onTerminal = try comics.shell("script -qec '\"$COMICS\" search tarts --in 11 -n 1 --no-pager' /dev/null")
        XCTAssertTrue(onTerminal.stdout.contains(
            "comics: note: the first in the reader: comics read books:11 --at \(hits[0]["block"]?.intValue ?? -1) --search tarts\r\n"),
            onTerminal.stdout)
        XCTAssertFalse(printed.stderr.contains("the first in the reader"), "off a terminal, no hint: \(printed.stderr)")
        let phrase = try comics.shell("script -qec '\"$COMICS\" search \"mock turtle\" --in 11 -n 1 --no-pager' /dev/null")
        XCTAssertTrue(phrase.stdout.contains(" --search 'mock turtle'\r\n"), "a command to paste, its quotes not nested: \(phrase.stdout)")

        let third = blocks[2]
        let session = try TerminalSession(comics, ["read", "11", "--at", String(third), "--search", "tarts"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "hit 3 of \(blocks.count)"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen.prefix(19).contains { $0.lowercased().contains("tart") }, session.screen.joined(separator: "\n"))
        let atTheHit = topText(session)
        try session.send("n")
        XCTAssertTrue(try session.wait(for: "hit 4 of \(blocks.count)"), session.screen[19])
        try session.send("''")
        XCTAssertTrue(try session.wait(for: atTheHit), "'' goes back to where the jump came from: \(session.screen.joined(separator: "\n"))")
        try session.send("q")
        try end(session)
        XCTAssertEqual(try reading()?["section"], hits.first { $0["block"]?.intValue == third }?["section"], "the place is saved at the hit")

        XCTAssertEqual(try comics.run(["read", "11", "--search", "tarts"]).status, 2, "off a terminal --search has no reader to open")
        XCTAssertEqual(try comics.run(["read", "11", "--at", "99999"]).status, 3)
        let fromThere = try comics.run(["read", "11", "--at", String(third)]).stdout
        let whole = try comics.run(["read", "11", "--from-start"]).stdout
        XCTAssertTrue(whole.hasSuffix(fromThere) && fromThere.count < whole.count, "off a terminal, printed from the paragraph on")
        XCTAssertTrue(fromThere.prefix(2_000).lowercased().contains("tart"), String(fromThere.prefix(300)))
    }

    func testFromStartOpensTheReaderAtTheBeginning() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send(":6\r")
        XCTAssertTrue(try session.wait(for: "§6 CHAPTER VI."), session.screen[19])
        try session.send("q")
        try end(session)
        let again = try TerminalSession(comics, ["read", "11", "--from-start"], rows: 20, columns: 80)
        XCTAssertTrue(try again.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), again.screen.joined(separator: "\n"))
        try again.send("''")
        XCTAssertTrue(try again.wait(for: "§6 CHAPTER VI."), "'' goes to where reading had stopped: \(again.screen[19])")
        try again.send("q")
        try end(again)
    }

    func testPlusAndMinusChangeTheWidthAndKeepIt() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(rows: 20, columns: 100, waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]-")
        XCTAssertTrue(try session.wait(for: "text width 68 columns"), session.screen[19])
        XCTAssertTrue(try session.wait(for: "Alice was beginning to get very tired of sitting by her sister on"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen.prefix(19).allSatisfy { $0.trimmingCharacters(in: .whitespaces).count <= 68 })
        try session.send("q")
        try end(session)
        XCTAssertEqual(try comics.run(["config", "get", "reader.width"]).stdout, "68\n")
    }

    /// A book of the catalogue whose text is `text`, wrapped in Gutenberg's markers.
    private func serve(_ id: Int, text: String) throws {
        try server.serveText(id, text)
        XCTAssertEqual(try comics.run(["get", String(id)]).status, 0)
    }

    func testAHostileTextIsDrawnHarmless() throws {
        try serve(70003, text: "CHAPTER I.\n\nThe \u{1B}]52;c;aGk=\u{07}clipboard and \u{1B}[2Jscreen stay as they were, and the \u{9B}31mreader\u{202E} reads on.")
        let session = try reader(70003, waitingFor: "The clipboard and screen stay as they were, and the reader reads on.")
        XCTAssertTrue(session.screen.contains("    CHAPTER I."), "nothing cleared the screen: \(session.screen.prefix(4))")
        try session.send("q")
        try end(session)
    }

    func testATextWithNothingToReadSaysSo() throws {
        try serve(70005, text: "")
        let session = try reader(70005, waitingFor: "nothing to read in books:70005 once its header and licence are cut")
        try session.send("jG ]t")
        try session.send("q")
        try end(session)
    }

    func testHAndF1ShowTheReadersKeysAndAnyOtherKeyGoesBack() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        XCTAssertTrue(session.screen[19].contains("H keys"), "the status says how: \(session.screen[19])")
        try session.send("H")
        XCTAssertTrue(try session.wait(for: "The reader's keys"), session.screen.joined(separator: "\n"))
        XCTAssertTrue(session.screen.contains { $0.hasPrefix("  ''   ") && $0.hasSuffix("   back to where the last jump came from") },
                      session.screen.joined(separator: "\n"))
        try session.send("x")
        XCTAssertTrue(try session.wait(whileShowing: "The reader's keys"), "any other key closes it")
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), session.screen.joined(separator: "\n"))
        try session.send("\u{1B}OP")
        XCTAssertTrue(try session.wait(for: "The reader's keys"), session.screen.joined(separator: "\n"))
        try session.send("q")
        XCTAssertTrue(try session.wait(whileShowing: "The reader's keys"))
        try session.send("q")
        try end(session)
    }

    func testAWideScriptFitsItsColumns() throws {
        let paragraph = String(repeating: "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。", count: 12)
        try serve(70004, text: "第一章\n\n" + paragraph + "\n\n" + paragraph)
        let session = try reader(70004, rows: 12, columns: 40, waitingFor: "吾輩は猫")
        let page = session.screen.prefix(11)
        XCTAssertTrue(page.allSatisfy { DisplayWidth.of($0) <= 40 }, page.joined(separator: "\n"))
        XCTAssertGreaterThan(page.filter { DisplayWidth.of($0.trimmingCharacters(in: .whitespaces)) >= 34 }.count, 3, "lines filled to the column")
        try session.send("q")
        try end(session)
    }

    func testTheReadingListPutsTheLastReadFirstWithHowFar() throws {
        XCTAssertEqual(try comics.run(["get", "11", "1342"]).status, 0)
        let first = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try first.send("]]]q")
        try end(first)
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("L")
        XCTAssertTrue(try session.wait(for: "reading list · 1 of 2"), session.screen[19])
        XCTAssertTrue(session.screen[0].hasPrefix("    books:11  Carroll, Lewis") && session.screen[0].hasSuffix("▤ 16%"), session.screen[0])
        XCTAssertTrue(session.screen[1].contains("books:1342") && session.screen[1].hasSuffix("▤"), "downloaded, not begun: \(session.screen[1])")
        try session.resize(rows: 20, columns: 40)
        XCTAssertTrue(try session.wait(for: "…  ▤ 16%"), "on a narrow screen the title gives way to the mark: \(session.screen.prefix(2))")
        try session.resize(rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Alice's Adventures in Wonderland  ▤ 16%"), session.screen[0])
        try session.send("jR")
        XCTAssertTrue(try session.wait(for: "Pride and Prejudice · t contents"), session.screen[19])
        try session.send("]] q")
        XCTAssertTrue(try session.wait(for: "reading list"), session.screen[19])
        XCTAssertTrue(try session.wait(for: "\n    books:11  Carroll, Lewis"), "the book just read comes first: \(session.screen.prefix(2))")
        XCTAssertTrue(session.screen[0].hasPrefix("  books:1342  Austen, Jane"), session.screen[0])
        XCTAssertTrue(session.screen[0].contains("▤ ") && session.screen[0].hasSuffix("%"), "begun now: \(session.screen[0])")
        try session.send("Q")
        try end(session)
    }

    func testTheBooksListMarksADownloadedText() throws {
        XCTAssertEqual(try comics.run(["get", "2701"]).status, 0)
        let session = try TerminalSession(comics, ["-s", "books", "browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Moby Dick; Or, The Whale  ▤"), session.screen.joined(separator: "\n"))
        XCTAssertFalse(session.screen.contains { $0.contains("Frankenstein") && $0.contains("▤") }, "only the downloaded one")
        try session.send("Q")
        try end(session)
    }

    func testABookmarkIsNamedRenamedAndSurvivesARestart() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]]]m")
        XCTAssertTrue(try session.wait(for: "bookmark 1: CHAPTER III. A Caucus-Race and a Long Tale (' lists them)"), session.screen[19])
        try session.send("g'")
        XCTAssertTrue(try session.wait(for: "  1  CHAPTER III. A Caucus-Race and a Long Tale · "), session.screen.joined(separator: "\n"))
        try session.send("r\u{15}Caucus\r")
        XCTAssertTrue(try session.wait(for: "  1  Caucus · "), session.screen.joined(separator: "\n"))
        try session.send("\r")
        XCTAssertTrue(try session.wait(for: "§3 CHAPTER III."), session.screen[19])
        try session.send("''")
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), "'' goes back to where the jump came from")
        try session.send("q")
        try end(session)

        let again = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try again.send("'")
        XCTAssertTrue(try again.wait(for: "  1  Caucus · "), again.screen.joined(separator: "\n"))
        try again.send("\r")
        XCTAssertTrue(try again.wait(for: "§3 CHAPTER III."), again.screen[19])
        try again.send("'d")
        XCTAssertTrue(try again.wait(for: "no bookmarks yet"), again.screen.joined(separator: "\n"))
        try again.send("\u{1B}q")
        try end(again)
    }

    func testABookmarkFindsItsParagraphInANewEdition() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send(":5\rjjm")
        XCTAssertTrue(try session.wait(for: "bookmark 1: CHAPTER V. Advice from a Caterpillar"), session.screen[19])
        let marked = topText(session)
        try session.send("q")
        try end(session)
        try getAliceWithAPreface()

        let again = try reader(waitingFor: "§5 CHAPTER V.")
        try again.send("g")
        XCTAssertTrue(try again.wait(for: "A NEW PREFACE"), again.screen.joined(separator: "\n"))
        try again.send("'")
        XCTAssertTrue(try again.wait(for: "  1  CHAPTER V. Advice from a Caterpillar"), again.screen.joined(separator: "\n"))
        try again.send("\r")
        XCTAssertTrue(try again.wait(for: "§5 CHAPTER V."), again.screen[19])
        XCTAssertEqual(topText(again), marked, "the same line at the top in the new edition")
        try again.send("q")
        try end(again)
    }

    func testCCyclesTheColoursAndNoColorKeepsTheTerminals() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        XCTAssertEqual(session.coloredCells, 0, "the terminal's own colours at first")
        try session.send("c")
        XCTAssertTrue(try session.wait(for: "colours: dark"), session.screen[19])
        XCTAssertGreaterThanOrEqual(session.coloredCells, 80 * 19, "the whole page on the theme's background")
        try session.send("cc")
        XCTAssertTrue(try session.wait(for: "colours: terminal"), session.screen[19])
        XCTAssertEqual(session.coloredCells, 0)
        try session.send("cq")
        try end(session)
        XCTAssertEqual(try comics.run(["config", "get", "reader.theme"]).stdout, "dark\n", "kept")

        comics.environment["NO_COLOR"] = "1"
        let plain = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        XCTAssertEqual(plain.coloredCells, 0, "NO_COLOR: the terminal's colours, whatever reader.theme says")
        try plain.send("c")
        XCTAssertTrue(try plain.wait(for: "NO_COLOR or --no-color: the terminal's own colours"), plain.screen[19])
        try plain.send("q")
        try end(plain)
    }

    func testEscCancelsADownloadThatStalls() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "books:11"]).status, 0)
        let session = try TerminalSession(comics, ["browse"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Bill Nye"))
        try session.send("F")
        XCTAssertTrue(try session.wait(for: "books:11"))
        // Headers, then a byte a second: the download would hold its worker for good.
        try server.control(.object([("fault", .string("stall"))]))
        try session.send("R")
        XCTAssertTrue(try session.wait(for: "downloading the text of books:11… (Esc cancels)"), session.screen.joined(separator: "\n"))
        try session.send("\u{1B}")
        XCTAssertTrue(try session.wait(for: "favourites"), session.screen[19])
        try server.control(.object([("fault", .null)]))
        try session.send("R")
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND", timeout: 8), "the stalled download gave way: \(session.screen.joined(separator: "\n"))")
        try session.send("Q")
        try end(session)
    }

    /// `comics read` of a text not downloaded: the book is checked first
    /// (a failure is an exit code, before any screen), then the reader
    /// downloads it with its progress line, and Esc ends it.
    func testReadOfATextNotDownloadedDownloadsInTheReader() throws {
        XCTAssertEqual(try comics.run(["show", "books:11"]).status, 0, "the record cached: only the text is asked for below")
        try server.control(.object([("fault", .string("stall"))]))
        let session = try TerminalSession(comics, ["read", "11"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "downloading the text of books:11… (Esc cancels)"), session.screen.joined(separator: "\n"))
        try session.send("j")
        try session.send("\u{1B}")
        try end(session)
        try server.control(.object([("fault", .null)]))
        XCTAssertEqual(try comics.run(["--offline", "toc", "11"]).status, 4, "nothing half-downloaded kept")

        let again = try TerminalSession(comics, ["read", "11"], rows: 20, columns: 80)
        XCTAssertTrue(try again.wait(for: "ALICE’S ADVENTURES IN WONDERLAND"), again.screen.joined(separator: "\n"))
        try again.send("q")
        try end(again)

        let unknown = try comics.shell("script -qec '\"$COMICS\" read 999999' /dev/null")
        XCTAssertEqual(unknown.status, 3, "no such book: an exit code, no screen: \(unknown)")
        let offline = try comics.shell("script -qec '\"$COMICS\" --offline read 1342' /dev/null")
        XCTAssertEqual(offline.status, 4, "\(offline)")
    }

    /// A download that fails in the reader can be tried again with r; left
    /// unread, `comics read` fails as the download did.
    func testAFailedDownloadIsTriedAgainAndLeftUnreadItFails() throws {
        XCTAssertEqual(try comics.run(["show", "books:11"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "books:1342"]).status, 0)
        try server.control(.object([("fault", .string("500")), ("count", .int(1_000))]))
        let session = try TerminalSession(comics, ["read", "11"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "r tries again, q leaves", timeout: 30), session.screen.joined(separator: "\n"))
        try server.control(.object([("fault", .null)]))
        try session.send("r")
        XCTAssertTrue(try session.wait(for: "ALICE’S ADVENTURES IN WONDERLAND", timeout: 30), session.screen.joined(separator: "\n"))
        try session.send("q")
        try end(session)

        try server.control(.object([("fault", .string("500")), ("count", .int(1_000))]))
        let failing = try TerminalSession(comics, ["read", "1342"], rows: 20, columns: 80)
        XCTAssertTrue(try failing.wait(for: "r tries again, q leaves", timeout: 30), failing.screen.joined(separator: "\n"))
        try failing.send("\u{1B}")
        let ended = try XCTUnwrap(try failing.finish())
        XCTAssertEqual(ended.status, 4, "left unread: the download's failure is the command's")
        XCTAssertTrue(try failing.wait(forOutput: "comics: error: "), "said once the screen is gone")
        try server.control(.object([("fault", .null)]))
    }

    /// `comics read` in another terminal writes its own place; the reader
    /// on screen does not jump, and the last to write wins.
    func testAnotherProcessReadingDoesNotMoveThePage() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let session = try reader(waitingFor: "ALICE’S ADVENTURES IN WONDERLAND")
        try session.send("]]")
        XCTAssertTrue(try session.wait(for: "§2 CHAPTER II."), session.screen[19])
        let page = session.screen
        XCTAssertEqual(try comics.shell("script -qec '\"$COMICS\" read 11 --section 8 --no-pager' /dev/null").status, 0)
        XCTAssertEqual(try reading()?["section"], .int(8), "the other process wrote its place")
        Thread.sleep(forTimeInterval: 1)
        try session.send("\u{0C}")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(session.screen, page, "the page stays where the reader is")
        try session.send(" q")
        try end(session)
        XCTAssertEqual(try reading()?["section"], .int(2), "the reader wrote last")
    }
}
