import ComicsKit
import Foundation
import TestSupport
import XCTest

@testable import comics

/// `show` fits the terminal: every line of every real book and comic, and
/// of generated ones, is at most as wide as the terminal, but for a URL
/// wider than the line, which stands alone on its own.
final class ShowFitsTests: EndToEndTestCase {
    private func assertFits(_ reference: String, columns: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        comics.environment["COLUMNS"] = String(columns)
        let shown = try comics.run(["--offline", "show", reference])
        XCTAssertEqual(shown.status, 0, "\(reference): \(shown)", file: file, line: line)
        for printed in shown.stdoutLines {
            let width = DisplayWidth.of(printed)
            let trimmed = printed.trimmingCharacters(in: .whitespaces)
            let isLoneURL = DisplayWidth.isURL(trimmed) && !trimmed.contains(" ") && printed == trimmed
            XCTAssertTrue(width <= columns || isLoneURL, "\(reference) at \(columns) columns: '\(printed)' is \(width) wide",
                          file: file, line: line)
            XCTAssertFalse(printed.hasSuffix(" "), "\(reference) at \(columns) columns: '\(printed)' ends in a space", file: file, line: line)
        }
    }

    func testEveryRealBookAndComicFitsAt40And80Columns() throws {
        XCTAssertEqual(try comics.run(["-s", "books", "sync", "--quiet"]).status, 0)
        XCTAssertEqual(try comics.run(["list", "-n", "20"]).status, 0)
        for id in [1342, 31, 1436] { XCTAssertEqual(try comics.run(["show", "books:\(id)"]).status, 0) }
        let probe = try DatabaseProbe(path: comics.databasePath)
        let references = try probe.rows("SELECT source || ':' || id FROM items ORDER BY source, id").map { $0[0] }
        XCTAssertGreaterThan(references.count, 80)
        for reference in references {
            for columns in [40, 80] { try assertFits(reference, columns: columns) }
        }
    }

    /// Random titles, names, subjects and long unbroken words, at random widths.
    func testGeneratedBooksFitAtAnyWidth() throws {
        var generator = SystemRandomNumberGenerator()
        func words(_ count: Int) -> String {
            (0..<count).map { _ in
                let length = Int.random(in: 1...(Bool.random(using: &generator) ? 12 : 70), using: &generator)
                let letters = Bool.random(using: &generator) ? "abcdefghij" : "漢字かなé"
                return String((0..<length).map { _ in letters.randomElement(using: &generator)! })
            }.joined(separator: " ")
        }
        var books: [(String, JSONValue)] = []
        for id in 90_301...90_310 {
            guard case let .object(members) = FixtureServer.book(id, title: words(Int.random(in: 1...40)), author: words(6)) else { continue }
            books.append((String(id), .object(members.map { key, value in
                switch key {
                case "subjects": (key, .array([.string(words(12)), .string(words(2))]))
                case "translators": (key, .array([.object([("name", .string(words(5))), ("birth_year", .int(1800)), ("death_year", .null)])]))
                case "formats": (key, .object([
                    ("image/jpeg", .string("https://www.gutenberg.org/cache/epub/\(id)/pg\(id).cover.medium.jpg")),
                    ("text/html", .string("https://www.gutenberg.org/ebooks/\(id).html.images?" + String(repeating: "q", count: 90))),
                ]))
                default: (key, value)
                }
            })))
        }
        try server.control(.object([("books", .object(books))]))
        for (id, _) in books {
            XCTAssertEqual(try comics.run(["show", "books:\(id)"]).status, 0)
            for columns in [40, 80, Int.random(in: 30...120, using: &generator)] { try assertFits("books:\(id)", columns: columns) }
        }
    }

    func testAWideHeadingAndCoverURLWrapAsSummariesDo() throws {
        let title = "The Complete Works of Somebody Who Wrote a Great Deal: Volume One of Twelve, With Notes and an Index"
        try server.control(.object([("books", .object([("90400", FixtureServer.book(90_400, title: title, author: "Longname, Author Withmany Names"))]))]))
        comics.environment["COLUMNS"] = "40"
        let shown = try comics.run(["show", "books:90400"])
        XCTAssertEqual(Array(shown.stdoutLines.prefix(3)), [
            "books 90400: The Complete Works of", "Somebody Who Wrote a Great Deal: Volume", "One of Twelve, With Notes and an Index",
        ])
        XCTAssertTrue(shown.stdout.contains("Authors:        Longname, Author\n                Withmany Names (1900–)\n"), shown.stdout)
    }
}
