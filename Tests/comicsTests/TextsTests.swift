import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Books' texts from the built binary: `get`, `read` and `toc` against the
/// loopback server laid out as gutenberg.org is (`/ebooks/N.txt.utf-8`
/// redirecting to `/cache/epub/N/pgN.txt`).
final class TextsTests: EndToEndTestCase {
    private func postBook(_ id: Int, formats: [(String, String)]) throws {
        var book = FixtureServer.book(id, title: "Book \(id)")
        if case var .object(members) = book {
            members.removeAll { $0.0 == "formats" }
            members.append(("formats", .object(formats.map { ($0.0, .string($0.1)) })))
            book = .object(members)
        }
        try server.control(.object([("books", .object([(String(id), book)]))]))
    }

    func testGetThenTocAndReadWorkOffline() throws {
        let got = try comics.run(["get", "11"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(got.stdout, "got books:11: 169.5 KiB, 12 sections, 26449 words\n")
        XCTAssertEqual(try server.requests(), ["/books/11/", "/ebooks/11.txt.utf-8", "/cache/epub/11/pg11.txt"])

        let again = try comics.run(["get", "books:11"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdout, "")
        XCTAssertEqual(again.stderr, "comics: note: the text of books:11 is downloaded already (169.5 KiB, 12 sections); nothing to do\n")
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
        let sections = try JSONValue.parse(Array(read.stdout.utf8)).arrayValue ?? []
        XCTAssertEqual(sections.map { $0["title"]?.stringValue ?? "" }, ["front matter", "FIRST ACT", "SECOND ACT", "THIRD ACT"])
        let firstAct = sections[1]["paragraphs"]?.arrayValue ?? []
        XCTAssertEqual(firstAct.first?["kind"]?.stringValue, "heading")
        let toc = try comics.run(["toc", "844", "-f", "csv"])
        XCTAssertEqual(toc.stdout, "number,level,title,percent,words\r\n1,0,FIRST ACT,0,7326\r\n2,0,SECOND ACT,36,8645\r\n3,0,THIRD ACT,77,4608\r\n")
    }

    func testSectionsPastTheLastAreNotFound() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let past = try comics.run(["read", "11", "--section", "13"])
        XCTAssertEqual(past.status, 3)
        XCTAssertEqual(past.stderr, "comics: error: books:11 has 12 sections; 'comics toc books:11' lists them\n")
        let zero = try comics.run(["read", "11", "--section", "0"])
        XCTAssertEqual(zero.status, 2)
    }

    func testNotDownloadedAndOfflineIsANetworkFailure() throws {
        XCTAssertEqual(try comics.run(["show", "books:1342"]).status, 0)
        let offline = try comics.run(["--offline", "read", "1342"])
        XCTAssertEqual(offline.status, 4, "\(offline)")
        XCTAssertEqual(offline.stderr, "comics: error: the text of books:1342 is not downloaded, and --offline forbids the network\n")
        XCTAssertEqual(try server.requests(), ["/books/1342/"])
    }

    func testABookWithNoPlainTextSaysWhatItHas() throws {
        try postBook(70001, formats: [("application/epub+zip", "https://www.gutenberg.org/ebooks/70001.epub3.images"),
                                      ("text/html", "https://www.gutenberg.org/ebooks/70001.html.images")])
        let read = try comics.run(["read", "70001"])
        XCTAssertEqual(read.status, 3, "\(read)")
        XCTAssertEqual(read.stderr, "comics: error: books:70001 has no plain-text edition to read; it has application/epub+zip, text/html\n")
    }

    func testTextsComeOnlyFromGutenberg() throws {
        try postBook(70002, formats: [("text/plain; charset=utf-8", "http://127.0.0.1:9/secret.txt")])
        let elsewhere = try comics.run(["get", "70002"])
        XCTAssertEqual(elsewhere.status, 4, "\(elsewhere)")
        XCTAssertEqual(elsewhere.stderr, "comics: error: the text is on 127.0.0.1:9, not on gutenberg.org; not fetched\n")

        try postBook(11, formats: [("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/11.txt.utf-8")])
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
        try postBook(70003, formats: [("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/70003.txt.utf-8")])
        try server.control(.object([("texts", .object([("70003", .string(Array(hostile.utf8).map { String(format: "%02x", $0) }.joined()))]))]))
        let read = try comics.run(["read", "70003"])
        XCTAssertEqual(read.status, 0, "\(read)")
        XCTAssertEqual(read.stdout, "CHAPTER I.\n\nThe clipboard and screen stay as they were, and the reader reads on.\n")
        let toc = try comics.run(["toc", "70003", "-f", "json"])
        XCTAssertFalse(toc.stdout.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
    }

    func testComicsHaveNoText() throws {
        let read = try comics.run(["read", "xkcd:353"])
        XCTAssertEqual(read.status, 2)
        XCTAssertEqual(read.stderr, "comics: error: xkcd:353 is a comic; only books have texts to read; give a book, such as books:1342\n")
    }
}
