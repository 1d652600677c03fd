@testable import ComicsKit
import Foundation
import XCTest

@testable import BrowseCore

/// The reader's decisions: where it saves the place, what it learns of
/// the reading speed, and what it reads of the text, each from the state
/// and the time its messages carry.
final class ReaderPolicyTests: XCTestCase {
    private let ref = ItemRef(source: .books, id: 11)
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let blockCount = 60

    /// A reader on a text of 60 blocks of 50 words, three lines each.
    private func reading() -> BrowseState {
        var state = BrowseState(rows: 11, columns: 80, source: .books)
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: start, originalBytes: 1, sectionCount: 0, wordCount: 50 * blockCount)
        _ = BrowseModel.handle(&state, .startReading(ref, title: "Alice", from: .saved, searching: nil))
        _ = BrowseModel.handle(&state, .readerOpened(ref, TextMap(info: info, outline: [], blockCount: blockCount, position: nil), title: nil))
        return state
    }

    private func passage(_ blocks: Range<Int>, column: Int) -> ReaderPassage {
        let lines = blocks.flatMap { block in (0..<3).map { ReaderLine(block: block, offset: $0 * 40, runs: [ReaderRun(text: "line \($0) of \(block)")]) } }
        return ReaderPassage(firstBlock: blocks.lowerBound, endBlock: blocks.upperBound, width: column, wordsBefore: blocks.map { $0 * 50 }, lines: lines)
    }

    /// Answers the passage the reader declares, as the observation would.
    private func answerPassage(_ state: inout BrowseState) {
        for case let .passage(ref, blocks, column) in BrowseModel.queries(state) {
            _ = BrowseModel.handle(&state, .answered(.passage(ref, blocks: blocks, column: column), .passage(passage(blocks, column: column))))
        }
    }

    func testTheReaderDeclaresThePassageItNeedsAndNoMoreOnceItHasIt() throws {
        var state = reading()
        let first = BrowseModel.queries(state)
        XCTAssertEqual(first, [.passage(ref, blocks: 0..<60, column: 72)])
        answerPassage(&state)
        XCTAssertEqual(BrowseModel.queries(state), first, "the passage held is the one declared: nothing new to read")
    }

    func testPagesTurnedForwardTeachTheSpeedAndJumpsDoNot() throws {
        var state = reading()
        answerPassage(&state)
        _ = BrowseModel.handle(&state, .time(start))
        let first = BrowseModel.handle(&state, .key(.character(" ")))
        XCTAssertEqual(first.count, 1, "the first page saves the place, and has nothing to learn from: \(first)")
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(40)))
        let second = BrowseModel.handle(&state, .key(.character(" ")))
        guard case let .learnReadingSpeed(words, seconds)? = second.last else { return XCTFail("\(second)") }
        XCTAssertEqual(seconds, 40)
        XCTAssertEqual(words, 150, "a page of ten lines, three to a block of 50 words")
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(50)))
        let jump = BrowseModel.handle(&state, .key(.character("G")))
        XCTAssertFalse(jump.contains { if case .learnReadingSpeed = $0 { true } else { false } }, "G is a jump: \(jump)")
    }

    func testLeavingSavesTheReadersPlaceOnce() throws {
        var state = reading()
        answerPassage(&state)
        _ = BrowseModel.handle(&state, .key(.character("j")))
        _ = BrowseModel.handle(&state, .key(.character("j")))
        XCTAssertEqual(BrowseModel.handle(&state, .leaving), [.saveReading(ref, TextPosition(block: 0, offset: 80))])
        XCTAssertTrue(state.isFinished)
        XCTAssertEqual(BrowseModel.handle(&state, .leaving), [], "saved already")
    }

    func testATextGoneFromTheCacheIsSaidInTheReader() throws {
        var state = reading()
        let query = try XCTUnwrap(BrowseModel.queries(state).first)
        _ = BrowseModel.handle(&state, .unanswered(query, "the text of books:11 is no longer in the cache"))
        guard case let .reader(reader) = state.visible else { return XCTFail() }
        XCTAssertEqual(reader.status, .failed("the text of books:11 is no longer in the cache"))
        XCTAssertEqual(BrowseModel.queries(state), [], "a failed reader reads nothing more")
    }
}
