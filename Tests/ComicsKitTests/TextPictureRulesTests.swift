@testable import ComicsKit
import XCTest

/// Which of an edition's pictures are asked for: a property over
/// generated links, hostile ones among them.
final class TextPictureRulesTests: XCTestCase {
    private let base = "https://www.gutenberg.org/cache/epub/1342/pg1342-images.html"

    func testPicturesBesideTheEditionAreAskedForAndNothingElse() {
        let planned = TextPictureRules.plan(
            links: ["images/i_001.jpg", "images/i_001.jpg", "../1342/images/cover.jpg", "http://evil.example/x.png",
                    "//www.gutenberg.org:8080/x.png", "https://user:pw@www.gutenberg.org/x.png", "javascript:alert(1)", "", "images/a b.png"],
            base: base)
        XCTAssertEqual(planned.map(\.path).count, 8, "each link once")
        XCTAssertEqual(planned.filter { $0.state == .wanted(failure: nil) }.map(\.url), [
            "https://www.gutenberg.org/cache/epub/1342/images/i_001.jpg", "https://www.gutenberg.org/cache/epub/1342/images/cover.jpg",
        ])
    }

    func testEveryPlannedAddressIsOnTheEditionsOriginForAnyLinks() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["images/", "../", "/", "//", "http:", "https:", "evil.example", "www.gutenberg.org", ":8080", "@", "#", "?", "%2e%2e/",
                      "\\", " ", "\u{0}", "\u{1B}[31m", "x.png", "é", "..", "."]
        for _ in 0..<2_000 {
            let links = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let planned = TextPictureRules.plan(links: links, base: base)
            XCTAssertEqual(planned.count, Set(links).count, "\(links)")
            for picture in planned where picture.state == .wanted(failure: nil) {
                XCTAssertEqual(URLOrigin(picture.url), URLOrigin(base), "\(links) → \(picture.url)")
                XCTAssertNil(URLComponents(string: picture.url)?.user, picture.url)
                XCTAssertFalse(picture.url.unicodeScalars.contains { $0.value < 0x21 }, picture.url)
            }
        }
    }

    func testABookKeepsNoMoreThanItsCountOfPictures() {
        let links = (0..<(TextPictureRules.maximumPictures + 20)).map { "images/\($0).png" }
        let planned = TextPictureRules.plan(links: links, base: base)
        XCTAssertEqual(planned.filter { $0.state == .wanted(failure: nil) }.count, TextPictureRules.maximumPictures)
        XCTAssertEqual(planned.last?.state, .skipped("past the \(TextPictureRules.maximumPictures) pictures a book keeps"))
    }
}
