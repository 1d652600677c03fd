import ComicsKit
import Foundation
import TestSupport
import XCTest

/// The books source from the built binary against the loopback Gutendex.
final class BooksTests: EndToEndTestCase {
    private func books(_ arguments: [String], clockOffset: String? = nil) throws -> RunResult {
        try comics.run(["--source", "books"] + arguments, clockOffset: clockOffset)
    }

    private func addSaga(count: Int) throws {
        let saga = (1...count).map { number in
            (String(90_000 + number), FixtureServer.book(90_000 + number, title: "Saga Volume \(number)", downloads: number))
        }
        try server.control(.object([("books", .object(saga))]))
    }

    func testListAndMoreWalkTheCatalogueToItsEnd() throws {
        let first = try books(["list"])
        XCTAssertEqual(first.status, 0, "\(first)")
        XCTAssertEqual(first.stdoutLines.count, 33)
        XCTAssertEqual(first.line(0), "     ID AUTHORS                        TITLE")
        XCTAssertEqual(first.line(1), "   2701 Melville, Herman               Moby Dick; Or, The Whale")
        XCTAssertEqual(first.line(18), "   1259 Dumas, Alexandre et al.        Twenty years after")
        XCTAssertEqual(first.line(20), "  16328                                Beowulf: An Anglo-Saxon Epic Poem")
        XCTAssertEqual(first.stderr, "")

        let second = try books(["more"])
        XCTAssertEqual(second.status, 0, "\(second)")
        XCTAssertEqual(second.stdoutLines.count, 33)
        XCTAssertEqual(second.line(7), "   6130 Homer                          The Iliad")

        let end = try books(["more"])
        XCTAssertEqual(end.status, 3, "\(end)")
        XCTAssertEqual(end.stdout, "")
        XCTAssertEqual(
            end.stderr,
            "comics: error: no more to show: the end of this query's results was reached "
                + "(`comics -s books list` with the same options starts again from its first page)\n")
        XCTAssertEqual(try server.requests(), ["/books/", "/books/?page=2"])
        let threeLetters = try books(["list", "--language", "enm"])
        XCTAssertEqual(threeLetters.status, 0, "three-letter codes work: \(threeLetters)")
    }

    func testShowAfterListNeedsNoRequest() throws {
        XCTAssertEqual(try books(["list"]).status, 0)
        let before = try server.stats().total
        let shown = try comics.run(["show", "books:1342"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertEqual(try server.stats().total, before)
        let lines = shown.stdoutLines
        XCTAssertEqual(lines.first, "books 1342: Pride and Prejudice")
        for expected in [
            "URL:            https://www.gutenberg.org/ebooks/1342",
            "Authors:        Austen, Jane (1775–1817)",
            "Languages:      en",
            "Media type:     Text",
            "Copyright:      no",
            "Download count: 59702",
            "Cover URL:      https://www.gutenberg.org/cache/epub/1342/pg1342.cover.medium.jpg",
            "Favourite:      no",
            "  Courtship -- Fiction",
            "  Category: British Literature",
            "  text/plain; charset=us-ascii: https://www.gutenberg.org/ebooks/1342.txt.utf-8",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing '\(expected)' in\n\(shown.stdout)")
        }

        let json = try comics.run(["-s", "books", "show", "1342", "--format", "json"])
        let book = try JSONValue.parse(json.stdout)
        guard case let .object(members) = book else { return XCTFail(json.stdout) }
        XCTAssertEqual(members.map(\.0), [
            "source", "id", "title", "url", "favorite", "cached_at", "stale", "authors", "translators", "editors", "languages",
            "subjects", "bookshelves", "summaries", "media_type", "copyright", "download_count", "cover_url", "formats", "text",
        ])
        XCTAssertEqual(book["text"], .null, "no text downloaded")
        XCTAssertEqual(book["source"], .string("books"))
        XCTAssertEqual(book["id"], .int(1342))
        XCTAssertEqual(book["authors"]?.arrayValue?.first?["birth_year"], .int(1775))
        XCTAssertEqual(book["formats"]?["application/epub+zip"], .string("https://www.gutenberg.org/ebooks/1342.epub3.images"))
    }

    func testShowAsksForTheCanonicalPathAndAnUnknownBookIsNotFound() throws {
        let shown = try books(["show", "6130", "-f", "json"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertEqual(try JSONValue.parse(shown.stdout)["authors"]?.arrayValue?.first?["birth_year"], .int(-750))
        let missing = try books(["show", "999999"])
        XCTAssertEqual(missing.status, 3, "\(missing)")
        XCTAssertEqual(missing.stderr, "comics: error: there is no book 999999\n")
        XCTAssertEqual(try server.requests(), ["/books/6130/", "/books/999999/"])

        let latest = try books(["show", "latest"])
        XCTAssertEqual(latest.status, 2)
        XCTAssertEqual(latest.stderr, "comics: error: books has no latest item; name one by its number\n")
    }

    func testEachQueryKeepsItsOwnCursorAcrossRuns() throws {
        try addSaga(count: 40)
        XCTAssertEqual(try books(["list", "--search", "saga"]).line(1), "  90040 Doe, Jane Saga Volume 40")
        XCTAssertEqual(try books(["list"]).line(1), "   2701 Melville, Herman               Moby Dick; Or, The Whale")

        let sagaRest = try books(["more", "--search", "  SAGA "])
        XCTAssertEqual(sagaRest.status, 0, "\(sagaRest)")
        XCTAssertEqual(sagaRest.stdoutLines.count, 9, "the 8 saga volumes page 1 left out")
        XCTAssertEqual(sagaRest.line(8), "  90001 Doe, Jane Saga Volume 1")

        let everythingNext = try books(["more"])
        XCTAssertEqual(everythingNext.line(1), "     98 Dickens, Charles               A Tale of Two Cities")
        XCTAssertEqual(try books(["more", "--search", "saga"]).status, 3)

        let cursors = try DatabaseProbe(path: comics.databasePath)
            .rows("SELECT query FROM cursors WHERE source = 'books' ORDER BY query")
        XCTAssertEqual(cursors, [[""], ["search=saga"]])
        XCTAssertTrue(try server.requests().contains("/books/?page=2&search=saga"))
    }

    /// `-n` shows the first rows of a page the server sized; `more` goes
    /// on from the last row shown, as many at a time, into the next page.
    func testMoreAfterALimitGoesOnFromTheLastRowShown() throws {
        try addSaga(count: 40)
        let first = try books(["list", "--search", "saga", "-n", "3", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(first.stdout).arrayValue?.compactMap { $0["id"]?.intValue }, [90040, 90039, 90038])
        var shown = [90040, 90039, 90038]
        while true {
            let next = try books(["more", "--search", "saga", "-f", "json"])
            guard next.status == 0 else {
                XCTAssertEqual(next.status, 3, "\(next)")
                break
            }
            let ids = try JSONValue.parse(next.stdout).arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            XCTAssertTrue((1...3).contains(ids.count), "as many as -n at a time: \(ids)")
            shown += ids
        }
        XCTAssertEqual(shown, Array((90001...90040).reversed()), "every book once, in order")
        XCTAssertEqual(try server.requests().filter { $0.contains("saga") }, ["/books/?search=saga", "/books/?page=2&search=saga"],
                       "each page asked for once")
        let wider = try books(["list", "--search", "saga", "-n", "30"])
        XCTAssertEqual(wider.stdoutLines.count, 31)
        XCTAssertEqual(try books(["more", "--search", "saga", "-n", "5"]).stdoutLines.dropFirst().map { String($0.suffix(2)) }, ["10", " 9"],
                       "the rest of the page first")
        XCTAssertEqual(try books(["more", "--search", "saga"]).stdoutLines.dropFirst().map { String($0.suffix(2)) }, [" 8", " 7", " 6", " 5", " 4"],
                       "then the next page, as many as the last -n")
    }

    func testCleanupForgetsOldPagesOfEveryQueryButNotWhereMoreLeftOff() throws {
        try requireClockControl()
        for word in ["dumas", "austen", "shelley"] {
            XCTAssertEqual(try books(["list", "--search", word]).status, 0)
        }
        XCTAssertEqual(try books(["list"]).status, 0)
        XCTAssertEqual(try books(["more"]).status, 0)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM pages"), 5)
        XCTAssertEqual(try comics.run(["cleanup", "--max-age", "1h"], clockOffset: "+2h").status, 0)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM pages"), 0)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM cursors WHERE source = 'books'"), 4)
    }

    func testANextLinkToAnotherHostIsRefusedAndNothingFetched() throws {
        try server.control(.object([("next", .object([("1", .string("http://evil.example:8080/books/?page=2"))]))]))
        XCTAssertEqual(try books(["list"]).status, 0)
        let refused = try books(["more"])
        XCTAssertEqual(refused.status, 4, "\(refused)")
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, """
            comics: error: refusing Gutendex's link to the next page, http://evil.example:8080/books/?page=2: \
            it is not on \(server.baseURL); 'comics --source books list' starts the query again

            """)
        XCTAssertEqual(try server.requests(), ["/books/"])
    }

    func testALinkBackToAPageAlreadyShownStopsPaging() throws {
        try server.control(.object([("next", .object([("2", .string("\(server.baseURL)/books/"))]))]))
        XCTAssertEqual(try books(["list"]).status, 0)
        XCTAssertEqual(try books(["more"]).stdoutLines.count, 33)
        XCTAssertEqual(try books(["more"]).status, 3)
        XCTAssertEqual(try server.requests(), ["/books/", "/books/?page=2"])
    }

    func testMixedFavouritesAreListedExportedAndKeptByCleanup() throws {
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        XCTAssertEqual(try books(["list"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "150"]).stdout, "★ added xkcd:150 Grownups to favourites\n")
        XCTAssertEqual(try books(["fav", "1342"]).stdout, "★ added books:1342 Pride and Prejudice to favourites\n")
        XCTAssertEqual(try comics.run(["fav", "add", "books:6130"]).status, 0, "fetched first: page 2 is not cached")

        let table = try comics.run(["fav", "list"])
        XCTAssertEqual(table.stdoutLines, [
            "         REF AUTHORS/DATE TITLE",
            "★ books:1342 Austen, Jane Pride and Prejudice",
            "★ books:6130 Homer        The Iliad",
            "★   xkcd:150 2006-08-29   Grownups",
        ])

        let json = try JSONValue.parse(try comics.run(["fav", "list", "-f", "json"]).stdout).arrayValue ?? []
        XCTAssertEqual(json.map { $0["source"] }, [.string("books"), .string("books"), .string("xkcd")])
        XCTAssertEqual(json.map { $0["url"] }, [
            .string("https://www.gutenberg.org/ebooks/1342"), .string("https://www.gutenberg.org/ebooks/6130"),
            .string("https://xkcd.com/150/"),
        ])
        XCTAssertEqual(json[2]["date"], .string("2006-08-29"))
        XCTAssertNil(json[2]["authors"])

        let csv = try comics.run(["fav", "list", "-f", "csv"]).stdout.components(separatedBy: "\r\n")
        XCTAssertEqual(csv[0], "source,id,title,url,favorite,cached_at,stale,authors,translators,editors,languages,subjects,bookshelves,summaries,"
            + "media_type,copyright,download_count,cover_url,formats,date,alt,transcript,image_url,link,interactive")
        XCTAssertEqual(csv.count, 5, "header, three rows, and the empty string after the last CRLF")
        XCTAssertTrue(csv[1].hasPrefix("books,1342,Pride and Prejudice,https://www.gutenberg.org/ebooks/1342,true,"), csv[1])
        XCTAssertTrue(csv[3].hasPrefix("xkcd,150,Grownups,https://xkcd.com/150/,true,"), csv[3])
        XCTAssertTrue(csv[3].contains(",,,,,,,,,,,2006-08-29,"), "xkcd rows leave the book columns empty: \(csv[3])")
        let booksOnly = try comics.run(["fav", "list", "-s", "books", "-f", "tsv"]).stdoutLines
        XCTAssertEqual(booksOnly.count, 3)
        XCTAssertFalse(booksOnly[0].contains("date"))

        let cleanup = try comics.run(["cleanup", "--max-age", "0s", "--max-items", "0"])
        XCTAssertEqual(cleanup.status, 0, "\(cleanup)")
        XCTAssertTrue(cleanup.stdout.hasPrefix("removed 41 items (books 31, xkcd 10); kept 3 favourites"), cleanup.stdout)
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.rows("SELECT source, id FROM items ORDER BY source, id"), [["books", "1342"], ["books", "6130"], ["xkcd", "150"]])
        XCTAssertEqual(try comics.run(["fav", "list"]).stdoutLines.count, 4)
    }

    func testAHostileBookTitleNeverReachesTheTerminal() throws {
        let title = "\u{1b}]52;c;ZXZpbA==\u{07}Evil\u{1b}[2J Book\u{9b}31m\r\nTwo\u{202e}"
        var book = FixtureServer.book(90_001, title: title, author: "\u{1b}[31mRed\u{1b}[0m, Author")
        if case var .object(members) = book {
            members.append(("subjects", .array([.string("\u{1b}[5mBlink")])))
            book = .object(members)
        }
        try server.control(.object([("books", .object([("90001", book)]))]))
        let listed = try books(["list", "--search", "evil"])
        XCTAssertEqual(listed.status, 0, "\(listed)")
        XCTAssertEqual(listed.line(1), "  90001 Red, Author Evil Book›31m Two", "a lone C1 control is its Windows-1252 character")
        let shown = try books(["show", "90001"])
        XCTAssertEqual(shown.status, 0)
        XCTAssertEqual(shown.line(0), "books 90001: Evil Book›31m Two")
        for output in [listed.stdout, shown.stdout, try comics.run(["fav", "books:90001"]).stdout] {
            XCTAssertFalse(output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, output.debugDescription)
            XCTAssertFalse(output.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0 == "\u{202e}" })
        }
        let json = try books(["show", "90001", "-f", "json"])
        XCTAssertTrue(json.stdout.contains("\\u001b]52;c;"), json.stdout)
        XCTAssertEqual(try JSONValue.parse(json.stdout)["title"], .string(title.replacingOccurrences(of: "\u{9b}", with: "›")),
                       "data keeps what upstream said")
    }

    func testTheListTTLBelongsToEachQuerysFirstPage() throws {
        try requireClockControl()
        XCTAssertEqual(try books(["list"]).status, 0)
        XCTAssertEqual(try books(["list", "--topic", "poetry"]).status, 0)
        XCTAssertEqual(try books(["list", "--topic", "poetry"], clockOffset: "+50m").status, 0)
        XCTAssertEqual(try books(["list"], clockOffset: "+50m").status, 0)
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.requests().count, 2)

        let stale = try books(["list", "--topic", "poetry"], clockOffset: "+2h")
        XCTAssertEqual(stale.status, 0, "\(stale)")
        XCTAssertTrue(comics.waitForBackgroundWork())
        XCTAssertEqual(try server.requests(), ["/books/", "/books/?topic=poetry", "/books/?topic=poetry"])
    }

    func testRateLimitingIsHonouredAndFailuresAreReportedOnOneLine() throws {
        try requireClockControl()
        try server.control(.object([("fault", .string("429")), ("count", .int(1))]))
        let limited = try books(["list"])
        XCTAssertEqual(limited.status, 0, "\(limited)")
        XCTAssertEqual(try server.stats().total, 2)

        try server.control(.object([("fault", .string("429")), ("count", .int(1)), ("retry_after", .string("3600"))]))
        let tooLong = try books(["show", "1342", "--refresh"], clockOffset: "+2d")
        XCTAssertEqual(tooLong.status, 0, "the cached copy is served: \(tooLong)")
        XCTAssertEqual(
            tooLong.stderr,
            "comics: warning: 127.0.0.1 is rate-limiting requests (HTTP 429); try again later; showing the copy cached 2 days ago\n")

        try server.control(.object([("fault", .string("500")), ("count", .int(10))]))
        let failed = try books(["list", "--search", "austen"])
        XCTAssertEqual(failed.status, 4)
        XCTAssertEqual(failed.stderr, "comics: error: 127.0.0.1 failed (HTTP 500); try again later; "
            + "what is cached can be seen without the network: comics --offline -s books list\n")

        try server.control(.object([("reset", .bool(true)), ("fault", .string("truncated")), ("count", .int(1))]))
        let truncated = try books(["show", "98"])
        XCTAssertEqual(truncated.status, 4)
        XCTAssertTrue(truncated.stderr.hasPrefix("comics: error: 127.0.0.1 sent a response comics cannot read: "), truncated.stderr)

        server.stop()
        let offline = try books(["list", "--refresh"])
        XCTAssertEqual(offline.status, 0, "the cached page is served: \(offline)")
        XCTAssertEqual(offline.stdoutLines.count, 33)
        XCTAssertTrue(offline.stderr.hasPrefix("comics: warning: cannot reach 127.0.0.1"), offline.stderr)
        XCTAssertEqual(try books(["list", "--search", "austen"]).status, 4, "nothing cached for that query")
    }

    func testProcessesAtOnceAllSucceed() throws {
        let results = try comics.runTogether([
            ["-s", "books", "list"], ["-s", "books", "list", "--search", "dumas"], ["show", "books:1342"],
            ["cleanup", "--max-age", "0s"], ["fav", "add", "books:84"], ["-s", "books", "more"],
        ])
        for result in results {
            XCTAssertEqual(result.status, 0, "\(result)")
            XCTAssertFalse(result.stderr.contains("locked"), result.stderr)
        }
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM favorites WHERE id = 84"), 1)
    }

    func testBookOptionsAreRefusedWhereTheyMeanNothing() throws {
        let cases: [([String], String)] = [
            (["list", "--search", "x"], "comics: error: xkcd listings cannot be searched, filtered or sorted; --search, --language, --topic and --sort are for '--source books'\n"),
            (["-s", "books", "list", "--language", "en,english"], "comics: error: 'english' in --language 'en,english' is not a language code; give two- or three-letter codes separated by commas, such as en,fr or enm\n"),
            (["-s", "books", "list", "--sort", "newest"], "comics: error: unknown sort order 'newest'; use one of: popular, ascending, descending\n"),
            (["-s", "books", "more", "--search", " "], "comics: error: --search needs some text\n"),
        ]
        for (arguments, expected) in cases {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result)")
            XCTAssertEqual(result.stderr, expected)
        }
        XCTAssertEqual(try server.stats().total, 0)

        comics.environment["COMICS_SOURCE"] = "books"
        let fromEnvironment = try comics.run(["list", "--language", "EN", "--sort", "ascending"])
        XCTAssertEqual(fromEnvironment.status, 0, "\(fromEnvironment)")
        XCTAssertEqual(fromEnvironment.line(1), "    11 Carroll, Lewis                 Alice's Adventures in Wonderland")
        XCTAssertEqual(try server.requests(), ["/books/?languages=en&sort=ascending"])
    }
}
