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
}
