import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Footnotes in the reader, in a pseudo-terminal: Tab selects a mark on
/// the page, Enter shows its note in a box, Enter there goes to it, and
/// Ctrl-O comes back from every jump.
final class ReaderNotesTests: EndToEndTestCase {
    /// Candide's plain text numbers its notes again in each chapter: a
    /// mark's note is the first after it with its label.
    func testAPlainTextsNumberedNoteIsShownAndGoneToAndCtrlOComesBack() throws {
        XCTAssertEqual(try comics.run(["get", "4650"]).status, 0)
        for (rows, columns) in [(24, 80), (12, 40)] {
            let session = try TerminalSession(comics, ["read", "4650", "--from-start"], rows: rows, columns: columns)
            XCTAssertTrue(try session.wait(for: "·"), session.screen.joined(separator: "\n"))
            try session.send(":1\r")
            XCTAssertTrue(try session.wait(for: "§1 CHAPITRE I."), session.screen.joined(separator: "\n"))
            try session.send("/précepteur Pangloss\r")
            XCTAssertTrue(try session.wait(for: "hit 1 of"), session.screen.joined(separator: "\n"))
            for _ in 0..<20 where session.row(containing: "Pangloss[1]") == nil {
                try session.send("j")
                _ = try session.wait(for: "Pangloss[1]", timeout: 0.5)
            }
            XCTAssertNotNil(session.row(containing: "Pangloss[1]"), session.screen.joined(separator: "\n"))
            try session.send("\t")
            XCTAssertTrue(try session.wait(for: "note [1]:"), session.screen.joined(separator: "\n"))
            let top = session.screen.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            try session.send("\r")
            XCTAssertTrue(try session.wait(for: "│ [1] De _pan_"), session.screen.joined(separator: "\n"))
            XCTAssertTrue(try session.wait(for: "┌ note [1]"))

            try session.send("\u{1B}")
            XCTAssertTrue(try session.wait(whileShowing: "┌ note [1]"), "Esc closes the box")
            XCTAssertEqual(session.screen.prefix(rows - 1).joined(separator: "\n").contains("Pangloss[1]"), true)

            try session.send("\r")
            XCTAssertTrue(try session.wait(for: "┌ note [1]"), "the mark stays selected: Enter shows its note again")
            try session.send("\r")
            XCTAssertTrue(try session.wait(whileShowing: "┌ note [1]"))
            XCTAssertTrue(session.screen.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("[1] De _pan_") == true,
                          "Enter went to the note: \(session.screen.joined(separator: "\n"))")
            try session.send("\u{0F}")
            XCTAssertTrue(try session.wait(until: { $0.screen.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == top }),
                          "Ctrl-O came back to the same place: \(session.screen.joined(separator: "\n"))")
            try quitReader(session)
        }
    }

    /// An HTML edition's links say which note a mark is, whatever its
    /// label: both chapters' marks are [1], their notes gathered at the end.
    func testAnHTMLEditionsLinkSaysWhichNoteAMarkIs() throws {
        try server.postBook(70030, formats: [("text/html", "https://www.gutenberg.org/ebooks/70030.html.images")])
        let html = "<html><body><h1>NOTES</h1>"
            + "<h2>CHAPTER I</h2><p>The first chapter's claim.<a id=\"r1\" href=\"#fn1\" class=\"fnanchor\">[1]</a></p>"
            + "<h2>CHAPTER II</h2><p>The second chapter's claim.<a id=\"r2\" href=\"#fn2\" class=\"fnanchor\">[1]</a></p>"
            + "<h2>NOTES</h2><div class=\"footnote\"><a id=\"fn1\"></a><p>[1] The first chapter's note.</p></div>"
            + "<div class=\"footnote\"><a id=\"fn2\"></a><p>[1] The second chapter's note, linked.</p></div></body></html>"
        try server.serveHTML(70030, Array(html.utf8))
        XCTAssertEqual(try comics.run(["get", "70030"]).status, 0)
        let session = try TerminalSession(comics, ["read", "70030"], rows: 24, columns: 80)
        XCTAssertTrue(try session.wait(for: "The second chapter's claim.[1]"), session.screen.joined(separator: "\n"))
        try session.send("\u{1B}[Z")
        XCTAssertTrue(try session.wait(for: "note [1]: Enter shows it"), "Shift-Tab selects the last mark on the page")
        try showNote(session, keys: "\r", reading: "[1] The second chapter's note, linked.")
        try showNote(session, keys: "\t\r", reading: "[1] The first chapter's note.")
        try quitReader(session)
    }

    /// Sends `keys`, which open a note's box, finds the note in it, and
    /// closes it.
    private func showNote(_ session: TerminalSession, keys: String, reading note: String) throws {
        try session.send(keys)
        XCTAssertTrue(try session.wait(for: "│ " + note), session.screen.joined(separator: "\n"))
        try session.send("q")
        XCTAssertTrue(try session.wait(whileShowing: "┌ note"))
    }

    /// A mark of any style (a superscript number, `(*)`, `†`) that links
    /// to a note is a Tab stop, written `[label]` in the reader and `read`.
    func testAMarkOfAnyStyleIsATabStop() throws {
        try server.postBook(70031, formats: [("text/html", "https://www.gutenberg.org/ebooks/70031.html.images")])
        let html = "<html><body><h2>CHAPTER I</h2><p>A claim in superscript.<sup><a id=\"r1\" href=\"#fn1\">1</a></sup> "
            + "One starred<a id=\"r2\" href=\"#fn2\">(*)</a> and one crossed.<a id=\"r3\" href=\"#fn3\">†</a></p>"
            + "<h2>NOTES</h2><div class=\"footnote\"><p id=\"fn1\">1. The superscript's note.</p>"
            + "<p id=\"fn2\">(*) The starred note.</p><p id=\"fn3\">† The crossed note.</p></div></body></html>"
        try server.serveHTML(70031, Array(html.utf8))
        XCTAssertEqual(try comics.run(["get", "70031"]).status, 0)
        let printed = try comics.run(["read", "70031"])
        XCTAssertTrue(printed.stdout.contains("A claim in superscript.[1] One starred[*] and one crossed.[†]"), printed.stdout)
        let session = try TerminalSession(comics, ["read", "70031"], rows: 24, columns: 80)
        XCTAssertTrue(try session.wait(for: "crossed.[†]"), session.screen.joined(separator: "\n"))
        for label in ["1", "*", "†"] {
            try session.send("\t")
            XCTAssertTrue(try session.wait(for: "note [\(label)]: Enter shows it"), session.screen.joined(separator: "\n"))
        }
        try showNote(session, keys: "\r", reading: "† The crossed note.")
        try showNote(session, keys: "\u{1B}[Z\r", reading: "(*) The starred note.")
        try quitReader(session)
    }
}
