@testable import ComicsKit
import XCTest

/// Footnote marks in a paragraph, and which note answers one.
final class NoteMarksTests: XCTestCase {
    func testMarksAreNumbersSignsOrALetterAndNothingElseInBrackets() {
        let text = "Pangloss[1] et [*] puis [A], [a], [††], [‡3] [+] mais [Illustration], [sic], [1234], [], [*†], [†††††], [ab] ni [12"
        XCTAssertEqual(NoteMarks.marks(in: text).map(\.label), ["1", "*", "A", "a", "††", "‡3", "+"])
        let bytes = Array(text.utf8)
        XCTAssertEqual(NoteMarks.marks(in: text).map { String(decoding: bytes[$0.range], as: UTF8.self) },
                       ["[1]", "[*]", "[A]", "[a]", "[††]", "[‡3]", "[+]"])
    }

    func testEveryMarkIsItsBracketedLabelForAnyText() {
        let pieces = ["[", "]", "1", "22", "*", "A", "a", " ", "é", "†", "‡", "[1]", "[[", "]]", "\u{1B}", "Illustration"]
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
        XCTAssertTrue(NoteMarks.note("(+) Crossed.", answers: "+"))
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

/// An HTML edition's references to notes, written as marks.
final class HTMLMarkWritingTests: XCTestCase {
    private let open = String(HTMLBlocks.markOpen), close = String(HTMLBlocks.markClose)

    func testAMarkThatReachesANoteIsWrittenInBracketsAndAnyOtherAsItWas() {
        let text = "word\(open)12\(close) and [\(open)*\(close)] or (\(open)(+)\(close)) then (\(open)†\(close), p. 5) and \(open)7\(close)"
        XCTAssertEqual(HTMLBlocks.writingMarks(in: text, reachesNote: [true, true, true, true, false]),
                       "word[12] and [*] or [+] then ([†], p. 5) and 7")
        XCTAssertEqual(HTMLBlocks.writingMarks(in: text, reachesNote: []), "word12 and [*] or ((+)) then (†, p. 5) and 7")
    }

    /// Whatever the text and however its wrapping is broken, no wrapping
    /// is left, and a text none of whose marks reach a note keeps its words.
    func testNoWrappingIsLeftForAnyText() {
        let pieces = [open, close, "1", "*", "(", ")", "[", "]", " ", "word", "†", "é", "(+)", "ab"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...14)).map { _ in pieces.randomElement()! }.joined()
            let written = HTMLBlocks.writingMarks(in: text, reachesNote: (0..<6).map { _ in Bool.random() })
            XCTAssertFalse(written.unicodeScalars.contains { $0 == HTMLBlocks.markOpen || $0 == HTMLBlocks.markClose }, text)
            let unwrapped = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != HTMLBlocks.markOpen && $0 != HTMLBlocks.markClose }))
            XCTAssertEqual(HTMLBlocks.writingMarks(in: text, reachesNote: []), unwrapped, text)
        }
    }

    /// The edition's own noncharacters never read as a mark's wrapping.
    func testAnEditionsOwnWrappingCharactersAreTakenOut() {
        let html = "<html><body><h2>I.</h2><p>Text &#xFDD0;12&#xFDD1; here<a href=\"#fn1\">1</a> \(open)more\(close).</p><div class=\"footnote\"><p id=\"fn1\">1. A note.</p></div></body></html>"
        let blocks = GutenbergHTML.content(of: Array(html.utf8)).content.blocks
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Text") }?.text, "Text 12 here[1] more.")
    }
}
