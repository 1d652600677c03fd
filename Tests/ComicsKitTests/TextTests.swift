import ComicsKit
import XCTest

final class TerminalTextTests: XCTestCase {
    func testEscapeSequencesAreRemovedWhole() {
        XCTAssertEqual(TerminalText.sanitize("a\u{1B}[31;1mred\u{1B}[0m b"), "ared b")
        XCTAssertEqual(TerminalText.sanitize("x\u{1B}]0;title\u{07}y"), "xy", "OSC ended by BEL")
        XCTAssertEqual(TerminalText.sanitize("x\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\y"), "xlinky", "OSC 8 hyperlink")
        XCTAssertEqual(TerminalText.sanitize("x\u{1B}P1;2q#sixel\u{1B}\\y"), "xy", "DCS")
        XCTAssertEqual(TerminalText.sanitize("x\u{9B}2Jy"), "xy", "8-bit CSI")
        XCTAssertEqual(TerminalText.sanitize("x\u{9D}title\u{9C}y"), "xy", "8-bit OSC and ST")
        XCTAssertEqual(TerminalText.sanitize("x\u{1B}cy"), "xy", "two-character escape")
    }

    func testControlsAndBidiOverridesAreRemoved() {
        XCTAssertEqual(TerminalText.sanitize("a\u{00}b\u{07}c\u{08}d\u{7F}e\u{85}f"), "abcdef")
        XCTAssertEqual(TerminalText.sanitize("file\u{202E}gnp.exe\u{2066}\u{200F}\u{061C}"), "filegnp.exe")
        XCTAssertEqual(TerminalText.sanitize("a\r\nb\tc"), "a\nb\tc", "CR goes; newline and tab stay")
        XCTAssertEqual(TerminalText.sanitize("a\r\nb\tc\nd\re", singleLine: true), "a b c d e")
    }

    func testOrdinaryTextIsUntouched() {
        let text = "Café — 日本語 😀 e\u{301}"
        XCTAssertEqual(TerminalText.sanitize(text), text)
    }

    func testSanitizingTwiceChangesNothingAndLeavesNoControls() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["\u{1B}", "[", "]", "\\", "\u{07}", "\u{9B}", "\u{9C}", "\u{9D}", "\u{202E}", "\r", "\n", "a", "1", ";", "m", "P", "\u{7F}", "é"]
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                text.append(alphabet.randomElement(using: &generator)!)
            }
            let once = TerminalText.sanitize(String(text))
            XCTAssertEqual(TerminalText.sanitize(once), once, "\(Array(String(text).unicodeScalars))")
            XCTAssertFalse(once.unicodeScalars.contains {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || TerminalText.isBidiControl($0)
            })
        }
    }
}

final class UpstreamTextTests: XCTestCase {
    func testHTMLEntities() {
        XCTAssertEqual(HTMLEntities.decode("Clich&eacute;d &amp; &lt;b&gt; &#8217;&#x41;"), "Clichéd & <b> ’A")
        XCTAssertEqual(HTMLEntities.decode("AT&T &unknown; &#0; & ;"), "AT&T &unknown; &#0; & ;")
    }

    func testMojibakeIsRepairedOnlyWhenItIsMojibake() {
        XCTAssertEqual(Mojibake.repair("CafÃ©"), "Café")
        XCTAssertEqual(Mojibake.repair("itâ€™s"), "it’s", "Windows-1252 punctuation")
        XCTAssertEqual(Mojibake.repair("Café"), "Café", "real Latin-1 text is not valid UTF-8 as bytes")
        XCTAssertEqual(Mojibake.repair("日本"), "日本")
        XCTAssertEqual(Mojibake.repair("plain"), "plain")
    }
}
