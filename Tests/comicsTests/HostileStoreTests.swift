@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Rows of a database someone else wrote into: what comics stored is read
/// back within the bounds comics writes it by, and anything past them is
/// damage, named with what mends it, never a cost or a crash.
final class HostileStoreTests: EndToEndTestCase {
    private let ref = "books:11"

    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "text"]).status, 0)
        XCTAssertEqual(try comics.run(["get", "11", "-q"]).status, 0)
    }

    private func plant(_ sql: String, _ values: [SQLiteValue] = []) throws {
        let database = try SQLiteDatabase(path: comics.databasePath)
        try database.run(sql, values)
    }

    private func assertDamaged(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try comics.run(arguments)
        XCTAssertEqual(result.status, 5, "\(arguments): \(result)", file: file, line: line)
        XCTAssertEqual(
            result.stderr,
            "comics: error: the text of \(ref) in \(comics.databasePath) is damaged; 'comics get --refresh \(ref)' downloads it again\n",
            file: file, line: line)
    }

    /// A chunk that would inflate past what comics writes in one (a bomb),
    /// or a text whose chunks together pass its cap, is damaged before
    /// anything is inflated; `get --refresh` mends it.
    func testABombInAStoredChunkIsDamageFoundWithoutInflatingIt() throws {
        let bomb = Compression.compress([UInt8](repeating: 0x61, count: 64 << 20))
        try plant("UPDATE text_chunks SET body_bytes = ?, body = ? WHERE id = 11 AND chunk = 0", [.integer(64 << 20), .blob(bomb)])
        for arguments in [["read", "11"], ["read", "11", "--section", "1"], ["search", "alice", "--in", "11"], ["read", "11", "-f", "json"]] {
            try assertDamaged(arguments)
        }
        // A frame whose header says more than its row does.
        let lying = Compression.compress([UInt8](repeating: 0x61, count: 200_000))
        try plant("UPDATE text_chunks SET body_bytes = 1000, body = ? WHERE id = 11 AND chunk = 0", [.blob(lying)])
        try assertDamaged(["read", "11", "--section", "1"])
        // Each chunk within its bound, the text past its cap.
        try plant("""
            WITH RECURSIVE n(k) AS (SELECT 1000 UNION ALL SELECT k + 1 FROM n WHERE k < 1200)
            INSERT INTO text_chunks (source, id, chunk, first_block, first_word, body_bytes, body)
            SELECT 'books', 11, k, 100000 + k, 0, ?, x'00' FROM n
            """, [.integer(Int64(SQLiteCacheStore.maximumChunkBytes))])
        try assertDamaged(["read", "11"])

        let mended = try comics.run(["get", "--refresh", "11", "-q"])
        XCTAssertEqual(mended.status, 0, "\(mended)")
        let read = try comics.run(["read", "11", "--section", "1"])
        XCTAssertEqual(read.status, 0, "\(read)")
        XCTAssertEqual(read.stdoutLines.first, "CHAPTER I. Down the Rabbit-Hole")
    }

    /// Numbers no version of comics writes: each is read as damage where
    /// it is read (a place dropped, a level clamped, an outline ended), and
    /// nothing traps (Swift's traps end the process with SIGILL, exit 132).
    func testNumbersPastWhatComicsWritesAreNeverTrusted() throws {
        let huge = Int64.max
        try plant("INSERT OR REPLACE INTO reading_positions VALUES ('books', 11, 5, 0, 'x', 10, 1, 1e19)")
        XCTAssertEqual(try comics.run(["fav", "add", ref]).status, 0)
        for arguments in [["show", ref], ["show", ref, "-f", "json"], ["fav", "list", "-f", "json"], ["fav", "list"]] {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result)")
        }
        try plant("UPDATE reading_positions SET block = ?, at = 1e300", [.integer(huge)])
        try plant("INSERT INTO bookmarks (source, id, number, block, block_offset, anchor, name, at, percent) VALUES ('books', 11, ?, 1, 0, 'x', 'planted', 0, 0)", [.integer(huge)])
        try plant("UPDATE text_sections SET level = ? WHERE id = 11 AND number = 3", [.integer(huge)])
        try plant("UPDATE text_sections SET first_block = ? WHERE id = 11 AND number = 5", [.integer(huge)])
        for arguments in [["toc", ref, "-f", "json"], ["read", ref, "-f", "json"], ["read", ref, "--section", "3"], ["show", ref]] {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        let toc = try comics.run(["toc", ref])
        XCTAssertEqual(toc.stdoutLines.count, 5, "the outline ends before the row that opens past the text: \(toc.stdout)")

        // The reader opens (the place dropped), marks a page, and walks
        // the sections, the last of which opens past the text's end.
        let session = try TerminalSession(comics, ["read", "11"], rows: 20, columns: 80)
        XCTAssertTrue(try session.wait(for: "Alice"), session.screen.joined(separator: "\n"))
        try session.send("m")
        XCTAssertTrue(try session.wait(for: "bookmark"), session.screen.joined(separator: "\n"))
        try session.send("]]]]]]]]]]")
        try session.send("q")
        let ended = try XCTUnwrap(try session.finish())
        XCTAssertEqual(ended.status, 0)
        XCTAssertTrue(ended.modesRestored)
        let numbers = try DatabaseProbe(path: comics.databasePath).rows("SELECT number FROM bookmarks WHERE id = 11 ORDER BY number").map(\.[0])
        XCTAssertEqual(numbers, ["1", String(huge)], "the new bookmark is numbered after those comics wrote")

        // A rebuild carries the rows over within the same bounds.
        try plant("UPDATE reading_positions SET block = 5, at = 1e19")
        XCTAssertEqual(try comics.run(["rebuild", "--force"]).status, 0)
        for arguments in [["show", ref, "-f", "json"], ["fav", "list", "-f", "json"]] {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 0, "after rebuild, \(arguments): \(result)")
        }
    }

    /// A tampered file's two million sections print no more than the
    /// outline comics writes; a rebuild carries over no more bookmarks
    /// than a book keeps.
    func testFloodsOfRowsAreReadNoFurtherThanTheWriterWrites() throws {
        try plant("""
            WITH RECURSIVE n(k) AS (SELECT 100 UNION ALL SELECT k + 1 FROM n WHERE k < 2000000)
            INSERT INTO text_sections (source, id, number, level, title, first_block, start_word, words)
            SELECT 'books', 11, k, 0, 'Flood', 400, 0, 0 FROM n
            """)
        try plant("DELETE FROM text_sections WHERE id = 11 AND number BETWEEN 13 AND 99")
        try plant("UPDATE text_sections SET number = number - 87 WHERE id = 11 AND number >= 100")
        let toc = try comics.run(["toc", ref])
        XCTAssertEqual(toc.status, 0)
        XCTAssertLessThanOrEqual(toc.stdoutLines.count, SectionOutline.maximumSections + 1)
        try plant("""
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 100000)
            INSERT INTO bookmarks (source, id, number, block, block_offset, anchor, name, at, percent)
            SELECT 'books', 11, k, 1, 0, 'x', 'b', 0, 0 FROM n
            """)
        let rebuilt = try comics.run(["rebuild", "--force"])
        XCTAssertEqual(rebuilt.status, 0, "\(rebuilt)")
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).count("SELECT count(*) FROM bookmarks"), Bookmark.limit)
    }
}

/// What one paragraph can hold costs time linear in it and output bounded
/// whatever it holds.
final class HostileParagraphTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try comics.run(["config", "set", "texts.edition", "text"]).status, 0)
    }

    /// 80,000 words of one paragraph, all the word searched for: snippets
    /// were SQLite's `snippet()`, which weighs every match against every
    /// other (more than 300 s for 20 hits).
    func testSearchInOneParagraphOfTheSameWordIsLinear() throws {
        try server.serveText(70010, "CHAPTER I.\n\n" + String(repeating: String(repeating: "word ", count: 1_000) + "\n", count: 80))
        XCTAssertEqual(try comics.run(["get", "70010", "-q"]).status, 0)
        for count in ["1", "20"] {
            let (result, seconds, _) = try comics.measured(["search", "word", "--in", "70010", "-n", count])
            XCTAssertEqual(result.status, 0, "\(result)")
            XCTAssertTrue(result.stdout.contains("\u{1B}") == false && result.stdout.contains("word"), result.stdout)
            XCTAssertLessThan(seconds, 30, "-n \(count): \(seconds) s")
        }
    }

    /// One letter under five million combining marks is one word: its
    /// snippet is cut, counted in scalars, in every format.
    func testASnippetIsCappedInScalars() throws {
        try server.serveText(70011, "CHAPTER I.\n\nA flood of a" + String(repeating: "\u{301}", count: 5_000_000) + " and more.")
        XCTAssertEqual(try comics.run(["get", "70011", "-q"]).status, 0)
        for format in ["table", "json", "tsv"] {
            let result = try comics.run(["search", "flood", "--in", "70011", "-f", format])
            XCTAssertEqual(result.status, 0, "\(format): \(result.stderr)")
            XCTAssertLessThan(result.stdout.unicodeScalars.count, 4 * SearchMatch.snippetLimit, format)
            XCTAssertTrue(result.stdout.contains("…"), "\(format): said where it was cut")
        }
    }

    /// A million one-letter paragraphs: past what a real book has they
    /// join into blocks of many lines, so memory stays a small multiple of
    /// the file (it was 80 to 110 times it) and every word is kept.
    func testAFloodOfTinyParagraphsJoinsAndKeepsEveryWord() throws {
        let count = 1_000_000
        try server.serveText(70012, "CHAPTER I.\n\n" + String(repeating: "a\n\n", count: count))
        let (got, _, gotMiB) = try comics.measured(["get", "70012", "-f", "json"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(try JSONValue.parse(got.stdout).arrayValue?.first?["words"], .int(count + 2), "every word kept")
        if ComicsRunner.peakMemoryMeansComics { XCTAssertLessThan(gotMiB, 200, "get of a 3 MiB file") }
        try assertJoined(70012, count: count)

        let html = "<html><body><h2>CHAPTER I.</h2>" + String(repeating: "<p>a</p>", count: count) + "<h2>CHAPTER II.</h2><p>end</p></body></html>"
        try server.postBook(70013, formats: [("text/html", "https://www.gutenberg.org/ebooks/70013.html.images")])
        try server.serveHTML(70013, Array(html.utf8))
        let (htmlGot, _, htmlMiB) = try comics.measured(["get", "70013", "-f", "json"])
        XCTAssertEqual(htmlGot.status, 0, "\(htmlGot)")
        XCTAssertEqual(try JSONValue.parse(htmlGot.stdout).arrayValue?.first?["words"], .int(count + 5), "every word kept")
        if ComicsRunner.peakMemoryMeansComics { XCTAssertLessThan(htmlMiB, 200, "get of an 8 MiB HTML edition") }
        try assertJoined(70013, count: count)
    }

    /// The text read back is a few thousand blocks, not a million.
    private func assertJoined(_ id: Int, count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let (read, _, readMiB) = try comics.measured(["read", String(id), "-f", "json"])
        XCTAssertEqual(read.status, 0, file: file, line: line)
        let sections = try JSONValue.parse(read.stdout)["sections"]?.arrayValue ?? []
        let blocks = sections.reduce(0) { $0 + ($1["paragraphs"]?.arrayValue?.count ?? 0) }
        XCTAssertGreaterThan(blocks, 0, file: file, line: line)
        XCTAssertLessThan(blocks, count / 10, file: file, line: line)
        if ComicsRunner.peakMemoryMeansComics { XCTAssertLessThan(readMiB, 200, "read -f json", file: file, line: line) }
    }
}
