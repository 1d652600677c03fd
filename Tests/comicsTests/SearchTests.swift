import ComicsKit
import Foundation
import TestSupport
import XCTest

extension EndToEndTestCase {
    /// The references `comics search ARGUMENTS` finds, best first.
    fileprivate func ids(_ arguments: [String]) throws -> [String] {
        let result = try comics.run(["search", "-f", "ndjson"] + arguments)
        XCTAssertEqual(result.status, 0, "\(result)")
        return try result.stdoutLines.map { line in
            let record = try JSONValue.parse(line)
            return "\(record["source"]?.stringValue ?? ""):\(record["id"]?.intValue ?? 0)"
        }
    }
}

/// `comics search`: full-text search over the cache, kept in step with
/// every change to it.
final class SearchTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.control(.object([("comics", .object([
            ("201", FixtureServer.comic(201, title: "Tables", alt: "little bobby tables")),
            ("202", FixtureServer.comic(202, title: "Exploits", alt: "bobby is little", transcript: "tables of a mom")),
            ("203", FixtureServer.comic(203, title: "Astronomy", alt: "stars")),
        ])), ("latest", .int(203))]))
        XCTAssertEqual(try comics.run(["list", "-n", "3"]).status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
    }

    func testATitleMatchRanksFirstAndBothSourcesAreSearched() throws {
        XCTAssertEqual(try ids(["tables"]), ["xkcd:201", "xkcd:202"], "a title match outranks one in the transcript")
        XCTAssertEqual(try ids(["austen"]), ["books:1342"], "authors are searched")
        XCTAssertEqual(try ids(["-s", "xkcd", "austen"]), [])
        let table = try comics.run(["search", "pride", "prejudice"])
        XCTAssertEqual(table.stdoutLines.count, 3, "a header, the match, its snippet: \(table.stdout)")
        XCTAssertTrue(table.stdout.contains("books:1342 Austen, Jane Pride and Prejudice"), table.stdout)
    }

    /// `-n` is not a page's bound for a search: every match can be listed.
    func testEveryMatchCanBeListed() throws {
        let extra = (204...480).map { (String($0), FixtureServer.comic($0, title: "Comic \($0)", alt: "a zebra")) }
        try server.control(.object([("latest", .int(480)), ("comics", .object(extra))]))
        XCTAssertEqual(try comics.run(["sync", "-q"]).status, 0)
        let capped = try comics.run(["search", "zebra"])
        XCTAssertEqual(capped.stderr, "comics: note: 20 of 277 shown; -n for more\n")
        XCTAssertEqual(try ids(["zebra", "-n", "1000"]).count, 277)
        XCTAssertEqual(try comics.run(["search", "zebra", "-n", "1000001"]).status, 2)
        XCTAssertEqual(try comics.run(["list", "-n", "201"]).status, 2, "a page is still bounded")
    }

    func testPhrasesPrefixesAndOperators() throws {
        XCTAssertEqual(try ids(["\"little bobby\""]), ["xkcd:201"], "a phrase keeps its order")
        XCTAssertEqual(Set(try ids(["little", "bobby"])), ["xkcd:201", "xkcd:202"], "words match in any order")
        XCTAssertEqual(try ids(["astro*"]), ["xkcd:203"])
        XCTAssertEqual(try ids(["tables", "NOT", "mom"]), ["xkcd:201"])
        XCTAssertEqual(try ids(["can't"]), [], "punctuation is a word, not syntax")
    }

    func testAMalformedQueryIsAClearUsageError() throws {
        let hint = "; words match anywhere; \"a phrase\" in double quotes, word* for a prefix, AND, OR, NOT and ( ) between them\n"
        for (query, reason) in [
            ("\"unclosed", "a double quote is not closed"), ("a AND", "AND, OR and NOT need a term on each side, and ( ) must pair up"),
            ("( tables", "AND, OR and NOT need a term on each side, and ( ) must pair up"),
            ("\"x\" nosuch:y", "a word followed by ':' names a column; put the word in double quotes"),
        ] {
            let result = try comics.run(["search", query])
            XCTAssertEqual(result.status, 2, query)
            XCTAssertEqual(result.stderr, "comics: error: cannot search for \(query): \(reason)" + hint, query)
            XCTAssertFalse(result.stderr.contains("fts5") || result.stderr.contains("syntax error near"), result.stderr)
        }
        XCTAssertEqual(try comics.run(["search"]).status, 2)
    }

    func testTheIndexFollowsUpdatesAndCleanup() throws {
        try server.control(.object([("comics", .object([("203", FixtureServer.comic(203, title: "Cosmology", alt: "galaxies"))]))]))
        XCTAssertEqual(try comics.run(["show", "203", "--refresh"]).status, 0)
        XCTAssertEqual(try ids(["astronomy"]), [], "the old title is gone from the index")
        XCTAssertEqual(try ids(["galaxies"]), ["xkcd:203"])
        XCTAssertEqual(try comics.run(["fav", "add", "202"]).status, 0)

        // A few items go: their rows leave the index one by one.
        XCTAssertEqual(try comics.run(["config", "set", "books.max-items", "30"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup"]).status, 0)
        try assertTheIndexHoldsExactlyTheItems(count: 33)

        // Most items go: the index is rebuilt from what stays.
        XCTAssertEqual(try comics.run(["cleanup", "--max-items", "0"]).status, 0)
        XCTAssertEqual(try ids(["tables"]), ["xkcd:202"], "removed items are not found; the favourite is")
        try assertTheIndexHoldsExactlyTheItems(count: 1)

        // The rebuilt index still follows new items, and removals one by one.
        XCTAssertEqual(try comics.run(["list", "-n", "3"]).status, 0)
        XCTAssertEqual(try ids(["tables"]), ["xkcd:201", "xkcd:202"])
        try assertTheIndexHoldsExactlyTheItems(count: 3)
        XCTAssertEqual(try comics.run(["config", "set", "xkcd.max-items", "1"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup"]).status, 0)
        try assertTheIndexHoldsExactlyTheItems(count: 2)
    }

    private func assertTheIndexHoldsExactlyTheItems(count: Int, line: UInt = #line) throws {
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items"), count, line: line)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM item_search"), count, line: line)
        XCTAssertEqual(try probe.count("""
            SELECT count(*) FROM item_search s JOIN items i ON s.source = i.source AND s.id = i.id AND s.title = i.title
            """), count, "every row of the index is a cached item", line: line)
    }

    func testACappedResultSaysSoAndEveryMatchHasASnippet() throws {
        let capped = try comics.run(["search", "the", "-n", "2", "-f", "ndjson"])
        XCTAssertEqual(capped.stdoutLines.count, 2)
        XCTAssertTrue(capped.stderr.hasPrefix("comics: note: 2 of "), capped.stderr)
        XCTAssertTrue(capped.stderr.hasSuffix(" shown; -n for more\n"), capped.stderr)
        let all = try comics.run(["search", "tables", "-f", "ndjson"])
        XCTAssertEqual(all.stderr, "", "nothing left out: nothing to say")
        let snippets = try all.stdoutLines.map { try JSONValue.parse($0)["snippet"]?.stringValue ?? "" }
        XCTAssertTrue(snippets.allSatisfy { $0.lowercased().contains("tables") || $0.lowercased().contains("bobby") }, "\(snippets)")
        XCTAssertFalse(snippets.joined().contains("\u{E000}"), "no marker in machine formats")
        let table = try comics.run(["search", "mom"]).stdoutLines
        XCTAssertEqual(table.count, 3)
        XCTAssertTrue(table[2].hasSuffix("tables of a mom"), "under the title: \(table[2])")
    }

    /// A query's cost grows with its words: it is bounded, with the reason.
    func testAQueryOfTooManyWordsOrBytesIsAUsageError() throws {
        let flood = try comics.run(["search"] + Array(repeating: "tables", count: 10_000))
        XCTAssertEqual(flood.status, 2)
        XCTAssertEqual(flood.stderr, "comics: error: a search holds at most 32 words and 1000 bytes; "
            + "this one has 10000 words and 69999 bytes; search for the few words that matter\n")
        let long = try comics.run(["search", String(repeating: "x", count: 1_001)])
        XCTAssertEqual(long.status, 2)
        XCTAssertTrue(long.stderr.hasPrefix("comics: error: a search holds at most 32 words and 1000 bytes; this one has 1 word and 1001 bytes;"))
        XCTAssertEqual(try ids(Array(repeating: "tables", count: 32)), ["xkcd:201", "xkcd:202"], "32 words are searched")
    }

    func testRemoteAsksGutendexAndCachesWhatItFinds() throws {
        let cached = Set(try ids(["-s", "books", "frankenstein"]))
        XCTAssertTrue(cached.contains("books:84"), "\(cached)")
        try server.control(.object([("books", .object([("9001", FixtureServer.book(9001, title: "Frankenstein Returns", downloads: 999_999))]))]))
        XCTAssertEqual(Set(try ids(["-s", "books", "frankenstein"])), cached, "not cached yet")
        XCTAssertEqual(Set(try ids(["-s", "books", "--remote", "frankenstein"])), cached.union(["books:9001"]))
        XCTAssertTrue(try server.requests().contains("/books/?search=frankenstein"))
    }
}

/// What comes first is what the item is about, and what is searched is
/// what is shown.
final class SearchRankingTests: EndToEndTestCase {
    private static func book(_ id: Int, title: String, author: String = "Doe, Jane", languages: [String] = ["en"],
                             summary: String? = nil, subject: String = "Test subjects -- Fiction",
                             bookshelf: String? = nil) -> JSONValue {
        guard case let .object(members) = FixtureServer.book(id, title: title, author: author) else { return .null }
        return .object(members.map { key, value in
            switch key {
            case "languages": (key, .array(languages.map(JSONValue.string)))
            case "summaries": (key, .array(summary.map { [.string($0)] } ?? []))
            case "subjects": (key, .array([.string(subject)]))
            case "bookshelves": (key, .array(bookshelf.map { [.string($0)] } ?? []))
            default: (key, value)
            }
        })
    }

    /// Caches the given books (by id) and comics.
    private func cache(books: [JSONValue] = [], comics documents: [(Int, JSONValue)] = []) throws {
        try server.control(.object([
            ("books", .object(books.map { (String($0["id"]?.intValue ?? 0), $0) })),
            ("comics", .object(documents.map { (String($0.0), $0.1) })),
            ("latest", .int(documents.map(\.0).max() ?? 200)),
        ]))
        for book in books {
            XCTAssertEqual(try comics.run(["show", "books:\(book["id"]?.intValue ?? 0)"]).status, 0)
        }
        for (number, _) in documents {
            XCTAssertEqual(try comics.run(["show", String(number)]).status, 0)
        }
    }

    func testLanguageCodesAreNotSearchTermsAndBookshelvesAre() throws {
        try cache(books: [
            Self.book(90_101, title: "Kalevala", languages: ["fi"], subject: "Epic poetry, Finnish"),
            Self.book(90_102, title: "Les Misérables", languages: ["fr"], bookshelf: "Science Fiction"),
            Self.book(90_103, title: "Emma", languages: ["en"], subject: "England -- Fiction"),
        ])
        XCTAssertEqual(try ids(["fi"]), [], "fi is Finnish, not a word any book holds")
        XCTAssertEqual(try ids(["fr"]), [])
        XCTAssertEqual(try ids(["en"]), [])
        XCTAssertEqual(try ids(["kalevala"]), ["books:90101"])
        XCTAssertEqual(try ids(["science", "fiction"]), ["books:90102"], "bookshelves are searched")
        let snippet = try JSONValue.parse(try comics.run(["search", "england", "-f", "ndjson"]).stdoutLines[0])["snippet"]?.stringValue
        XCTAssertEqual(snippet, "England -- Fiction", "no language code in the text shown")
        let help = try comics.run(["search", "--help"]).stdout
        XCTAssertTrue(help.contains("bookshelves"), help)
    }

    func testANameRanksWithTheTitleAboveSummariesAndSubjects() throws {
        let about = (1...60).map { "word\($0)" }.joined(separator: " ")
        try cache(books: [
            Self.book(90_201, title: "Letters of a Regency reader", summary: "A reader's letters about Austen. \(about)"),
            Self.book(90_202, title: "Persuasion", author: "Austen, Jane", summary: "A novel of second chances. \(about) \(about)"),
            Self.book(90_203, title: "Regency life", subject: "Austen, Jane, 1775-1817 -- Influence"),
        ])
        let found = try ids(["austen"])
        XCTAssertEqual(found.first, "books:90202", "the author's own book first: \(found)")
        XCTAssertEqual(Set(found.dropFirst()), ["books:90201", "books:90203"])
    }

    /// A book by someone ranks above a book about them; the line under a
    /// hit never repeats the names its row shows, and a list's entries
    /// stay apart in it.
    func testABookByAnAuthorRanksAboveOneAboutThem() throws {
        try cache(books: [
            Self.book(90_301, title: "Reminiscences of Tolstoy", author: "Gorky, Maksim", subject: "Tolstoy, Leo, graf, 1828-1910"),
            Self.book(90_302, title: "Master and Man", author: "Tolstoy, Leo, graf"),
        ])
        let found = try ids(["tolstoy"])
        let byHimIDs = ["books:90302", "books:2600"].filter(found.contains)
        XCTAssertTrue(byHimIDs.contains("books:90302"))
        XCTAssertEqual(Set(found.prefix(byHimIDs.count)), Set(byHimIDs), "his books first: \(found)")
        XCTAssertTrue(found.contains("books:90301"), "\(found)")
        let hits = try comics.run(["search", "tolstoy", "-f", "ndjson"]).stdoutLines.map { try JSONValue.parse($0) }
        let byHim = try XCTUnwrap(hits.first { $0["id"] == .int(90_302) })
        XCTAssertEqual(byHim["snippet"], .string(""), "matched by its author alone: nothing under the row")
        let aboutHim = try XCTUnwrap(hits.first { $0["id"] == .int(90_301) })
        XCTAssertEqual(aboutHim["snippet"]?.stringValue, "Tolstoy, Leo, graf, 1828-1910")

        try cache(books: [Self.book(90_303, title: "Two subjects", subject: "Married women -- Fiction", bookshelf: "Category: Novels")])
        let listed = try comics.run(["search", "married", "novels", "-f", "ndjson"]).stdoutLines.map { try JSONValue.parse($0) }
        XCTAssertEqual(listed.first?["snippet"]?.stringValue, "Married women -- Fiction; Category: Novels")
    }

    /// bm25's length normalisation, as FTS5 has it, puts a one-line alt
    /// quoting a phrase above the long transcript that is about it.
    func testAComicAboutAPhraseRanksAboveOneQuotingItOnce() throws {
        XCTAssertEqual(try comics.run(["sync", "--quiet"]).status, 0, "the archive, for real average lengths")
        let filler = (1...25).map { "Student \($0): could the particle cross the barrier if it had less energy than it?" }
        let lecture = (filler[0..<8] + ["Professor: the quantum tunnel is the answer."] + filler[8..<16]
            + ["Professor: quantum effects let it through: it tunnels."] + filler[16...]
            + ["Professor: quantum mechanics says the tunnel is short."]).joined(separator: "\n")
        try cache(comics: [
            (204, FixtureServer.comic(204, title: "Lecture", alt: "Office hours are at noon.", transcript: lecture)),
            (205, FixtureServer.comic(205, title: "Holiday", alt: "Ever tried a quantum tunnel?")),
        ])
        XCTAssertEqual(try ids(["quantum", "tunnel"]), ["xkcd:204", "xkcd:205"])
    }

    func testATitleMatchsSnippetComesFromTheBody() throws {
        try cache(comics: [(206, FixtureServer.comic(206, title: "Tables", alt: "little bobby tables, we call him"))])
        let record = try JSONValue.parse(try comics.run(["search", "tables", "-f", "ndjson"]).stdoutLines[0])
        XCTAssertEqual(record["snippet"], .string("little bobby tables, we call him"))
        try cache(comics: [(207, FixtureServer.comic(207, title: "Chairs", alt: "nothing here"))])
        let chairs = try comics.run(["search", "chairs"])
        XCTAssertEqual(chairs.stdoutLines.count, 2, "a header and the match, no snippet repeating the title: \(chairs.stdout)")
    }

    func testWhatIsShownIsWhatIsSearched() throws {
        try cache(comics: [(208, FixtureServer.comic(208, title: "Evil\u{1B}]0;pwned\u{07}\u{1B}[31mRed\u{1B}[0m", alt: "a\u{1B}[2Jplain"))])
        XCTAssertTrue(try comics.run(["show", "208"]).stdout.hasPrefix("xkcd 208: EvilRed\n"))
        XCTAssertEqual(try ids(["evilred"]), ["xkcd:208"], "found by the title as drawn")
        XCTAssertEqual(try ids(["pwned"]), [], "the hidden payload is not searched")
        XCTAssertEqual(try ids(["aplain"]), ["xkcd:208"])
        XCTAssertEqual(try ids(["2jplain"]), [])
    }
}
