import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Books' texts from the built binary: `get`, `read` and `toc` against the
/// loopback server laid out as gutenberg.org is (`/ebooks/N.txt.utf-8`
/// redirecting to `/cache/epub/N/pgN.txt`).
final class TextsTests: EndToEndTestCase {
    /// These tests read the plain texts, whose every line they know
    /// (`HTMLEditionTests` reads the HTML editions).
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "text"]).status, 0)
    }

    func testGetThenTocAndReadWorkOffline() throws {
        let got = try comics.run(["get", "11"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(got.stdout, "got books:11: plain text, 169.5 KiB, 12 sections, 26449 words\n")
        XCTAssertEqual(try server.requests(), ["/books/11/", "/ebooks/11.txt.utf-8", "/cache/epub/11/pg11.txt"])

        let again = try comics.run(["get", "books:11"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdout, "")
        XCTAssertEqual(again.stderr, "comics: note: the text of books:11 is downloaded already (plain text, 169.5 KiB, 12 sections); nothing to do\n")
        XCTAssertEqual(try server.requests().count, 3, "nothing fetched again")

        let toc = try comics.run(["--offline", "toc", "11"])
        XCTAssertEqual(toc.status, 0, "\(toc)")
        XCTAssertEqual(toc.stdoutLines.count, 13)
        XCTAssertTrue(toc.line(1).hasPrefix(" 1  CHAPTER I. Down the Rabbit-Hole"), toc.line(1))
        XCTAssertTrue(toc.line(12).hasPrefix("12  CHAPTER XII. Alice’s Evidence"), toc.line(12))

        let section = try comics.run(["--offline", "read", "11", "--section", "1", "--width", "60"])
        XCTAssertEqual(section.status, 0, "\(section)")
        XCTAssertEqual(section.stdoutLines.first, "CHAPTER I. Down the Rabbit-Hole")
        XCTAssertEqual(section.line(1), "Alice was beginning to get very tired of sitting by her")
        XCTAssertTrue(section.stdoutLines.allSatisfy { $0.count <= 60 }, "reflowed to 60 columns")
        XCTAssertFalse(section.stdout.contains("CHAPTER II."), "one section only")

        let whole = try comics.run(["--offline", "read", "11"])
        XCTAssertEqual(whole.status, 0)
        XCTAssertTrue(whole.stdout.hasPrefix("ALICE’S ADVENTURES IN WONDERLAND\n"), String(whole.stdout.prefix(80)))
        XCTAssertTrue(whole.stdout.hasSuffix("THE END\n"), String(whole.stdout.suffix(80)))
        XCTAssertFalse(whole.stdout.contains("Gutenberg"), "no header or licence")
        XCTAssertTrue(whole.stdoutLines.allSatisfy { $0.count <= 80 }, "80 columns off a terminal")
        XCTAssertEqual(try server.requests().count, 3, "read offline from the cache")
    }

    func testReadDownloadsFirstAndJSONGivesSections() throws {
        let read = try comics.run(["read", "844", "-f", "json"])
        XCTAssertEqual(read.status, 0, "\(read.stderr)")
        let book = try JSONValue.parse(Array(read.stdout.utf8))
        XCTAssertEqual(book["source"]?.stringValue, "books")
        XCTAssertEqual(book["id"]?.intValue, 844)
        XCTAssertTrue(book["title"]?.stringValue?.contains("Earnest") == true, "the book's title: \(String(read.stdout.prefix(200)))")
        let sections = book["sections"]?.arrayValue ?? []
        XCTAssertEqual(sections.map { $0["title"]?.stringValue ?? "" }, ["Front matter", "FIRST ACT", "SECOND ACT", "THIRD ACT"])
        XCTAssertEqual(sections.map { $0["section"]?.intValue ?? -1 }, [0, 1, 2, 3])
        XCTAssertEqual(sections.map { $0["level"]?.intValue ?? -1 }, [0, 1, 1, 1], "the front matter 0, the outermost headings 1")
        let firstAct = sections[1]["paragraphs"]?.arrayValue ?? []
        XCTAssertEqual(firstAct.first?["kind"]?.stringValue, "heading")
        let lines = try comics.run(["read", "844", "-f", "ndjson"]).stdoutLines
        XCTAssertEqual(lines.count, 4, "a section a line")
        XCTAssertEqual(try lines.map { try JSONValue.parse($0)["id"]?.intValue ?? 0 }, [844, 844, 844, 844], "each line says its book")
        let toc = try comics.run(["toc", "844", "-f", "csv"])
        XCTAssertEqual(toc.stdout, "source,id,ref,section,level,title,percent,words\r\nbooks,844,books:844,1,1,FIRST ACT,0,7326\r\n"
            + "books,844,books:844,2,1,SECOND ACT,36,8645\r\nbooks,844,books:844,3,1,THIRD ACT,77,4608\r\n")
    }

    /// A plain text's heading and the title paragraph under it are two
    /// heading blocks, read as one heading: no blank line between them.
    func testATitleParagraphReadsUnderItsHeading() throws {
        let prose = String(repeating: "Words of the chapter run on for a while here. ", count: 8)
        try server.serveText(844, "BOOK ONE.\n\nCHAPTER I.\n\nTHE BEGINNING\n\n\(prose)\n\nCHAPTER II.\n\nTHE MIDDLE\n\n\(prose)\n\n"
            + "BOOK TWO.\n\nCHAPTER I.\n\nTHE END\n\n\(prose)\n")
        XCTAssertEqual(try comics.run(["get", "844"]).status, 0)
        XCTAssertEqual(try comics.run(["--offline", "toc", "844"]).stdoutLines.count, 6)
        let read = try comics.run(["--offline", "read", "844", "--section", "3", "--width", "60"])
        XCTAssertTrue(read.stdout.hasPrefix("CHAPTER II.\nTHE MIDDLE\n\nWords of the chapter run on for a while here. Words of the\n"), read.stdout)
        let whole = try comics.run(["--offline", "read", "844", "--from-start", "--width", "60"])
        XCTAssertTrue(whole.stdout.hasPrefix("BOOK ONE.\n\n\nCHAPTER I.\nTHE BEGINNING\n\nWords"), "a chapter under its book stands apart: \(whole.stdout)")
        XCTAssertTrue(whole.stdout.contains("here.\n\n\nCHAPTER II.\nTHE MIDDLE\n\nWords"), whole.stdout)
        let json = try JSONValue.parse(try comics.run(["--offline", "read", "844", "--section", "3", "-f", "json"]).stdout)
        let kinds = json["sections"]?.arrayValue?.first?["paragraphs"]?.arrayValue?.map { $0["kind"] }
        XCTAssertEqual(kinds, [.string("heading"), .string("heading"), .string("paragraph")])
    }

    func testSectionsPastTheLastAreNotFound() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let past = try comics.run(["read", "11", "--section", "13"])
        XCTAssertEqual(past.status, 3)
        XCTAssertEqual(past.stderr, "comics: error: books:11 has 12 sections; 'comics toc books:11' lists them\n")
        let negative = try comics.run(["read", "11", "--section", "-1"])
        XCTAssertEqual(negative.status, 2)
    }

    func testNotDownloadedAndOfflineIsANetworkFailure() throws {
        XCTAssertEqual(try comics.run(["show", "books:1342"]).status, 0)
        let offline = try comics.run(["--offline", "read", "1342"])
        XCTAssertEqual(offline.status, 4, "\(offline)")
        XCTAssertEqual(offline.stderr, "comics: error: the text of books:1342 is not downloaded, and --offline forbids the network\n")
        XCTAssertEqual(try server.requests(), ["/books/1342/"])
    }

    func testABookWithNoEditionToReadSaysWhatItHas() throws {
        try server.postBook(70001, formats: [("application/epub+zip", "https://www.gutenberg.org/ebooks/70001.epub3.images"),
                                      ("image/jpeg", "https://www.gutenberg.org/cache/epub/70001/pg70001.cover.medium.jpg")])
        let read = try comics.run(["read", "70001"])
        XCTAssertEqual(read.status, 3, "\(read)")
        XCTAssertEqual(read.stderr, "comics: error: books:70001 has no plain-text or HTML edition to read; it has application/epub+zip, image/jpeg\n")
        try server.postBook(70003, formats: [("text/html", "https://www.gutenberg.org/ebooks/70003.html.images")])
        let text = try comics.run(["get", "70003", "--edition", "text"])
        XCTAssertEqual(text.status, 3, "\(text)")
        XCTAssertEqual(text.stderr, "comics: error: books:70003 has no plain-text edition to read; it has text/html\n")
    }

    func testTextsComeOnlyFromGutenberg() throws {
        try server.postBook(70002, formats: [("text/plain; charset=utf-8", "http://127.0.0.1:9/secret.txt")])
        let elsewhere = try comics.run(["get", "70002"])
        XCTAssertEqual(elsewhere.status, 4, "\(elsewhere)")
        XCTAssertEqual(elsewhere.stderr, "comics: error: the text is on 127.0.0.1:9, not on gutenberg.org; not fetched\n")
        try server.postBook(70004, formats: [("text/plain; charset=utf-8", "https://user:s3cret@www.gutenberg.org/ebooks/70004.txt.utf-8")])
        let credentials = try comics.run(["get", "70004", "-v"])
        XCTAssertEqual(credentials.status, 4, "\(credentials)")
        XCTAssertTrue(credentials.stderr.hasSuffix(
            "comics: error: the text's address carries a user name or password, which no gutenberg.org address does; not fetched\n"), credentials.stderr)
        XCTAssertFalse(credentials.stderr.contains("s3cret"), credentials.stderr)

        try server.postBook(11, formats: [("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/11.txt.utf-8")])
        XCTAssertEqual(try comics.run(["show", "books:11"]).status, 0)
        try server.control(.object([("fault", .string("redirect:http://127.0.0.2:9/pg11.txt")), ("count", .int(1))]))
        let redirected = try comics.run(["get", "11"])
        XCTAssertEqual(redirected.status, 4, "\(redirected)")
        XCTAssertTrue(redirected.stderr.contains("refused a redirect to http://127.0.0.2:9/pg11.txt"), redirected.stderr)
        let info = try comics.run(["--offline", "toc", "11"])
        XCTAssertEqual(info.status, 4, "nothing was kept: \(info)")
    }

    func testAHostileTextReachesTheTerminalHarmless() throws {
        let hostile = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\nCHAPTER I.\n\nThe \u{1B}]52;c;aGk=\u{07}clipboard and \u{1B}[2Jscreen "
            + "stay as they were, and the \u{9B}31mreader\u{202E} reads on.\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n"
        try server.postBook(70003, formats: [("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/70003.txt.utf-8")])
        try server.control(.object([("texts", .object([("70003", .string(Array(hostile.utf8).map { String(format: "%02x", $0) }.joined()))]))]))
        let read = try comics.run(["read", "70003"])
        XCTAssertEqual(read.status, 0, "\(read)")
        XCTAssertEqual(read.stdout, "CHAPTER I.\n\nThe clipboard and screen stay as they were, and the reader reads on.\n")
        let toc = try comics.run(["toc", "70003", "-f", "json"])
        XCTAssertFalse(toc.stdout.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
    }

    /// `_italics_` are italics on a terminal, across a line's end too, and
    /// stay as written elsewhere.
    func testItalicsAreDrawnOnATerminalAndKeptAsWrittenElsewhere() throws {
        let text = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\nCHAPTER I.\n\nShe said it was _quite\nimpossible_ to _know_.\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n"
        try server.postBook(70006, formats: [("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/70006.txt.utf-8")])
        try server.control(.object([("texts", .object([("70006", .string(Array(text.utf8).map { String(format: "%02x", $0) }.joined()))]))]))
        let piped = try comics.run(["read", "70006"])
        XCTAssertEqual(piped.stdout, "CHAPTER I.\n\nShe said it was _quite\nimpossible_ to _know_.\n", "two short lines are kept as lines")
        let onTerminal = try comics.shell("script -qec '\"$COMICS\" read 70006 --width 20 --no-pager' /dev/null")
        XCTAssertTrue(onTerminal.stdout.contains("She said it was\r\n    \u{1B}[3mquite\u{1B}[23m\r\n\u{1B}[3mimpossible\u{1B}[23m to\r\n    \u{1B}[3mknow\u{1B}[23m."),
                      "each kept line hangs where it wraps: \(onTerminal.stdout.debugDescription)")
    }

    func testAnOlderRecordsLatin1FileReadsRight() throws {
        try server.postBook(22367, formats: [("text/plain; charset=iso-8859-1", "https://www.gutenberg.org/files/22367/22367-8.txt")])
        let got = try comics.run(["get", "22367"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(try server.requests().last, "/files/22367/22367-8.txt")
        let toc = try comics.run(["toc", "22367", "-f", "json"])
        let sections = try JSONValue.parse(toc.stdout).arrayValue ?? []
        XCTAssertEqual(sections.compactMap { $0["title"]?.stringValue }, ["I.", "II.", "III."])
        XCTAssertEqual(sections.compactMap { $0["section"]?.intValue }, [1, 2, 3])
        XCTAssertEqual(sections.compactMap { $0["level"]?.intValue }, [1, 1, 1])
        let read = try comics.run(["read", "22367", "--section", "1"])
        XCTAssertTrue(read.stdout.contains("Als Gregor Samsa eines Morgens aus unruhigen Träumen erwachte"), String(read.stdout.prefix(300)))
        XCTAssertFalse(read.stdout.contains("\u{FFFD}"))
    }

    func testComicsHaveNoText() throws {
        let read = try comics.run(["read", "xkcd:353"])
        XCTAssertEqual(read.status, 2)
        XCTAssertEqual(read.stderr, "comics: error: xkcd:353 is a comic; only books have texts to read; give a book, such as books:1342\n")
    }
}

/// Where reading stopped: kept across runs, shown by `show`, carried by
/// `fav list`, and found again in a new edition.
final class ReadingPositionTests: EndToEndTestCase {
    /// These tests read the plain texts, whose every line they know
    /// (`HTMLEditionTests` reads the HTML editions).
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "text"]).status, 0)
    }

    /// `comics read ARGUMENTS` on a terminal (through `script`), as a person runs it.
    private func readOnTerminal(_ arguments: String) throws -> RunResult {
        try comics.shell("script -qec '\"$COMICS\" read \(arguments) --no-pager' /dev/null")
    }

    func testReadingResumesWhereItStoppedAndFromStartOnRequest() throws {
        XCTAssertEqual(try readOnTerminal("11 --section 3").status, 0)
        let resumed = try readOnTerminal("11")
        XCTAssertEqual(resumed.status, 0, "\(resumed)")
        XCTAssertTrue(resumed.stdout.hasPrefix(
            "comics: note: reading on from where you stopped (§3 CHAPTER III. A Caucus-Race and a Long Tale, 16%); --from-start reads from the beginning\r\n"
                + "\u{1B}[1mCHAPTER III. A Caucus-Race and a Long Tale"), String(resumed.stdout.prefix(200)).debugDescription)
        let fromStart = try readOnTerminal("11 --from-start")
        XCTAssertTrue(fromStart.stdout.hasPrefix("ALICE’S ADVENTURES IN WONDERLAND"), String(fromStart.stdout.prefix(80)).debugDescription)

        let shown = try comics.run(["show", "books:11"])
        XCTAssertTrue(shown.stdoutLines.contains { $0.hasPrefix("Reading:        0%, 20") }, "--from-start read from the front matter: \(shown.stdout)")
        XCTAssertTrue(shown.stdoutLines.contains("Text:           downloaded, plain text, 169.5 KiB, 12 sections from its headings, 26449 words"), shown.stdout)

        XCTAssertEqual(try readOnTerminal("11 --section 3").status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:11"]).status, 0)
        let favorites = try JSONValue.parse(try comics.run(["fav", "list", "-f", "json"]).stdout)
        let reading = favorites.arrayValue?.first?["reading"]
        XCTAssertEqual(reading?["section"], .int(3))
        XCTAssertEqual(reading?["percent"], .int(16))
        let piped = try comics.run(["read", "11"])
        XCTAssertTrue(piped.stdout.hasPrefix("ALICE’S ADVENTURES IN WONDERLAND"), "off a terminal, the whole text: \(piped.stdout.prefix(80))")
        XCTAssertEqual(piped.stderr, "")
        let resumedOffTerminal = try comics.run(["read", "11", "--resume"])
        XCTAssertTrue(resumedOffTerminal.stdout.hasPrefix("CHAPTER III."), "--resume starts there, and records nothing")
        XCTAssertTrue(resumedOffTerminal.stderr.hasPrefix("comics: note: reading on from where you stopped (§3 "), resumedOffTerminal.stderr)
        XCTAssertEqual(try comics.run(["read", "11", "--resume", "-q"]).stderr, "", "-q keeps it quiet")
        XCTAssertEqual(try comics.run(["read", "11", "--resume", "--from-start"]).status, 2)
        XCTAssertEqual(try comics.run(["read", "11", "--resume", "--at", "3"]).stderr,
                       "comics: error: --at and --resume both say where to start; use one of --section, --at, --from-start and --resume\n")
        // JSON is whole sections: a place to start in one is refused, not ignored.
        for start in [["--resume"], ["--at", "3"]] {
            let json = try comics.run(["read", "11", "-f", "json"] + start)
            XCTAssertEqual(json.status, 2)
            XCTAssertEqual(json.stdout, "")
            XCTAssertEqual(json.stderr, "comics: error: \(start[0]) says where the page starts; -f prints whole sections; use --section N for one\n")
        }
    }

    /// Section 0 is the front matter, as `-f json` numbers it; each JSON
    /// paragraph carries the number `--at` takes.
    func testSectionZeroIsTheFrontMatterAndParagraphsAreNumbered() throws {
        XCTAssertEqual(try comics.run(["get", "11", "-q"]).status, 0)
        let front = try comics.run(["read", "11", "--section", "0"])
        XCTAssertEqual(front.status, 0, "\(front)")
        XCTAssertTrue(front.stdout.hasPrefix("ALICE’S ADVENTURES IN WONDERLAND"), front.stdout)
        XCTAssertFalse(front.stdout.contains("Down the Rabbit-Hole\n\nAlice was beginning"), "the front matter alone")
        let json = try JSONValue.parse(try comics.run(["read", "11", "-f", "json", "--section", "0"]).stdout)
        let sections = try XCTUnwrap(json["sections"]?.arrayValue)
        XCTAssertEqual(sections.map { $0["section"] }, [.int(0)])
        let whole = try JSONValue.parse(try comics.run(["read", "11", "-f", "json"]).stdout)
        let prose = try XCTUnwrap(whole["sections"]?.arrayValue?[3]["paragraphs"]?.arrayValue?.first { $0["kind"] == .string("paragraph") })
        let number = try XCTUnwrap(prose["paragraph"]?.intValue)
        let at = try comics.run(["read", "11", "--at", String(number), "--width", "1000"])
        XCTAssertEqual(at.stdoutLines.first, prose["text"]?.stringValue, "--at starts at the paragraph JSON numbers so")
    }

    /// `--width` prints, on a terminal too, as its help says.
    func testAWidthPrintsOnATerminal() throws {
        let printed = try comics.shell("PAGER=cat script -qec '\"$COMICS\" read 11 --width 60' /dev/null")
        XCTAssertEqual(printed.status, 0, "\(printed)")
        XCTAssertFalse(printed.stdout.contains("\u{1B}[?1049h"), "no full screen")
        let lines = printed.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
            .map { String($0.replacing(/\x{1B}\[[0-9;]*m/, with: "")) }
        XCTAssertGreaterThan(lines.count, 1_000)
        XCTAssertLessThanOrEqual(lines.map(\.count).max() ?? 0, 60, lines.max { $0.count < $1.count } ?? "")
    }

    func testAPositionFindsItsParagraphInANewEdition() throws {
        XCTAssertEqual(try readOnTerminal("11 --section 5").status, 0)
        try getAliceWithAPreface()
        let resumed = try comics.run(["read", "11", "--resume"])
        XCTAssertTrue(resumed.stdout.hasPrefix("CHAPTER V. Advice from a Caterpillar"), String(resumed.stdout.prefix(80)))
        let whole = try comics.run(["read", "11", "--from-start"])
        XCTAssertTrue(whole.stdout.contains("A NEW PREFACE"), "the new edition is what is read")
    }
}

extension EndToEndTestCase {
    /// A new edition of Alice (`get 11 --refresh`): a preface of 41
    /// paragraphs before the first, so every block has moved along.
    func getAliceWithAPreface(file: StaticString = #filePath, line: UInt = #line) throws {
        let original = try Fixtures.gutenberg("pg11.txt")
        let marker = Array("*** START OF THIS PROJECT GUTENBERG EBOOK".utf8)
        let start = (0...(original.count - marker.count)).first { Array(original[$0..<($0 + marker.count)]) == marker }!
        let lineEnd = original[start...].firstIndex(of: 0x0A)! + 1
        let preface = Array("\r\nA NEW PREFACE\r\n\r\n".utf8) + Array(repeating: Array("A paragraph of a preface this edition adds, long enough to move every block along.\r\n\r\n".utf8), count: 40).flatMap { $0 }
        let edition = Array(original[..<lineEnd]) + preface + Array(original[lineEnd...])
        try server.control(.object([("texts", .object([("11", .string(edition.map { String(format: "%02x", $0) }.joined()))]))]))
        let refreshed = try comics.run(["get", "11", "--refresh"])
        XCTAssertEqual(refreshed.status, 0, "\(refreshed)", file: file, line: line)
    }
}

/// Cleanup and texts: a text goes with its book, a favourite's stays, and
/// past texts.max-bytes the least recently read go first.
final class TextCleanupTests: EndToEndTestCase {
    func testTextsBeyondTheirBudgetGoLeastRecentlyReadFirstButNeverAFavourites() throws {
        for book in ["2701", "11", "844"] { XCTAssertEqual(try comics.run(["get", book]).status, 0) }
        XCTAssertEqual(try comics.run(["fav", "add", "books:2701"]).status, 0)
        XCTAssertEqual(try comics.shell("script -qec '\"$COMICS\" read 844 --section 1 --no-pager' /dev/null").status, 0)
        XCTAssertEqual(try comics.run(["config", "set", "texts.max-bytes", "100000"]).status, 0)
        let dry = try comics.run(["cleanup", "--dry-run", "-f", "json"])
        XCTAssertEqual(dry.status, 0, "\(dry)")
        let doomed = try JSONValue.parse(dry.stdout)["texts_removed"]?.arrayValue?.compactMap { $0["ref"]?.stringValue }
        XCTAssertEqual(doomed, ["books:11", "books:844"], "never read goes before read; the favourite stays over the budget")
        XCTAssertEqual(try comics.run(["--offline", "toc", "11"]).status, 0, "a dry run removes nothing")
        let done = try comics.run(["cleanup"])
        XCTAssertTrue(done.stdout.hasPrefix("removed 0 items and 2 texts ("), done.stdout)
        XCTAssertEqual(try comics.run(["--offline", "toc", "11"]).status, 4)
        XCTAssertEqual(try comics.run(["--offline", "toc", "2701"]).status, 0)
        let info = try comics.run(["info", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(info.stdout)["texts"]?["books"], .int(1))
    }

    func testATextGoesWithItsBook() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        XCTAssertEqual(try comics.run(["get", "844"]).status, 0)
        XCTAssertEqual(try comics.shell("script -qec '\"$COMICS\" read 844 --no-pager' /dev/null").status, 0)
        let cleaned = try comics.run(["cleanup", "--max-items", "0", "-s", "books"])
        XCTAssertEqual(cleaned.status, 0, "\(cleaned)")
        XCTAssertEqual(try comics.run(["--offline", "show", "books:11"]).status, 4, "the book went")
        XCTAssertEqual(try comics.run(["--offline", "toc", "11"]).status, 4, "and its text with it")
        XCTAssertEqual(try comics.run(["--offline", "toc", "844"]).status, 0, "a book being read stays, with its text")
    }
}

/// `search --in` and `--texts`: the same query language as `search`.
final class TextSearchTests: EndToEndTestCase {
    /// The line itself first, inside a book and across texts, though
    /// paragraphs repeating its words score higher by bm25 alone.
    func testTheWordsAsAskedRankFirst() throws {
        let noise = (1...12).map { "Not to be outdone, or so it seemed, to be or to go; not to be, not to be, or to be. \($0)" }
        let text = "CHAPTER I.\n\n" + (noise.prefix(6) + ["To be, or not to be, that is the question."] + noise.dropFirst(6))
            .joined(separator: "\n\n")
        try server.serveText(90_400, text)
        XCTAssertEqual(try comics.run(["get", "90400", "-q"]).status, 0)
        for scope in [["--in", "90400"], ["--texts"]] {
            let hits = try JSONValue.parse(try comics.run(["search", "to be or not to be", "-f", "json"] + scope).stdout).arrayValue ?? []
            XCTAssertEqual(hits.count, 13, "\(scope)")
            XCTAssertEqual(hits.first?["snippet"]?.stringValue?.hasPrefix("To be, or not to be, that is"), true, "\(scope): \(hits.first ?? .null)")
        }
    }

    func testSearchInsideOneBookAndAcrossDownloadedTexts() throws {
        let inBook = try comics.run(["search", "caterpillar", "--in", "11", "-n", "2"])
        XCTAssertEqual(inBook.status, 0, "\(inBook)")
        XCTAssertTrue(inBook.line(0).hasPrefix("books:11 §5 CHAPTER V. Advice from a Caterpillar"), inBook.stdout)
        XCTAssertTrue(inBook.stderr.hasPrefix("comics: note: 2 of "), inBook.stderr)
        XCTAssertEqual(try server.requests().filter { $0.contains("pg11") }.count, 1, "--in downloaded the text first")

        let stemmed = try comics.run(["search", "caterpillars", "--in", "11", "-f", "json", "-n", "100"])
        let plain = try comics.run(["search", "caterpillar", "--in", "11", "-f", "json", "-n", "100"])
        XCTAssertEqual(try JSONValue.parse(stemmed.stdout).arrayValue?.count, try JSONValue.parse(plain.stdout).arrayValue?.count)

        let phrase = try comics.run(["search", "\"mad tea-party\"", "--in", "11", "-f", "json"])
        let hits = try JSONValue.parse(phrase.stdout).arrayValue ?? []
        XCTAssertFalse(hits.isEmpty)
        XCTAssertTrue(hits.allSatisfy { ($0["snippet"]?.stringValue ?? "").lowercased().contains("mad tea-party") }, phrase.stdout)
        XCTAssertEqual(hits.first?["section"], .int(7))

        XCTAssertEqual(try comics.run(["get", "2701"]).status, 0)
        let across = try comics.run(["search", "porpoise", "--texts", "-f", "json", "-n", "200"])
        let refs = Set((try JSONValue.parse(across.stdout).arrayValue ?? []).compactMap { $0["ref"]?.stringValue })
        XCTAssertEqual(refs, ["books:2701", "books:11"], "a porpoise in both")
        let named = Set((try JSONValue.parse(across.stdout).arrayValue ?? []).map { "\($0["source"]?.stringValue ?? "-") \($0["id"]?.intValue ?? -1)" })
        XCTAssertEqual(named, ["books 2701", "books 11"], "source and id, as on every object")
        for arguments in [["get", "11", "-f", "json"], ["toc", "11", "-f", "json"]] {
            let records = try JSONValue.parse(try comics.run(arguments).stdout).arrayValue ?? []
            XCTAssertFalse(records.isEmpty, "\(arguments)")
            XCTAssertTrue(records.allSatisfy { $0["source"] == .string("books") && $0["id"] == .int(11) }, "\(arguments)")
        }
        let none = try comics.run(["search", "zzzqqq", "--texts"])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stderr, "comics: note: no downloaded text matches zzzqqq ('comics get REF' downloads one)\n")
        let bad = try comics.run(["search", "\"unclosed", "--in", "11"])
        XCTAssertEqual(bad.status, 2, "\(bad)")
        XCTAssertEqual(try comics.run(["search", "x", "--in", "11", "--texts"]).status, 2)
    }

    func testARemovedTextIsNoLongerFound() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        XCTAssertEqual(try comics.run(["config", "set", "texts.max-bytes", "0"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup"]).status, 0)
        let after = try comics.run(["search", "caterpillar", "--texts", "-f", "json"])
        XCTAssertEqual(after.stdout, "[]\n")
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let again = try comics.run(["search", "caterpillar", "--texts", "-f", "json"])
        XCTAssertFalse((try JSONValue.parse(again.stdout).arrayValue ?? []).isEmpty, "indexed again, once")
    }
}

/// Texts that try to cost too much: bounded in bytes, time and sections.
final class HostileTextTests: EndToEndTestCase {
    func testATextThatNeverEndsIsStoppedAtItsCap() throws {
        XCTAssertEqual(try comics.run(["show", "books:11"]).status, 0)
        try server.control(.object([("fault", .string("endless")), ("count", .int(2))]))
        let started = Date()
        let got = try comics.run(["get", "11"], timeout: 120)
        XCTAssertEqual(got.status, 4, "\(got)")
        XCTAssertEqual(got.stderr, "comics: error: the text at https://www.gutenberg.org/ebooks/11.html.images is larger than 64 MiB; not kept\n")
        XCTAssertLessThan(Date().timeIntervalSince(started), 100, "stopped at the cap, not at the server's gigabyte")
        XCTAssertEqual(try comics.run(["--offline", "toc", "11"]).status, 4, "nothing kept")
    }

    func testAMillionHeadingLinesMakeNoMillionSections() throws {
        var flood = "*** START OF THE PROJECT GUTENBERG EBOOK FLOOD ***\n\n"
        for number in 0..<100_000 { flood += "CHAPTER \(number % 9999 + 1)\n\n" }
        flood += "The only paragraph of the book, which every heading above claims for itself.\n"
        try server.control(.object([
            ("books", .object([("70010", FixtureServer.book(70010, title: "Flood"))])),
            ("texts", .object([("70010", .string(Array(flood.utf8).map { String(format: "%02x", $0) }.joined()))])),
        ]))
        let got = try comics.run(["get", "70010"], timeout: 120)
        XCTAssertEqual(got.status, 0, "\(got)")
        let toc = try comics.run(["toc", "70010", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(toc.stdout).arrayValue?.count, 1, toc.stdout)
        let read = try comics.run(["read", "70010"])
        XCTAssertTrue(read.stdout.contains("The only paragraph of the book"), "nothing of the work lost")
    }
}

/// A large text on a terminal shows how much has come; off one, nothing.
final class TextProgressTests: EndToEndTestCase {
    func testALargeDownloadShowsItsProgressOnATerminalOnly() throws {
        let onTerminal = try comics.shell("script -qec '\"$COMICS\" get 2600' /dev/null")
        XCTAssertEqual(onTerminal.status, 0, "\(onTerminal)")
        XCTAssertTrue(onTerminal.stdout.contains(" of 3.2 MiB (8%)\u{1B}[K\rdownloading "), onTerminal.stdout.debugDescription.prefix(400).description)
        XCTAssertTrue(onTerminal.stdout.hasSuffix("\r\u{1B}[Kgot books:2600: plain text, 3.2 MiB, 382 sections, 563286 words\r\n"), onTerminal.stdout.suffix(120).debugDescription)
        let piped = try comics.run(["get", "1342"])
        XCTAssertEqual(piped.stderr, "", "no progress off a terminal")
    }
}

/// `get --favorites`: every favourite book's text, one at a time.
final class GetFavoritesTests: EndToEndTestCase {
    func testGetFavoritesGetsEachFavouriteBooksTextOnce() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "books:11"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:844"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "xkcd:1"]).status, 0)
        let got = try comics.run(["get", "--favorites"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(got.stdoutLines, [
            "got books:11: HTML edition, 189.7 KiB, 12 sections, 26453 words", "got books:844: plain text, 139.0 KiB, 3 sections, 20719 words",
        ], "Alice has an HTML edition; the play has none")
        let again = try comics.run(["get", "--favorites", "11"])
        XCTAssertEqual(again.stdout, "")
        XCTAssertEqual(again.stderr.split(separator: "\n").count, 2, "each said once: \(again.stderr)")
        XCTAssertEqual(try comics.run(["get"]).status, 2, "nothing to get is a usage error")
    }
}
