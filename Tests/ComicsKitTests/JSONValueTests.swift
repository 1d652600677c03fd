import ComicsKit
import XCTest

final class JSONValueTests: XCTestCase {
    func testParsingKeepsMemberOrderAndTypes() throws {
        let value = try JSONValue.parse(#"{"z": 1, "a": [true, null, 2.5, "x"], "m": {"k": -3}}"#)
        guard case let .object(members) = value else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.0), ["z", "a", "m"])
        XCTAssertEqual(value["a"], .array([.bool(true), .null, .double(2.5), .string("x")]))
        XCTAssertEqual(value["m"]?["k"], .int(-3))
    }

    func testEscapesAndSurrogatePairs() throws {
        XCTAssertEqual(try JSONValue.parse(#""a\"b\\c\n\u00e9\ud83d\ude00\u001b""#), .string("a\"b\\c\né😀\u{1B}"))
        XCTAssertEqual(try JSONValue.parse(#""\ud800x""#), .string("\u{FFFD}x"), "a lone surrogate is replaced")
    }

    func testSerializingRoundTripsAndEscapesControls() throws {
        let value = JSONValue.object([("t", .string("a\u{1B}[31m\u{202E}\"\n")), ("n", .array([.int(1), .null, .bool(false)]))])
        let text = value.serialized
        XCTAssertEqual(text, #"{"t":"a\u001b[31m\u202e\"\n","n":[1,null,false]}"#)
        XCTAssertEqual(try JSONValue.parse(text), value)
        XCTAssertEqual(try JSONValue.parse(value.prettySerialized), value)
    }

    func testMalformedDocumentsAreRefused() {
        let bad: [[UInt8]] = [
            Array(#"{"a": 1"#.utf8), Array(#"{"a" 1}"#.utf8), Array("[1,]".utf8), Array("tru".utf8),
            Array(#""unterminated"#.utf8), Array("<html></html>".utf8), Array("{} extra".utf8),
            [0x22, 0xFF, 0xFE, 0x22], Array("\"a\u{01}b\"".utf8), Array("01x".utf8), [],
        ]
        for bytes in bad {
            XCTAssertThrowsError(try JSONValue.parse(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    func testDeepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONValue.parse(deep)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "nesting too deep")
        }
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        XCTAssertNoThrow(try JSONValue.parse(fine))
    }
}
