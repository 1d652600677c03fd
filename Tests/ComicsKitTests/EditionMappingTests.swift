import XCTest

@testable import ComicsKit

/// A place saved against one edition of a text (where reading stopped, a
/// bookmark) found again in another: the paragraph that begins the same
/// way, nearest to as far in as it was; else as far in.
final class EditionMappingTests: XCTestCase {
    private func content(_ paragraphs: [String]) -> BookContent {
        BookContent(blocks: paragraphs.map { TextBlock(.prose, $0) }, sections: [])
    }

    private func words(_ count: Int, _ tag: String) -> String {
        (0..<count).map { "\(tag)\($0)" }.joined(separator: " ")
    }

    func testAParagraphStillWhereItWasStaysPut() {
        let text = content(["one two", "three four", "five six"])
        let place = TextPosition(block: 1, offset: 4)
        XCTAssertEqual(Catalog.found(place, anchor: "three four", percent: 33, in: text), place)
    }

    /// Any number of paragraphs added before or taken away: the marked
    /// paragraph, unique in the text, is found with its offset.
    func testAMovedParagraphIsFoundWhereverItWent() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let before = Int.random(in: 0..<30, using: &generator)
            let after = Int.random(in: 0..<30, using: &generator)
            let marked = "The marked paragraph \(round), which begins like no other."
            let old = (0..<before).map { words(5, "old\($0)x") } + [marked] + (0..<after).map { words(5, "tail\($0)x") }
            let added = Int.random(in: -min(before, 10)...40, using: &generator)
            let front = added >= 0
                ? (0..<added).map { words(3, "new\($0)x") } + old.prefix(before)
                : Array(old.prefix(before).dropFirst(-added))
            let edition = content(front + old.suffix(from: before))
            let place = Catalog.found(
                TextPosition(block: before, offset: 7), anchor: String(marked.prefix(60)),
                percent: Double(before) * 100 / Double(old.count), in: edition)
            XCTAssertEqual(edition.blocks[place.block].text, marked, "round \(round): \(before) before, \(added) added")
            XCTAssertEqual(place.offset, 7)
        }
    }

    /// Of paragraphs that begin alike, the one nearest to as far in.
    func testOfParagraphsAlikeTheNearestToAsFarInIsTaken() {
        let repeated = "Chorus: and the wind blew on."
        let paragraphs = (0..<100).map { $0 % 10 == 0 ? repeated : words(10, "w\($0)x") }
        let edition = content(["A new preface of ten words for the new edition here."] + paragraphs)
        let place = Catalog.found(TextPosition(block: 50), anchor: repeated, percent: 50, in: edition)
        XCTAssertEqual(place.block, 51, "the chorus half way in, not the first one")
    }

    /// A paragraph gone from the new edition: as far into the book, by words.
    func testAParagraphGoneLandsAsFarIntoTheBook() {
        let edition = content((0..<200).map { words(10, "p\($0)x") })
        for percent in [0.0, 12.5, 50, 99, 100] {
            let place = Catalog.found(TextPosition(block: 3, offset: 9), anchor: "Words no paragraph begins with", percent: percent, in: edition)
            XCTAssertEqual(Double(place.block), min(199, (percent * 2).rounded(.up)), accuracy: 1, "\(percent)%")
            XCTAssertEqual(place.offset, 0, "the offset meant another paragraph")
        }
    }
}
