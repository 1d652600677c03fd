import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `comics search`: full-text search over the cache, kept in step with
/// every change to it.
final class SearchTests: EndToEndTestCase {
    private func ids(_ arguments: [String]) throws -> [String] {
        let result = try comics.run(["search", "-f", "ndjson"] + arguments)
        XCTAssertEqual(result.status, 0, "\(result)")
        return try result.stdoutLines.map { line in
            let record = try JSONValue.parse(line)
            return "\(record["source"]?.stringValue ?? ""):\(record["id"]?.intValue ?? 0)"
        }
    }

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

    func testRemoteAsksGutendexAndCachesWhatItFinds() throws {
        let cached = Set(try ids(["-s", "books", "frankenstein"]))
        XCTAssertTrue(cached.contains("books:84"), "\(cached)")
        try server.control(.object([("books", .object([("9001", FixtureServer.book(9001, title: "Frankenstein Returns", downloads: 999_999))]))]))
        XCTAssertEqual(Set(try ids(["-s", "books", "frankenstein"])), cached, "not cached yet")
        XCTAssertEqual(Set(try ids(["-s", "books", "--remote", "frankenstein"])), cached.union(["books:9001"]))
        XCTAssertTrue(try server.requests().contains("/books/?search=frankenstein"))
    }
}
