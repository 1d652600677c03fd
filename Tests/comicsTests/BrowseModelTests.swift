import ComicsKit
import Foundation
import TestSupport
import XCTest

@testable import comics

/// Browse's model without a terminal: a state and an event give the next
/// state and the effects to run.
final class BrowseModelTests: XCTestCase {
    private func rows(_ ids: ClosedRange<Int>) -> [BrowseRow] {
        ids.reversed().map { BrowseRow(ref: ItemRef(source: .xkcd, id: $0), detail: "2020-01-01", title: "Comic \($0)", isFavorite: false) }
    }

    private func loaded(_ state: inout BrowseState, _ ids: ClosedRange<Int>, replacing: Bool = true) -> [BrowseEffect] {
        BrowseModel.handle(&state, .loaded(.source(.xkcd), rows(ids), replacing: replacing, isComplete: false, total: 200))
    }

    private func list(_ state: BrowseState) -> BrowseList? {
        if case let .list(list) = state.visible { return list }
        return nil
    }

    func testAPageThatDoesNotFillTheScreenAsksForTheNext() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        XCTAssertEqual(loaded(&state, 191...200), [.load(.source(.xkcd), next: true)])
        XCTAssertEqual(list(state)?.isLoading, true)
        XCTAssertEqual(loaded(&state, 181...190, replacing: false), [], "19 rows shown, 20 held, the selection far from the end")
        XCTAssertEqual(list(state)?.rows.count, 20)
        XCTAssertEqual(list(state)?.isLoading, false)
    }

    func testMovingNearTheEndLoadsMoreOnceAndTheSelectionStaysInView() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        _ = loaded(&state, 171...200)
        for _ in 0..<23 { XCTAssertEqual(BrowseModel.handle(&state, .key(.down)), []) }
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("j"))), [.load(.source(.xkcd), next: true)])
        XCTAssertEqual(BrowseModel.handle(&state, .key(.down)), [], "asked once")
        XCTAssertEqual(list(state)?.selected, 25)
        XCTAssertEqual(list(state)?.top, 16, "the selection is the last of ten rows")
        _ = BrowseModel.handle(&state, .key(.end))
        XCTAssertEqual(list(state)?.selected, 29)
        _ = BrowseModel.handle(&state, .key(.character("g")))
        XCTAssertEqual(list(state)?.selected, 0)
        XCTAssertEqual(list(state)?.top, 0)
    }

    func testEnterOpensBackReturnsAndNextFollowsTheList() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = loaded(&state, 171...200)
        _ = BrowseModel.handle(&state, .key(.down))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [.showDetail(ItemRef(source: .xkcd, id: 199), width: 80)])
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("n"))), [.showDetail(ItemRef(source: .xkcd, id: 198), width: 80)])
        XCTAssertEqual(state.screens.count, 2)
        _ = BrowseModel.handle(&state, .key(.escape))
        XCTAssertEqual(list(state)?.selectedRow?.ref.id, 198)
        _ = BrowseModel.handle(&state, .key(.escape))
        XCTAssertEqual(state.screens.count, 1, "the list is the bottom of the stack")
    }

    func testAFavouriteToggledAnywhereShowsEverywhere() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = loaded(&state, 191...200)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("f"))), [.toggleFavorite(ItemRef(source: .xkcd, id: 200))])
        XCTAssertEqual(list(state)?.rows[0].isFavorite, true, "at once, before the database answers")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("F"))), [.load(.favorites, next: false)])
        let changed = BrowseModel.handle(&state, .favoritesChanged([ItemRef(source: .xkcd, id: 199)]))
        XCTAssertEqual(changed, [.load(.favorites, next: false)], "the favourites screen reads them again")
        guard case let .list(bottom) = state.screens[0] else { return XCTFail() }
        XCTAssertEqual(bottom.rows.filter(\.isFavorite).map(\.ref.id), [199])
    }

    func testSearchPromptAndHelpAndQuit() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = BrowseModel.handle(&state, .key(.character("/")))
        for character in "cat x" { _ = BrowseModel.handle(&state, .key(.character(character))) }
        _ = BrowseModel.handle(&state, .key(.backspace))
        XCTAssertEqual(BrowseView.status(state, now: Date()), "search: cat ▏")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [.load(.search("cat"), next: false)])
        XCTAssertNil(state.prompt)
        _ = BrowseModel.handle(&state, .key(.character("?")))
        XCTAssertTrue(state.showsHelp)
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertFalse(state.showsHelp, "any key closes the help")
        XCTAssertFalse(state.isFinished)
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertTrue(state.isFinished)
    }

    func testSwitchingSourceStartsItsList() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("s"))), [.load(.source(.books), next: false)])
        XCTAssertEqual(list(state)?.listing, .source(.books))
    }

    func testAFailureKeepsTheRowsAndSaysSoInTheStatus() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = loaded(&state, 171...200)
        let now = Date()
        _ = BrowseModel.handle(&state, .loadFailed(.source(.xkcd), reason: "cannot reach xkcd.com", copyFrom: now.addingTimeInterval(-2 * 86400)))
        XCTAssertEqual(list(state)?.rows.count, 30)
        XCTAssertEqual(BrowseView.status(state, now: now), " xkcd · 1 of 200 · offline: copy from 2 days ago (cannot reach xkcd.com); r retries · ? keys")
    }

    /// Every frame is exactly the screen's size, whatever the rows hold.
    func testFramesFitTheScreen() {
        var state = BrowseState(rows: 8, columns: 30, source: .xkcd)
        _ = BrowseModel.handle(&state, .loaded(.source(.xkcd), [
            BrowseRow(ref: ItemRef(source: .xkcd, id: 1), detail: "2020-01-01", title: String(repeating: "漢", count: 40), isFavorite: true),
            BrowseRow(ref: ItemRef(source: .xkcd, id: 2), detail: "", title: "e\u{301}\u{301} combining", isFavorite: false),
        ], replacing: true, isComplete: true, total: 2))
        let frame = BrowseView.frame(state, now: Date())
        XCTAssertEqual(frame.count, 8)
        XCTAssertEqual(Set(frame.map { DisplayWidth.of($0.text) }), [30])
        XCTAssertTrue(frame[0].text.hasPrefix("★    1  漢"), "at 30 columns the date goes first: \(frame[0].text)")
        XCTAssertTrue(frame[0].text.trimmingCharacters(in: .whitespaces).hasSuffix("…"))
    }
}

/// Bytes from the terminal to keys.
final class KeyDecoderTests: XCTestCase {
    private func keys(_ chunks: [String]) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.feed(Array($0.utf8)) } + decoder.flush()
    }

    func testKeysAndSequences() {
        XCTAssertEqual(keys(["jk\r"]), [.character("j"), .character("k"), .enter])
        XCTAssertEqual(keys(["\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D"]), [.up, .down, .right, .left])
        XCTAssertEqual(keys(["\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[4~\u{1B}[1;5A"]), [.pageUp, .pageDown, .home, .end, .up])
        XCTAssertEqual(keys(["\u{1B}"]), [.escape], "a lone ESC, once nothing follows")
        XCTAssertEqual(keys(["é漢🙂"]), [.character("é"), .character("漢"), .character("🙂")])
    }

    func testSequencesSplitAcrossReadsAreJoined() {
        XCTAssertEqual(keys(["\u{1B}", "[", "6", "~"]), [.pageDown])
        XCTAssertEqual(keys(["\u{E6}".utf8.count == 2 ? "\u{E6}" : ""]), [.character("æ")])
        var decoder = KeyDecoder()
        let bytes = Array("漢".utf8)
        XCTAssertEqual(decoder.feed([bytes[0]]), [])
        XCTAssertTrue(decoder.isWaiting)
        XCTAssertEqual(decoder.feed(Array(bytes[1...])), [.character("漢")])
    }

    func testGarbageIsDroppedAndWhatFollowsSurvives() {
        XCTAssertEqual(keys(["\u{1B}[99;99;99Zq"]), [.character("q")], "an unknown sequence")
        XCTAssertEqual(keys(["\u{1B}]0;title\u{07}q"]), [.character("]"), .character("0"), .character(";"), .character("t"),
                                                      .character("i"), .character("t"), .character("l"), .character("e"), .character("q")],
                       "not a key sequence: its printable bytes are typed, the controls dropped")
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0xFF, 0xC3, 0x28, 0x01, 0x61]), [.character("("), .character("a")])
        _ = decoder.feed(Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: ";"), count: 100))
        XCTAssertFalse(decoder.isWaiting, "a sequence longer than any key is given up, not waited for")
        XCTAssertEqual(decoder.feed([UInt8(ascii: "j")]), [.character("j")])
    }

    /// Whatever the bytes, in whatever chunks: no crash, and no key holds a control character.
    func testRandomBytesNeverYieldAControlCharacter() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var decoder = KeyDecoder()
            var produced: [Key] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let chunk = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : [0x1B, 0x5B, 0x4F, 0x7E, 0x31, 0x3B].randomElement(using: &generator)!
                }
                produced += decoder.feed(chunk)
            }
            produced += decoder.flush()
            for case let .character(character) in produced {
                XCTAssertFalse(character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(produced)")
            }
        }
    }
}

/// The README lists browse's keys from the same table as its help screen.
final class BrowseKeysDocumentationTests: XCTestCase {
    func testTheReadmeListsEveryKeyAsTheHelpScreenDoes() throws {
        let readme = try String(contentsOfFile: Fixtures.path("../../README.md"), encoding: .utf8)
        let rows = readme.components(separatedBy: "\n").filter { $0.hasPrefix("| `") && $0.contains("` | ") }
        for (keys, action) in BrowseKeys.table {
            XCTAssertTrue(rows.contains("| `\(keys)` | \(action) |"), "README lacks the row for \(keys)")
        }
    }
}

/// Chafa's symbols, read into runs of colours for ncurses to draw.
final class SymbolPictureTests: XCTestCase {
    func testColoursBecomeRunsAndNothingElseSurvives() {
        let drawn = "\u{1B}[?25l\u{1B}[38;5;254m\u{1B}[48;5;237m▌▌\u{1B}[39m\u{1B}[48;5;231m  \u{1B}[0m\n"
            + "\u{1B}[7m\u{1B}[38;5;1m\u{1B}[48;5;2mx\u{1B}[27m\u{1B}]0;owned\u{07}y\u{1B}[m\n"
        let lines = SymbolPicture.runs(drawn)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[0], [
            BrowseRun(text: "▌▌", foreground: 254, background: 237), BrowseRun(text: "  ", foreground: -1, background: 231),
        ])
        XCTAssertEqual(lines[1].first, BrowseRun(text: "x", foreground: 2, background: 1), "inverse swaps the colours")
        XCTAssertFalse(lines[1].map(\.text).joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x07 })
    }
}
