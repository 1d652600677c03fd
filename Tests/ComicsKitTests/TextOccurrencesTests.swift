@testable import ComicsKit
import XCTest

/// comics finds and replaces text by bytes; the standard library's
/// string processing is the oracle wherever no match would cross a
/// grapheme boundary.
final class TextOccurrencesTests: XCTestCase {
    func testTheStandardLibrarysAnswersForGeneratedText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "ab", "ba", " ", "--", "—", "é", "日本", "\u{1B}[", "\"", "'", "%s", "\n", "\u{E000}"]
        func text(_ most: Int) -> String {
            (0..<Int.random(in: 0...most, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        for _ in 0..<5_000 {
            let haystack = text(12), needle = text(3), replacement = text(2)
            XCTAssertEqual(haystack.includes(needle), haystack.contains(needle), "\(haystack) / \(needle)")
            XCTAssertEqual(haystack.firstOccurrence(of: needle), haystack.firstRange(of: needle), "\(haystack) / \(needle)")
            let sub = haystack.dropFirst(min(2, haystack.count))
            XCTAssertEqual(sub.includes(needle), sub.contains(needle), "\(sub) / \(needle)")
            guard !needle.isEmpty else { continue }
            XCTAssertEqual(haystack.replacingEvery(needle, with: replacement), haystack.replacing(needle, with: replacement),
                           "\(haystack) / \(needle) / \(replacement)")
        }
    }

    func testBytesAreComparedNotCharacters() {
        XCTAssertTrue("cafe\u{301}".includes("e"), "a decomposed é holds an e")
        XCTAssertFalse("cafe\u{301}".contains("e"), "as a character it does not")
        XCTAssertEqual("it's".replacingEvery("'", with: "'\\''"), "it'\\''s")
        XCTAssertEqual("".firstOccurrence(of: ""), "".startIndex..<"".startIndex)
        XCTAssertFalse("abc".includes(""))
        XCTAssertNil("abc".firstOccurrence(of: "abcd"))
    }
}
