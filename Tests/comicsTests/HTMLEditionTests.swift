import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Books' HTML editions from the built binary: the loopback server lays
/// them out as gutenberg.org does (`/ebooks/N.html.images` redirecting to
/// `/cache/epub/N/pgN-images.html`, older `/files/N/N-h/N-h.htm`).
final class HTMLEditionTests: EndToEndTestCase {
    private func postHTML(_ id: Int, _ bytes: [UInt8]) throws {
        try server.serveHTML(id, bytes)
    }

    func testGetTakesTheHTMLEditionAndSaysSo() throws {
        let got = try comics.run(["get", "11"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(got.stdout, "got books:11: HTML edition, 189.7 KiB, 12 sections, 26453 words\n")
        XCTAssertEqual(try server.requests(), ["/books/11/", "/ebooks/11.html.images", "/cache/epub/11/pg11-images.html"])

        let toc = try comics.run(["--offline", "toc", "11"])
        XCTAssertEqual(toc.stdoutLines.count, 13, toc.stdout)
        XCTAssertTrue(toc.line(1).hasPrefix(" 1  CHAPTER I. Down the Rabbit-Hole"), toc.line(1))
        XCTAssertTrue(toc.line(12).hasPrefix("12  CHAPTER XII. Alice’s Evidence"), toc.line(12))
        let section = try comics.run(["--offline", "read", "11", "--section", "1"])
        XCTAssertEqual(Array(section.stdoutLines.prefix(3)), [
            "CHAPTER I.", "Down the Rabbit-Hole", "Alice was beginning to get very tired of sitting by her sister on the bank, and",
        ])
        let shown = try comics.run(["--offline", "show", "books:11"])
        XCTAssertTrue(shown.stdout.contains("Text:           downloaded, HTML edition, 189.7 KiB, 12 sections from its contents, 26453 words"), shown.stdout)
        let record = try JSONValue.parse(try comics.run(["--offline", "show", "books:11", "-f", "json"]).stdout)
        XCTAssertEqual(record["text"]?["edition"], .string("html"))
        XCTAssertEqual(record["text"]?["outline_from"], .string("contents"))
        XCTAssertEqual(record["text"]?["passed_over"], .null)
        let info = try JSONValue.parse(try comics.run(["info", "-f", "json"]).stdout)
        XCTAssertEqual(info["texts"]?["html_editions"], .int(1))
        XCTAssertTrue(try comics.run(["info"]).stdout.contains("1 book (1 from HTML editions)"))

        let illustrated = try comics.run(["read", "1342", "--section", "3"])
        XCTAssertEqual(Array(illustrated.stdoutLines.prefix(2)), ["CHAPTER II.", "[Illustration: I hope Mr. Bingley will like it.]"])
        XCTAssertTrue(illustrated.stdout.contains("MR. BENNET was among the earliest"), "a drop capital drawn as a picture is its letter")
        // Its picture's address is kept with it, through the stored chunks.
        let json = try JSONValue.parse(try comics.run(["--offline", "read", "1342", "--section", "3", "-f", "json"]).stdout)
        let first = json["sections"]?.arrayValue?.first?["paragraphs"]?.arrayValue?.dropFirst().first
        XCTAssertEqual(first?["kind"], .string("illustration"))
        XCTAssertEqual(first?["picture"], .string("images/i_035_a.jpg"))
    }

    func testEditionChosenByTheOptionOrTheSetting() throws {
        XCTAssertEqual(try comics.run(["get", "11"]).stdout, "got books:11: HTML edition, 189.7 KiB, 12 sections, 26453 words\n")
        let text = try comics.run(["get", "11", "--edition", "text"])
        XCTAssertEqual(text.stdout, "got books:11: plain text, 169.5 KiB, 12 sections, 26449 words\n", "the other edition replaces it")
        let again = try comics.run(["get", "11"])
        XCTAssertEqual(again.stderr, "comics: note: the text of books:11 is downloaded already (plain text, 169.5 KiB, 12 sections); nothing to do\n")
        let html = try comics.run(["get", "11", "--edition", "html", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(html.stdout).arrayValue?.first?["edition"], .string("html"))
        XCTAssertEqual(try comics.run(["get", "11", "--edition", "pdf"]).status, 2)

        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "text"]).status, 0)
        XCTAssertEqual(try comics.run(["get", "1342"]).stdout, "got books:1342: plain text, 754.3 KiB, 61 sections, 127160 words\n")
        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "epub"]).status, 2)
    }

    /// An HTML edition whose markup marks no chapters, that is only an
    /// index of the files the book is split into, or that is missing,
    /// gives way to the plain text; the older `N-h.htm` editions are read
    /// by their own bytes.
    func testThePlainTextServesWhenTheMarkupMarksNoChaptersOrIsMissing() throws {
        try postHTML(844, Array("<html><body><p>One long paragraph and no heading at all.</p></body></html>".utf8))
        let got = try comics.run(["get", "844", "-v"])
        XCTAssertEqual(got.stdout, "got books:844: plain text, 139.0 KiB, 3 sections, 20719 words\n", got.stderr)
        XCTAssertTrue(got.stderr.contains("the HTML edition of books:844 marks no chapters; trying its plain text"), got.stderr)
        let shown = try comics.run(["--offline", "show", "books:844"])
        XCTAssertTrue(shown.stdout.contains("downloaded, plain text (its HTML edition marks no chapters), 139.0 KiB, 3 sections"), shown.stdout)
        let record = try JSONValue.parse(try comics.run(["--offline", "show", "books:844", "-f", "json"]).stdout)
        XCTAssertEqual(record["text"]?["passed_over"], .string("html"))
        XCTAssertEqual(record["text"]?["outline_from"], .string("headings"))
        XCTAssertEqual(try server.requests().suffix(4), [
            "/ebooks/844.html.images", "/cache/epub/844/pg844-images.html", "/ebooks/844.txt.utf-8", "/cache/epub/844/pg844.txt",
        ])
        XCTAssertEqual(try comics.run(["get", "2600"]).stdout, "got books:2600: plain text, 3.2 MiB, 382 sections, 563286 words\n", "no HTML file: 404")
        // An edition split into files, here only as their index.
        func rows(_ file: String) -> String {
            (1...6).map { "<tr><td><a href=\"./\(file).html#s\($0)\">De cómo el arçipreste fué enamorado, la \($0) vez</a></td><td>\($0 * 7)</td></tr>" }.joined()
        }
        let index = "<html><body><h1>TOMO PRIMERO</h1><table>\(rows("i"))</table><h1>TOMO SEGUNDO</h1><table>\(rows("ii"))</table></body></html>"
        try postHTML(1342, Array(index.utf8))
        XCTAssertEqual(try comics.run(["get", "1342"]).stdout, "got books:1342: plain text, 754.3 KiB, 61 sections, 127160 words\n")

        let latin1 = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"></head><body>"
            + "<h1>LE LIVRE</h1><p><a href=\"#c1\">Chapitre premier</a></p><p><a href=\"#c2\">Chapitre deuxième</a></p>"
            + "<h2><a id=\"c1\"></a>Chapitre premier</h2><p>D\u{E9}j\u{E0} \u{93}vu\u{94}, et la suite du premier chapitre ici.</p>"
            + "<h2><a id=\"c2\"></a>Chapitre deuxième</h2><p>Et le deuxi\u{E8}me chapitre, qui a des mots \u{E0} lui, assez de mots pour en faire un chapitre.</p></body></html>"
        try server.postBook(70010, formats: [("text/html; charset=iso-8859-1", "https://www.gutenberg.org/files/70010/70010-h/70010-h.htm")])
        try postHTML(70010, latin1.unicodeScalars.map { UInt8($0.value) })
        let old = try comics.run(["get", "70010"])
        XCTAssertEqual(old.status, 0, "\(old)")
        XCTAssertEqual(try server.requests().last, "/files/70010/70010-h/70010-h.htm")
        let toc = try comics.run(["toc", "70010"]).stdoutLines
        XCTAssertEqual(toc.count, 3, "\(toc)")
        let shownOld = try comics.run(["--offline", "show", "books:70010"]).stdout
        XCTAssertTrue(shownOld.contains("2 sections from its contents"), shownOld)
        XCTAssertTrue(toc.last?.contains("Chapitre deuxième") ?? false, "\(toc)")
        XCTAssertTrue(try comics.run(["read", "70010"]).stdout.contains("Déjà “vu”, et la suite"))
    }

    /// A picture book marks no chapters in either edition: its HTML edition
    /// stays, pictures and all, and its title page (lines in ever smaller
    /// headings) divides nothing.
    func testAnEditionWithoutChaptersStaysWhenThePlainTextHasNoneEither() throws {
        let story = String(repeating: "Once upon a time there were four little Rabbits, and their names were Flopsy and Mopsy. ", count: 20)
        try server.serveText(14838, "THE TALE OF PETER RABBIT\n\nBY BEATRIX POTTER\n\n\(story)\n\nTHE END\n")
        try server.postBook(14838, formats: [
            ("text/html", "https://www.gutenberg.org/ebooks/14838.html.images"),
            ("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/14838.txt.utf-8"),
        ])
        let html = "<html><body><h1>THE TALE OF PETER RABBIT</h1><h2>BEATRIX POTTER</h2><h3>FREDERICK WARNE</h3>"
            + "<h6>Printed and bound in Great Britain</h6><p><img src=\"images/peter.png\" alt=\"Peter in the garden\" /></p><p>\(story)</p>"
            + "<h2>THE END</h2></body></html>"
        try postHTML(14838, Array(html.utf8))
        let got = try comics.run(["get", "14838", "-v"])
        XCTAssertTrue(got.stdout.hasPrefix("got books:14838: HTML edition, "), "\(got)")
        XCTAssertTrue(got.stdout.contains(", 1 section, "), got.stdout)
        XCTAssertTrue(got.stderr.contains("the plain text of books:14838 marks no chapters either; keeping its HTML edition"), got.stderr)
        let record = try JSONValue.parse(try comics.run(["--offline", "show", "books:14838", "-f", "json"]).stdout)
        XCTAssertEqual(record["text"]?["edition"], .string("html"))
        XCTAssertEqual(record["text"]?["passed_over"], .null)
        XCTAssertTrue(try comics.run(["--offline", "read", "books:14838"]).stdout.contains("[Illustration: Peter in the garden]"))
    }

    /// Hostile markup: no escape reaches the terminal, nothing but the
    /// edition itself is fetched (not its pictures, not another host's).
    /// A note keeps its anchor and a paragraph the notes it refers to,
    /// through the stored chunks, in `read -f json`.
    func testNotesAndTheirReferencesReachTheJSON() throws {
        let filler = String(repeating: "More words to make a chapter of it. ", count: 5)
        let html = "<html><body><h2>CHAPTER I.</h2><p>\(filler)<a href=\"#note1\">[1]</a> and <a href=\"#fn2\">[2]</a></p>"
            + "<div class=\"footnote\"><a id=\"fn1\"></a><a id=\"note1\"></a><p>[1] The first note.</p></div>"
            + "<div class=\"footnote\"><a id=\"fn2\"></a><p>[2] The second note.</p></div>"
            + "<h2>CHAPTER II.</h2><p>\(filler)</p></body></html>"
        try postHTML(11, Array(html.utf8))
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let json = try JSONValue.parse(try comics.run(["--offline", "read", "11", "--section", "1", "-f", "json"]).stdout)
        let paragraphs = json["sections"]?.arrayValue?.first?["paragraphs"]?.arrayValue ?? []
        XCTAssertEqual(paragraphs.map { $0["kind"] }, [.string("heading"), .string("paragraph"), .string("footnote"), .string("footnote")])
        XCTAssertEqual(paragraphs[1]["notes"], .array([.string("fn1"), .string("fn2")]))
        XCTAssertEqual(paragraphs[2]["anchor"], .string("fn1"))
        XCTAssertEqual(paragraphs[3]["anchor"], .string("fn2"))
        XCTAssertNil(paragraphs[0]["notes"])
    }

    func testHostileMarkupIsTextAndFetchesNothingElse() throws {
        let filler = String(repeating: "More words to make a chapter of it. ", count: 5)
        let hostile = "<html><head><script>alert(1)</script><link rel=\"stylesheet\" href=\"http://127.0.0.1:9/x.css\"></head><body>"
            + "<h2>CHAPTER I.\u{1B}]0;owned\u{07}</h2><p>Words \u{1B}[2J here and <img src=\"http://127.0.0.1:9/spy.png\" alt=\"a spy\"> more.</p>"
            + "<p>\(filler)</p><h2>CHAPTER II.</h2><p>\(filler)</p></body></html>"
        try postHTML(11, Array(hostile.utf8))
        XCTAssertEqual(try comics.run(["get", "11"]).status, 0)
        let read = try comics.run(["read", "11"])
        XCTAssertFalse(read.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, read.stdout.debugDescription)
        XCTAssertFalse(read.stdout.contains("alert"))
        XCTAssertEqual(try comics.run(["toc", "11"]).stdoutLines.count, 3)
        XCTAssertEqual(try server.requests(), ["/books/11/", "/ebooks/11.html.images", "/cache/epub/11/pg11-images.html"])
    }

    /// Where reading stopped in the plain text is found again in the HTML
    /// edition, and the other way round.
    func testThePlaceFollowsTheBookIntoTheOtherEdition() throws {
        XCTAssertEqual(try comics.run(["get", "11", "--edition", "text"]).status, 0)
        let onTerminal = try comics.shell("script -qec '\"$COMICS\" read 11 --section 5 --no-pager' /dev/null")
        XCTAssertEqual(onTerminal.status, 0, "\(onTerminal)")
        XCTAssertEqual(try comics.run(["get", "11", "--edition", "html"]).status, 0)
        let resumed = try comics.run(["read", "11", "--resume"])
        XCTAssertEqual(resumed.status, 0, "\(resumed)")
        XCTAssertEqual(Array(resumed.stdoutLines.prefix(2)), ["CHAPTER V.", "Advice from a Caterpillar"], "the HTML edition's chapter V")
        XCTAssertTrue(resumed.stderr.contains("§5 CHAPTER V. Advice from a Caterpillar"), resumed.stderr)
    }
}
