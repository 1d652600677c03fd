@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `search` snippets (comics_snippet, in the CSQLite shim): a window of
/// twelve words around the best matches, every match in it marked, found
/// in time linear in the text however many times a word repeats.
final class SearchSnippetTests: XCTestCase {
    private var store: SQLiteCacheStore!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        store = try SQLiteCacheStore(path: ":memory:", now: now)
    }

    private func save(_ id: Int, title: String, alt: String) throws {
        let item = Item(ref: ItemRef(source: .xkcd, id: id), title: title, url: "https://xkcd.com/\(id)/",
                        attributes: [Attribute("alt", .string(alt))])
        try store.save([FetchedItem(item: item, validators: .none)], at: now)
    }

    private func snippet(_ query: String) throws -> String {
        try XCTUnwrap(store.search(query, source: nil, limit: 1).matches.first).snippet
            .replacingOccurrences(of: String(SearchMatch.start), with: "[")
            .replacingOccurrences(of: String(SearchMatch.end), with: "]")
    }

    func testTheWindowIsCentredOnTheMatchesAndCutWithEllipses() throws {
        try save(1, title: "Numbers", alt: (1...30).map { "w\($0)" }.joined(separator: " "))
        XCTAssertEqual(try snippet("w15"), "…w10 w11 w12 w13 w14 [w15] w16 w17 w18 w19 w20 w21…")
        XCTAssertEqual(try snippet("w2"), "w1 [w2] w3 w4 w5 w6 w7 w8 w9 w10 w11 w12…")
        XCTAssertEqual(try snippet("w29"), "…w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 [w29] w30")
        XCTAssertEqual(try snippet("w20 w24"), "…w17 w18 w19 [w20] w21 w22 w23 [w24] w25 w26 w27 w28…", "both phrases in one window")
        XCTAssertEqual(try snippet("numbers"), "", "the title, shown whole beside it, is never the snippet")
        XCTAssertEqual(try snippet("numbers w3"), "w1 w2 [w3] w4 w5 w6 w7 w8 w9 w10 w11 w12…", "a title match's snippet comes from the body")
    }

    func testTheWindowWithMostDistinctWordsWins() throws {
        let filler = { (count: Int) in Array(repeating: "x", count: count).joined(separator: " ") }
        try save(1, title: "T", alt: "apple \(filler(20)) apple \(filler(20)) apple pear \(filler(20))")
        let marked = try snippet("apple pear")
        XCTAssertTrue(marked.contains("[apple] [pear]"), marked)
    }

    /// A field that is one word 50,000 times: FTS5's snippet() scores every
    /// match against every other (minutes); this one is a window.
    func testAWordRepeatedThroughAWholeFieldGivesOneWindow() throws {
        let field = String(repeating: "ab ", count: UpstreamText.textLimit / 3)
        try save(1, title: "Repeated", alt: field)
        XCTAssertEqual(try snippet("ab"), Array(repeating: "[ab]", count: 12).joined(separator: " ") + "…")
    }

    /// For any text and any word of it: the snippet is at most twelve
    /// words of the text in order, every mark is around that word, and
    /// every occurrence of the word inside the window is marked.
    func testSnippetsAreWindowsOfTheTextWithEveryMatchMarked() throws {
        let vocabulary = ["cat", "dog", "bird", "fish", "cow", "ant"]
        var generator = SystemRandomNumberGenerator()
        for id in 1...300 {
            let words = (0..<Int.random(in: 1...200, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
            try save(id, title: "t\(id)", alt: words.joined(separator: " "))
            let word = words.randomElement(using: &generator)!
            let found = try XCTUnwrap(store.search("\(word) t\(id)", source: nil, limit: 5).matches.first { $0.ref.id == id })
            let marked = found.snippet
                .replacingOccurrences(of: String(SearchMatch.start), with: "[")
                .replacingOccurrences(of: String(SearchMatch.end), with: "]")
            let shown = marked.trimmingCharacters(in: CharacterSet(charactersIn: "…")).split(separator: " ").map(String.init)
            let plain = shown.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
            XCTAssertLessThanOrEqual(shown.count, 12, marked)
            if plain == ["t\(id)"] { continue }
            let text = words.joined(separator: " ")
            XCTAssertTrue(text.contains(plain.joined(separator: " ")), "\(marked) is not a window of \(text)")
            for (token, bare) in zip(shown, plain) {
                XCTAssertEqual(token == "[\(bare)]", bare == word, "\(word): \(marked)")
            }
        }
    }
}
