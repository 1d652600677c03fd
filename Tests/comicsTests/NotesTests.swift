import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Notes written in the reader (`a`), listed there (`A`) and printed by
/// `comics notes`: user data, kept as favourites and bookmarks are.
final class NotesTests: EndToEndTestCase {
    private let candideOpening = "Il y avait en Vestphalie"

    /// Writes `text` on the first paragraph of section `section` of `book`.
    private func writeNote(_ text: String, book: Int, section: Int, rows: Int = 24, columns: Int = 80, _ options: [String] = []) throws -> TerminalSession {
        let session = try TerminalSession(comics, ["read", String(book)] + options, rows: rows, columns: columns)
        XCTAssertTrue(try session.wait(for: "·"), session.screen.joined(separator: "\n"))
        try session.send(":\(section)\r")
        XCTAssertTrue(try session.wait(for: "§\(section) "), session.screen.joined(separator: "\n"))
        try session.send("a")
        XCTAssertTrue(try session.wait(for: "note"), session.screen.joined(separator: "\n"))
        try session.send(text + "\r")
        XCTAssertTrue(try session.wait(for: "note added (A lists them)"), session.screen.joined(separator: "\n"))
        return session
    }

    func testANoteIsWrittenListedEditedAndDeletedInTheReaderAtBothSizes() throws {
        XCTAssertEqual(try comics.run(["get", "4650"]).status, 0)
        for (rows, columns) in [(24, 80), (12, 40)] {
            let session = try writeNote("Optimism, mocked", book: 4650, section: 1, rows: rows, columns: columns)
            if columns == 80 {
                XCTAssertTrue(session.row(containing: candideOpening)?.hasPrefix("  ✎ ") == true, "a mark in the margin: \(session.screen.joined(separator: "\n"))")
            }
            try session.send("A")
            XCTAssertTrue(try session.wait(for: "Optimism, mocked"), session.screen.joined(separator: "\n"))
            XCTAssertTrue(try session.wait(for: "notes: Enter goes"), session.screen.joined(separator: "\n"))
            try session.send("r")
            XCTAssertTrue(try session.wait(for: "note: "), session.screen.joined(separator: "\n"))
            try session.send(" and edited\r")
            XCTAssertTrue(try session.wait(for: "Optimism, mocked and edited"), session.screen.joined(separator: "\n"))
            try session.send("d")
            XCTAssertTrue(try session.wait(for: "no notes yet"), session.screen.joined(separator: "\n"))
            try session.send("x'")
            XCTAssertTrue(try session.wait(for: "no bookmarks yet"), "a note is no bookmark")
            try session.send("x")
            try quitReader(session)
            XCTAssertEqual(try comics.run(["notes", "4650", "-f", "json"]).stdout, "[]\n")
        }
    }

    func testNotesArePrintedInEveryFormatAndKeptByRebuildANewEditionAndCleanup() throws {
        XCTAssertEqual(try comics.run(["get", "4650"]).status, 0)
        XCTAssertEqual(try comics.run(["get", "1342"]).status, 0)
        try quitReader(try writeNote("Optimism, *mocked* [1]", book: 4650, section: 1))
        // Over the chapter's heading and its picture's caption, the paragraph.
        try quitReader(try writeNote("Mr. Bennet's \u{1B}[31mvisit", book: 1342, section: 3, ["--no-pictures"]))

        let table = try comics.run(["notes"])
        XCTAssertEqual(table.status, 0, "\(table)")
        XCTAssertTrue(table.stdout.contains("  “MR. BENNET was among the earliest of those who waited on Mr. Bingley.”"), table.stdout)
        XCTAssertTrue(table.stdout.contains("  “\(candideOpening)"), table.stdout)
        XCTAssertFalse(table.stdout.contains("\u{1B}"), "nothing typed reaches the terminal raw")
        let json = try JSONValue.parse(try comics.run(["notes", "-f", "json"]).stdout).arrayValue ?? []
        XCTAssertEqual(json.compactMap { $0["ref"]?.stringValue }, ["books:1342", "books:4650"])
        XCTAssertEqual(json.last?["note"], .string("Optimism, *mocked* [1]"))
        XCTAssertEqual(json.last?["section"], .int(1))
        XCTAssertEqual(json.last?["id"], .int(4650))
        XCTAssertTrue(json.last?["paragraph"]?.stringValue?.hasPrefix(candideOpening) == true)
        XCTAssertTrue(try comics.run(["notes", "4650", "-f", "csv"]).stdout.hasPrefix("source,id,ref,number,section,section_title,percent,paragraph,note,at\r\n"))
        let markdown = try comics.run(["notes", "4650", "-f", "markdown"]).stdout
        XCTAssertTrue(markdown.hasPrefix("## Candide, ou l'optimisme (books:4650)\n\n### §1 CHAPITRE I. "), markdown)
        XCTAssertTrue(markdown.contains("\n> \(candideOpening)"), markdown)
        XCTAssertTrue(markdown.hasSuffix("\nOptimism, \\*mocked\\* \\[1\\]\n"), markdown)
        XCTAssertEqual(try comics.run(["list", "-f", "markdown"]).status, 2, "markdown is a format of notes alone")
        XCTAssertEqual(try comics.run(["notes", "1", "2"]).status, 2)

        // A new edition: the note's paragraph is found in it, small capitals
        // and all, as a bookmark's is.
        XCTAssertEqual(try comics.run(["get", "1342", "--edition", "text"]).status, 0)
        let moved = try JSONValue.parse(try comics.run(["notes", "1342", "-f", "json"]).stdout).arrayValue?.first
        XCTAssertEqual(moved?["note"], .string("Mr. Bennet's visit"))
        XCTAssertEqual(moved?["section_title"], .string("CHAPTER II."), "\(String(describing: moved))")
        XCTAssertEqual(moved?["paragraph"], .string("Mr. Bennet was among the earliest of those who waited on Mr. Bingley."))

        // Cleanup removes texts, never notes; rebuild keeps them.
        XCTAssertEqual(try comics.run(["config", "set", "texts.max-bytes", "1000"]).status, 0)
        XCTAssertEqual(try comics.run(["cleanup"]).status, 0)
        XCTAssertEqual(try comics.run(["--offline", "toc", "4650"]).status, 4, "the text went")
        XCTAssertEqual((try JSONValue.parse(try comics.run(["notes", "-f", "json"]).stdout).arrayValue ?? []).count, 2)
        XCTAssertEqual(try comics.run(["rebuild", "--force"]).status, 0)
        let rebuilt = try JSONValue.parse(try comics.run(["notes", "-f", "json"]).stdout).arrayValue ?? []
        XCTAssertEqual(rebuilt.compactMap { $0["note"]?.stringValue }.last, "Optimism, *mocked* [1]")
        XCTAssertEqual(rebuilt.count, 2)
    }
}
