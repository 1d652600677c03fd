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
        for case let .passage(ref, blocks, column, pictureRows) in BrowseModel.queries(state) {
            _ = BrowseModel.handle(&state, .answered(.passage(ref, blocks: blocks, column: column, pictureRows: pictureRows), .passage(passage(blocks, column: column))))
        }
    }

    func testTheReaderDeclaresThePassageItNeedsAndNoMoreOnceItHasIt() throws {
        var state = reading()
        let first = BrowseModel.queries(state)
        XCTAssertEqual(first, [.passage(ref, blocks: 0..<60, column: 72, pictureRows: nil)])
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

    /// A paragraph longer than a page: each page of it teaches the speed,
    /// not only the page that leaves it (which would be credited with all
    /// the paragraph's words).
    func testPagesInsideALongParagraphTeachTheSpeed() throws {
        var state = reading()
        let tenWords = Array(repeating: "word", count: 10).joined(separator: " ")
        for case let .passage(ref, blocks, column, pictureRows) in BrowseModel.queries(state) {
            let lines = blocks.flatMap { block in (0..<30).map { ReaderLine(block: block, offset: $0 * 50, runs: [ReaderRun(text: tenWords)]) } }
            let answer = ReaderPassage(firstBlock: blocks.lowerBound, endBlock: blocks.upperBound, width: column, wordsBefore: blocks.map { $0 * 300 }, lines: lines)
            _ = BrowseModel.handle(&state, .answered(.passage(ref, blocks: blocks, column: column, pictureRows: pictureRows), .passage(answer)))
        }
        _ = BrowseModel.handle(&state, .time(start))
        _ = BrowseModel.handle(&state, .key(.character(" ")))
        guard case let .reader(first) = state.visible else { return XCTFail() }
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(20)))
        let second = BrowseModel.handle(&state, .key(.character(" ")))
        guard case let .reader(reader) = state.visible else { return XCTFail() }
        XCTAssertEqual(reader.top.block, 0, "both pages inside the first paragraph")
        guard case let .learnReadingSpeed(words, seconds)? = second.last else { return XCTFail("\(second)") }
        XCTAssertEqual(seconds, 20)
        XCTAssertGreaterThan(reader.topLine, first.topLine)
        XCTAssertEqual(words, 10 * (reader.topLine - first.topLine))
    }

    /// Words before a line, over generated passages: those before its
    /// block on the block's first line, never fewer on a later line, and
    /// a whole block's lines add up to the block's words.
    func testWordsBeforeALineGrowWithTheLinesAndMeetTheBlocks() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let first = Int.random(in: 0..<50, using: &generator)
            let lineWords = (0..<Int.random(in: 1..<8, using: &generator)).map { _ in (0..<Int.random(in: 1..<6, using: &generator)).map { _ in Int.random(in: 0..<12, using: &generator) } }
            var wordsBefore: [Int] = [], total = Int.random(in: 0..<1_000, using: &generator)
            var lines: [ReaderLine] = []
            for (offset, counts) in lineWords.enumerated() {
                wordsBefore.append(total)
                for (index, count) in counts.enumerated() {
                    let text = String(repeating: " ", count: index % 3) + (0..<count).map { "w\($0)" }.joined(separator: index.isMultiple(of: 2) ? " " : "  ")
                    lines.append(ReaderLine(block: first + offset, offset: index * 10, runs: [ReaderRun(text: text)]))
                }
                total += counts.reduce(0, +)
            }
            let passage = ReaderPassage(firstBlock: first, endBlock: first + lineWords.count, width: 40, wordsBefore: wordsBefore, lines: lines)
            var previous = -1
            for index in lines.indices {
                let words = try XCTUnwrap(passage.words(beforeLine: index))
                XCTAssertGreaterThanOrEqual(words, previous)
                if index == 0 || lines[index - 1].block != lines[index].block {
                    XCTAssertEqual(words, passage.words(before: lines[index].block))
                }
                previous = words
            }
            let last = lines.count - 1
            XCTAssertEqual(try XCTUnwrap(passage.words(beforeLine: last)) + lineWords.last!.last!, total)
            XCTAssertNil(passage.words(beforeLine: lines.count))
        }
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
