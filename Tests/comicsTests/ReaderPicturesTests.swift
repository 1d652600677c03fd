import ComicsKit
import Foundation
import TestSupport
import XCTest

/// An HTML edition's pictures in the reader, in a pseudo-terminal whose
/// picture mode is symbols (TERM=xterm-256color, no graphics): drawn where
/// the text puts them, the caption under them, shown alone at Enter.
final class ReaderPicturesTests: EndToEndTestCase {
    private let caption = "I hope Mr. Bingley will like it."

    override func setUpWithError() throws {
        try super.setUpWithError()
        let got = try comics.run(["get", "1342"])
        XCTAssertEqual(got.status, 0, "\(got)")
    }

    /// Rows drawn in chafa's symbols (block and box elements).
    private func pictureRows(_ session: TerminalSession) -> [Int] {
        session.screen.indices.filter { row in
            session.screen[row].unicodeScalars.contains { (0x2500...0x259F).contains($0.value) }
        }
    }

    /// The reader at CHAPTER II, whose first paragraph is Hugh Thomson's picture.
    private func readerAtChapterII(rows: Int, columns: Int, _ arguments: [String] = []) throws -> TerminalSession {
        let session = try TerminalSession(comics, ["read", "1342"] + arguments, rows: rows, columns: columns)
        XCTAssertTrue(try session.wait(for: "·"), session.screen.joined(separator: "\n"))
        try session.send(":3\r")
        XCTAssertTrue(try session.wait(for: "§3 CHAPTER II."), session.screen.joined(separator: "\n"))
        return session
    }

    func testAPictureIsDrawnWhereTheTextPutsItWithItsCaptionAtBothSizes() throws {
        for (rows, columns) in [(24, 80), (12, 40)] {
            let requests = try server.requests().count
            let session = try readerAtChapterII(rows: rows, columns: columns, ["--offline"])
            XCTAssertTrue(try session.wait(until: { !self.pictureRows($0).isEmpty }), session.screen.joined(separator: "\n"))
            let drawn = pictureRows(session)
            let heading = try XCTUnwrap(session.screen.firstIndex { $0.contains("CHAPTER II.") && !$0.contains("§") })
            XCTAssertGreaterThan(drawn.first ?? 0, heading, "under its chapter's heading, where the text puts it")
            XCTAssertLessThanOrEqual(drawn.count, rows - 3, "no taller than a screen")
            XCTAssertTrue(session.screen.allSatisfy { $0.count <= columns })

            // Down to the caption: it is under the picture.
            try session.send(String(repeating: "j", count: rows))
            XCTAssertTrue(try session.wait(for: caption), session.screen.joined(separator: "\n"))
            let captionRow = try XCTUnwrap(session.screen.firstIndex { $0.contains(caption) })
            XCTAssertTrue(pictureRows(session).allSatisfy { $0 < captionRow }, session.screen.joined(separator: "\n"))

            // A page past it and back: drawn again.
            try session.send(" ")
            XCTAssertTrue(try session.wait(until: { self.pictureRows($0).isEmpty }), session.screen.joined(separator: "\n"))
            try session.send("bb")
            XCTAssertTrue(try session.wait(until: { !self.pictureRows($0).isEmpty }), session.screen.joined(separator: "\n"))

            // Enter: the picture alone, on the whole screen; any key back.
            try session.send("\r")
            XCTAssertTrue(try session.wait(for: "a picture: any key goes back"), session.screen.joined(separator: "\n"))
            XCTAssertTrue(try session.wait(until: { self.pictureRows($0).count >= drawn.count && !$0.screen.joined().contains("MR. BENNET") }))
            XCTAssertGreaterThan(pictureRows(session).count, drawn.count / 2)
            try session.send("x")
            XCTAssertTrue(try session.wait(whileShowing: "a picture: any key goes back"))
            try quitReader(session)
            XCTAssertEqual(try server.requests().count, requests, "offline after get: the pictures are the cache's")
        }
    }

    func testWithoutPicturesTheCaptionAndIllustrationLineAsReadPrintsIt() throws {
        let off = try readerAtChapterII(rows: 24, columns: 80, ["--no-pictures"])
        XCTAssertTrue(try off.wait(for: "[Illustration: \(caption)]"), off.screen.joined(separator: "\n"))
        XCTAssertEqual(pictureRows(off), [])
        try quitReader(off)

        XCTAssertEqual(try comics.run(["config", "set", "reader.pictures", "off"]).status, 0)
        let setting = try readerAtChapterII(rows: 24, columns: 80)
        XCTAssertTrue(try setting.wait(for: "[Illustration: \(caption)]"), setting.screen.joined(separator: "\n"))
        try quitReader(setting)
        XCTAssertEqual(try comics.run(["config", "unset", "reader.pictures"]).status, 0)

        comics.environment["NO_COLOR"] = "1"
        let plain = try readerAtChapterII(rows: 24, columns: 80)
        XCTAssertTrue(try plain.wait(for: "[Illustration: \(caption)]"), plain.screen.joined(separator: "\n"))
        try quitReader(plain)
    }

    func testAPictureThatCannotBeDrawnSaysSoInItsPlace() throws {
        try DatabaseProbe.execute(on: comics.databasePath, """
            UPDATE text_pictures SET body = X'89504E470D0A1A0A0000000D49484452000000100000001008060000001B1B1B1B' WHERE path = 'images/i_035_a.jpg';
            """)
        let session = try readerAtChapterII(rows: 24, columns: 80)
        XCTAssertTrue(try session.wait(for: "images/i_035_a.jpg"), session.screen.joined(separator: "\n"))
        XCTAssertEqual(pictureRows(session), [])
        XCTAssertTrue(session.screen.allSatisfy { !$0.contains("\u{1B}") })
        try session.send("j")
        XCTAssertTrue(try session.wait(for: "4%"), "the reader goes on")
        try quitReader(session)
    }

    /// The book opens on its cover, a picture: kitty's graphics are
    /// written for it (pyte shows them as text: the raw output is read).
    func testAKittyTerminalGetsGraphicsOverTheRowsAndTheyAreDeletedWhenTheyLeave() throws {
        comics.environment["KITTY_WINDOW_ID"] = "1"
        let session = try TerminalSession(comics, ["read", "1342"], rows: 24, columns: 80)
        XCTAssertTrue(try session.wait(forOutput: "\u{1B}_G"), "kitty's graphics written")
        try session.send("   ")
        XCTAssertTrue(try session.wait(forOutput: "\u{1B}_Ga=d"), "deleted when the picture leaves the page")
        try quitReader(session)
    }
}
