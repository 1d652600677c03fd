@testable import ComicsKit
import XCTest

/// Footnote marks in a paragraph, and which note answers one.
final class NoteMarksTests: XCTestCase {
    func testMarksAreNumbersAsterisksOrACapitalAndNothingElseInBrackets() {
        let text = "Pangloss[1] et [*] puis [A], mais [Illustration], [sic], [1234], [], [a] ni [12"
        XCTAssertEqual(NoteMarks.marks(in: text).map(\.label), ["1", "*", "A"])
        let bytes = Array(text.utf8)
        XCTAssertEqual(NoteMarks.marks(in: text).map { String(decoding: bytes[$0.range], as: UTF8.self) }, ["[1]", "[*]", "[A]"])
    }

    func testEveryMarkIsItsBracketedLabelForAnyText() {
        let pieces = ["[", "]", "1", "22", "*", "A", "a", " ", "é", "[1]", "[[", "]]", "\u{1B}", "Illustration"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12)).map { _ in pieces.randomElement()! }.joined()
            let bytes = Array(text.utf8)
            var end = 0
            for mark in NoteMarks.marks(in: text) {
                XCTAssertEqual(String(decoding: bytes[mark.range], as: UTF8.self), "[\(mark.label)]", text)
                XCTAssertGreaterThanOrEqual(mark.range.lowerBound, end, "marks do not overlap: \(text)")
                end = mark.range.upperBound
            }
        }
    }

    func testANoteAnswersItsLabelAsPlainTextsWriteIt() {
        XCTAssertTrue(NoteMarks.note("[1] De _pan_, tout", answers: "1"))
        XCTAssertTrue(NoteMarks.note("[Footnote 12: A note.]", answers: "12"))
        XCTAssertTrue(NoteMarks.note("  [*] Starred.", answers: "*"))
        XCTAssertFalse(NoteMarks.note("[12] Another.", answers: "1"))
        XCTAssertFalse(NoteMarks.note("[Footnote 12: A note.]", answers: "1"))
    }
}

/// The sentence `comics notes` quotes of a paragraph.
final class FirstSentenceTests: XCTestCase {
    func testAbbreviationsDoNotEndTheSentence() {
        XCTAssertEqual(Catalog.firstSentence(of: "MR. BENNET was among the earliest of those. He had always intended"),
                       "MR. BENNET was among the earliest of those.")
        XCTAssertEqual(Catalog.firstSentence(of: "Il y avait, dans le château de M. le baron, un garçon. Sa physionomie"),
                       "Il y avait, dans le château de M. le baron, un garçon.")
        XCTAssertEqual(Catalog.firstSentence(of: "“Is it so?” she asked. “Yes.”"), "“Is it so?” she asked.")
        XCTAssertEqual(Catalog.firstSentence(of: "No end at all"), "No end at all")
    }

    func testTheSentenceIsTheParagraphsOpeningAndBounded() {
        let pieces = ["Mr.", "word", "end.", "Start", "?", "!", " ", "\n", "“Q", "é", "M."]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...400)).map { _ in pieces.randomElement()! }.joined(separator: " ")
            let sentence = Catalog.firstSentence(of: text)
            let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertLessThanOrEqual(sentence.count, 300)
            XCTAssertTrue(flat.hasPrefix(sentence.hasSuffix("…") ? String(sentence.dropLast()) : sentence), text)
        }
    }
}
