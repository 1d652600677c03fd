import ComicsKit
import TestSupport
import XCTest

final class XKCDComicDecoderTests: XCTestCase {
    func testEveryFixtureDecodes() throws {
        for number in 1...200 {
            let item = try XKCDComicDecoder.decode(try Fixtures.xkcd(number))
            XCTAssertEqual(item.ref, ItemRef(source: .xkcd, id: number))
            XCTAssertFalse(item.title.isEmpty)
            XCTAssertEqual(item.url, "https://xkcd.com/\(number)/")
        }
    }

    func testFieldsOfARealComic() throws {
        let item = try XKCDComicDecoder.decode(try Fixtures.xkcd(nil))
        XCTAssertEqual(item.title, "Bill Nye")
        XCTAssertEqual(item["date"], .string("2006-12-22"))
        XCTAssertEqual(item["alt"], .string("You could at least not wear the lab coat everywhere, dude."))
        XCTAssertEqual(item["image_url"], .string("https://imgs.xkcd.com/comics/bill_nye.png"))
        XCTAssertEqual(item["interactive"], .bool(false))
        XCTAssertEqual(item.attributes.map(\.key), ["date", "alt", "transcript", "image_url", "link", "interactive"])
    }

    func testArchiveQuirks() throws {
        let document = #"""
            {"month": 4, "num": 1608, "link": "", "year": "2016", "news": "", "safe_title": "Hoverboard",
             "transcript": "", "alt": "Cl&eacute;ver", "img": "https://imgs.xkcd.com/comics/",
             "title": "Caf\u00c3\u00a9 &amp; Co", "day": "1", "extra_parts": {"pre": "", "headerextra": ""}}
            """#
        let item = try XKCDComicDecoder.decode(Array(document.utf8))
        XCTAssertEqual(item.title, "Café & Co")
        XCTAssertEqual(item["alt"], .string("Cléver"))
        XCTAssertEqual(item["transcript"], .string(""))
        XCTAssertEqual(item["image_url"], .null, "an img with no file name is no image")
        XCTAssertEqual(item["interactive"], .bool(true))
        XCTAssertEqual(item["date"], .string("2016-04-01"), "numbers as strings or integers")
    }

    func testBrokenDocumentsAreTypedErrors() {
        let bad = [
            "", "<!doctype html>", #"{"num": "x"}"#, #"[1, 2]"#, #"{"title": "no number"}"#,
            #"{"num": 5, "title": "trunc"#, #"{"num": -1}"#,
        ]
        for text in bad {
            XCTAssertThrowsError(try XKCDComicDecoder.decode(Array(text.utf8)), text) { error in
                XCTAssertTrue(error is DocumentError)
            }
        }
    }

    func testMissingTitleFallsBackToSafeTitleThenNumber() throws {
        XCTAssertEqual(try XKCDComicDecoder.decode(Array(#"{"num": 9, "title": "", "safe_title": "Safe"}"#.utf8)).title, "Safe")
        XCTAssertEqual(try XKCDComicDecoder.decode(Array(#"{"num": 9}"#.utf8)).title, "#9")
    }
}
