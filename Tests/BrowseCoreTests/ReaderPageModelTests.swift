@testable import ComicsKit
import Foundation
import XCTest

@testable import BrowseCore

/// The reader's page as the model decides it: each picture in view asked
/// for once, the page never waiting, Enter showing one alone; the jumps
/// Ctrl-O and Ctrl-I go back and forth through.
final class ReaderPageModelTests: XCTestCase {
    private let ref = ItemRef(source: .books, id: 1342)
    private let info = TextInfo(
        ref: ItemRef(source: .books, id: 1342), url: "u", encoding: "utf-8", fetchedAt: Date(timeIntervalSince1970: 0), originalBytes: 1,
        sectionCount: 0, wordCount: 4_000)

    /// A reader at the top of 40 blocks, one line each, block 3 an
    /// illustration whose picture takes 5 rows.
    private func reading(showsPictures: Bool = true) -> (BrowseState, ReaderPictureKey) {
        var settings = BrowseSettings()
        settings.showsPictures = showsPictures
        var state = BrowseState(rows: 11, columns: 80, source: .books, settings: settings)
        _ = BrowseModel.handle(&state, .startReading(ref, title: "P&P", from: .beginning, searching: nil))
        _ = BrowseModel.handle(&state, .readerOpened(ref, TextMap(info: info, outline: [], blockCount: 40, position: nil), title: nil))
        let key = ReaderPictureKey(path: "images/i_001.jpg", columns: 20, rows: 5)
        var lines: [ReaderLine] = []
        for block in 0..<40 {
            if block == 3 {
                lines += (0..<5).map { ReaderLine(block: 3, offset: 0, runs: [], picture: ReaderPictureRow(key: key, row: $0)) }
            }
            lines.append(ReaderLine(block: block, offset: 0, runs: [ReaderRun(text: "block \(block)")]))
        }
        let passage = ReaderPassage(firstBlock: 0, endBlock: 40, width: 72, wordsBefore: (0..<40).map { $0 * 100 }, lines: lines)
        for case let .passage(ref, blocks, column, pictureRows) in BrowseModel.queries(state) {
            _ = BrowseModel.handle(&state, .answered(.passage(ref, blocks: blocks, column: column, pictureRows: pictureRows), .passage(passage)))
        }
        return (state, key)
    }

    private struct NoReader: Error {}

    /// The reader in view; a test whose reader went fails.
    private func reader(_ state: BrowseState) throws -> BrowseReader {
        guard case let .reader(reader) = state.visible else { throw NoReader() }
        return reader
    }

    func testAPictureInViewIsAskedForOnceAndItsDrawingKept() throws {
        var (state, key) = reading()
        XCTAssertEqual(try reader(state).pictures[key], .drawing, "asked for when the passage came")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("j"))), [], "not asked again while it is drawn")
        let drawn = ReaderPictureDrawing.drawn(rows: [[BrowseRun(text: "▆▆", foreground: 1, background: 2)]], graphics: nil)
        _ = BrowseModel.handle(&state, .readerPicture(ref, key, drawn))
        XCTAssertEqual(try reader(state).pictures[key], drawn)
        let other = ReaderPictureKey(path: "images/other.jpg", columns: 20, rows: 5)
        _ = BrowseModel.handle(&state, .readerPicture(ref, other, drawn))
        XCTAssertNil(try reader(state).pictures[other], "a drawing no page asked for is not kept")
    }

    func testEnterShowsThePictureAloneAndAnyKeyGoesBack() throws {
        var (state, key) = reading()
        let effects = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(try reader(state).fullPicture, key)
        let full = try XCTUnwrap(try reader(state).fullScreenPicture(columns: 80, height: state.listHeight))
        XCTAssertEqual(effects, [.drawReaderPicture(ref, full)], "drawn again to fit the screen")
        XCTAssertLessThanOrEqual(full.rows, state.listHeight)
        XCTAssertLessThanOrEqual(full.columns, 78)
        let top = try reader(state).topLine
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character(" "))), [])
        XCTAssertNil(try reader(state).fullPicture)
        XCTAssertEqual(try reader(state).topLine, top, "the key only went back")
    }

    func testWithPicturesOffNothingIsDrawnAndEnterMovesALine() throws {
        var (state, _) = reading(showsPictures: false)
        XCTAssertEqual(try reader(state).pictures, [:])
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertNil(try reader(state).fullPicture)
        XCTAssertEqual(try reader(state).topLine, 1)
        if case let .passage(_, _, _, rows)? = BrowseModel.queries(state).first {
            XCTAssertNil(rows, "the passage is laid out without picture rows")
        }
    }

    func testAPictureFitsItsShapeIntoTheColumnAndNeverPastAScreen() {
        for _ in 0..<1_000 {
            let size = PictureSize(width: Int.random(in: 1...30_000), height: Int.random(in: 1...30_000))
            let column = Int.random(in: 10...200), rows = Int.random(in: 1...100)
            let key = ReaderPictureFit.key(path: "p", size: size, column: column, maximumRows: rows)
            XCTAssertTrue((1...column).contains(key.columns), "\(size) \(column) \(rows) → \(key)")
            XCTAssertTrue((1...rows).contains(key.rows), "\(size) \(column) \(rows) → \(key)")
        }
        XCTAssertEqual(ReaderPictureFit.key(path: "p", size: PictureSize(width: 400, height: 300), column: 72, maximumRows: 40).rows, 27)
        XCTAssertEqual(ReaderPictureFit.key(path: "p", size: PictureSize(width: 200, height: 300), column: 72, maximumRows: 21).columns, 28)
    }

    func testCtrlOAndCtrlIGoBackAndForthThroughTheJumps() throws {
        var (state, _) = reading()
        let start = try reader(state).top
        _ = BrowseModel.handle(&state, .key(.character("G")))
        let end = try reader(state).top
        XCTAssertGreaterThan(end.block, start.block)
        _ = BrowseModel.handle(&state, .key(.character("g")))
        XCTAssertEqual(try reader(state).top, start)

        _ = BrowseModel.handle(&state, .key(.control("o")))
        XCTAssertEqual(try reader(state).top, end, "back to where g left from")
        _ = BrowseModel.handle(&state, .key(.control("o")))
        XCTAssertEqual(try reader(state).top, start, "and to where G left from")
        _ = BrowseModel.handle(&state, .key(.control("o")))
        XCTAssertEqual(state.message, "no jump to go back to")
        _ = BrowseModel.handle(&state, .key(.tab))
        XCTAssertEqual(try reader(state).top, end, "Ctrl-I (Tab) forward again")
        _ = BrowseModel.handle(&state, .key(.tab))
        XCTAssertEqual(try reader(state).top, start)
        _ = BrowseModel.handle(&state, .key(.tab))
        XCTAssertEqual(state.message, "no jump ahead: Ctrl-O goes back")
    }

    func testAJumpAfterGoingBackDropsThePlacesAheadAndTheListIsBounded() {
        var jumps = ReaderJumps()
        let place = { (block: Int) in TextPosition(block: block) }
        jumps.record(place(1))
        jumps.record(place(2))
        XCTAssertEqual(jumps.back(from: place(3)), place(2))
        XCTAssertEqual(jumps.back(from: place(2)), place(1))
        jumps.record(place(1))
        XCTAssertNil(jumps.forward(), "the places ahead went with the new jump")
        XCTAssertEqual(jumps.back(from: place(9)), place(1))
        for block in 0..<500 { jumps.record(place(block)) }
        XCTAssertEqual(jumps.places.count, ReaderJumps.limit)
        XCTAssertEqual(jumps.places.last, place(499))
    }
}
