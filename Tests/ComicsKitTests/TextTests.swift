@testable import ComicsKit
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

    func testAStrayControlCostsOnlyItself() {
        XCTAssertEqual(TerminalText.sanitize("Dt X Au \u{98} 100,000\nWp (7,000,000,000)"), "Dt X Au  100,000\nWp (7,000,000,000)",
                       "SOS with no terminator (xkcd 718)")
        XCTAssertEqual(TerminalText.sanitize("label \"\u{E2}\u{86}\u{90} to center of sun\""), "label \"\u{E2} to center of sun\"",
                       "DCS with no terminator (xkcd 730)")
        XCTAssertEqual(TerminalText.sanitize("a\u{9D}title\nb\u{07}c"), "atitle\nbc", "a line break ends no control string")
        XCTAssertEqual(TerminalText.sanitize("a\u{1B}[31"), "a[31", "CSI with no final byte")
        XCTAssertEqual(TerminalText.sanitize("a\u{1B}é\u{1B}"), "aé", "ESC before no escape")
        XCTAssertEqual(TerminalText.sanitize("a\u{9B}\u{9B}2Jb"), "ab", "a stray CSI, then a complete one")
    }

    /// Printable text with single controls put anywhere (none of them a
    /// terminator, an ESC or a CSI, which would complete a sequence) comes
    /// out as the printable text alone: nothing after a control is lost.
    func testNoPrintableTextIsLostAroundStrayControls() {
        var generator = SystemRandomNumberGenerator()
        let controls = (Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F)).filter { ![0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x9B, 0x9C].contains($0) }
        for _ in 0..<3000 {
            let printable = RandomText.make(using: &generator, maximumLength: 40).unicodeScalars.filter {
                $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && !TerminalText.isBidiControl($0) && $0.value != 0x2028 && $0.value != 0x2029
            }
            var text = String.UnicodeScalarView(printable)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &generator))
                text.insert(Unicode.Scalar(UInt32(controls.randomElement(using: &generator)!))!, at: position)
            }
            XCTAssertEqual(TerminalText.sanitize(String(text)), String(String.UnicodeScalarView(printable)),
                           "\(String(text).unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    func testEveryOneOfManyUnterminatedIntroducersCostsOnlyItself() {
        let text = String(repeating: "\u{9D}ab\u{1B}[1;", count: 50_000)
        XCTAssertEqual(TerminalText.sanitize(text), String(repeating: "ab[1;", count: 50_000))
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

    /// The check of a text's bytes finds work exactly where one of its
    /// scalars is a control, a separator or a bidi control: every scalar
    /// of the planes that hold them, alone, amid others and at each place
    /// among printable ASCII.
    func testTheByteCheckFindsEveryScalarThatNeedsWork() {
        func needsWork(_ scalar: Unicode.Scalar, singleLine: Bool) -> Bool {
            (scalar.value < 0x20 && (singleLine || (scalar != "\n" && scalar != "\t"))) || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029 || TerminalText.isBidiControl(scalar)
        }
        let scalars = (0..<0x3000).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0x1F600)!, Unicode.Scalar(0xFEFF)!]
        for scalar in scalars {
            for singleLine in [false, true] {
                // Eight bytes at a time are skipped when all are printable
                // ASCII: the scalar at each place in such a word.
                let amidASCII = (0...8).map { String(repeating: "x", count: $0) + String(scalar) + String(repeating: "y", count: 17) }
                for text in [String(scalar), "a\(scalar)b", "“\(scalar)”"] + amidASCII {
                    XCTAssertEqual(TerminalText.mayNeedWork(text, singleLine: singleLine), needsWork(scalar, singleLine: singleLine),
                                   "U+\(String(scalar.value, radix: 16)) singleLine \(singleLine)")
                }
            }
        }
    }
}

final class UpstreamTextTests: XCTestCase {
    /// Floods of scalars that make one character (combining marks, ZWJs)
    /// are cut by scalars, and bytes follow.
    func testCapsCountScalarsNotCharacters() {
        let flood = "a" + String(repeating: "\u{301}", count: 3_500_000)
        XCTAssertEqual(flood.count, 1)
        let title = UpstreamText.capped(flood, UpstreamText.titleLimit)
        XCTAssertEqual(title.unicodeScalars.count, UpstreamText.titleLimit)
        XCTAssertTrue(title.unicodeScalars.starts(with: "a\u{301}\u{301}".unicodeScalars) && title.hasSuffix("…"))
        let joiners = String(repeating: "\u{1F469}\u{200D}", count: 1_300_000)
        let alt = UpstreamText.capped(joiners, UpstreamText.textLimit)
        XCTAssertLessThanOrEqual(alt.unicodeScalars.count, UpstreamText.textLimit)
        XCTAssertLessThanOrEqual(alt.utf8.count, 4 * UpstreamText.textLimit)
    }

    /// For any text: at most `limit` scalars, the original's scalars in
    /// order, "…" when cut, and the cut between characters whenever the
    /// first character fits.
    func testACapKeepsAWholeCharacterPrefix() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = RandomText.make(using: &generator, maximumLength: 60)
                + String(repeating: "\u{301}", count: Int.random(in: 0...30, using: &generator))
            let limit = Int.random(in: 1...40, using: &generator)
            let capped = UpstreamText.capped(text, limit)
            XCTAssertLessThanOrEqual(capped.unicodeScalars.count, max(limit, 1), text.debugDescription)
            guard capped != text else { continue }
            XCTAssertEqual(capped.unicodeScalars.last, "…", "ends with …, scalar-wise: a prepended mark before it makes one character with it")
            let kept = String(capped.unicodeScalars.dropLast())
            XCTAssertTrue(text.unicodeScalars.starts(with: kept.unicodeScalars), text.debugDescription)
            if let first = text.first, first.unicodeScalars.count <= limit - 1 {
                // Character-wise: a prefix cut inside a character is none.
                XCTAssertTrue(text.hasPrefix(kept), "cut between characters: \(text.debugDescription)")
            }
        }
    }

    func testHTMLEntities() {
        XCTAssertEqual(HTMLEntities.decode("Clich&eacute;d &amp; &lt;b&gt; &#8217;&#x41;"), "Clichéd & <b> ’A")
        XCTAssertEqual(HTMLEntities.decode("AT&T &unknown; &#0; & ;"), "AT&T &unknown; &#0; & ;")
    }

    func testTagsAreRemovedAndAnglesThatOpenNoTagStay() {
        XCTAssertEqual(HTMLMarkup.removingTags("<span style=\"color: #0000ED\">House</span> of Pancakes"), "House of Pancakes")
        XCTAssertEqual(HTMLMarkup.removingTags("a<br/>b <!-- note -->c<?php x ?>"), "a b c")
        XCTAssertEqual(HTMLMarkup.removingTags("a < b > c, <3, x<y, 1 <= 2"), "a < b > c, <3, x<y, 1 <= 2")
        XCTAssertEqual(HTMLMarkup.removingTags("unclosed <b and &lt;i&gt;"), "unclosed <b and &lt;i&gt;")
    }

    /// Whatever tags surround and split the words, none is left, and the
    /// words are all there in order.
    func testNoTagSurvivesAnyPlacement() {
        var generator = SystemRandomNumberGenerator()
        let tags = ["<b>", "</b>", "<span style=\"color: #0000ED\">", "</span>", "<a href='x'>", "<i class=\"a>b\"", "<!-- c -->", "<BR>", "<p>"]
        let words = ["House", "of", "Pancakes", "<3", "a<b", "é", "&amp;"]
        for _ in 0..<2000 {
            var pieces: [String] = []
            var kept: [String] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                if Bool.random(using: &generator) {
                    pieces.append(tags.randomElement(using: &generator)!)
                } else {
                    let word = words.randomElement(using: &generator)!
                    pieces.append(word)
                    kept.append(word)
                }
            }
            let text = pieces.joined(separator: Bool.random(using: &generator) ? " " : "")
            let plain = HTMLMarkup.removingTags(text)
            XCTAssertNil(plain.firstRange(of: /<\/?[A-Za-z][^<>]*>|<!--/), "\(text) → \(plain)")
            var rest = plain[...]
            for word in kept {
                guard let found = rest.firstRange(of: word) else { return XCTFail("\(word) lost from \(text) → \(plain)") }
                rest = rest[found.upperBound...]
            }
        }
    }

    func testMojibakeRunsAreRepairedOneByOne() {
        XCTAssertEqual(Mojibake.repair("CafÃ©"), "Café")
        XCTAssertEqual(Mojibake.repair("itâ€™s"), "it’s", "Windows-1252 punctuation")
        XCTAssertEqual(Mojibake.repair("Witnesses \u{E2}\u{86}\u{92} these dudes, Pok\u{E9}dex"), "Witnesses → these dudes, Pokédex",
                       "C1 controls in the middle, beside correct Latin-1 text")
        XCTAssertEqual(Mojibake.repair("120\u{CE}\u{A9} \u{CF}\u{80} \u{E2}\u{88}\u{9A}2V \u{CE}\u{BC}m"), "120Ω π √2V μm")
        XCTAssertEqual(Mojibake.repair("ðŸ˜€ and \u{F0}\u{9F}\u{98}\u{80}"), "😀 and 😀", "four bytes, either reading")
    }

    func testCorrectTextIsLeftAlone() {
        for text in ["Café", "Ãx", "Ã", "São Paulo", "résumé — naïve", "日本", "plain", "\u{EB}", "â€"] {
            XCTAssertEqual(Mojibake.repair(text), text, text.debugDescription)
        }
    }

    /// Bytes that form no valid UTF-8 sequence are not one character: each
    /// C1 control among them is read as Windows-1252 on its own.
    func testInvalidSequencesAreNotJoined() {
        XCTAssertEqual(Mojibake.repair("\u{E0}\u{80}\u{80} overlong"), "à€€ overlong")
        XCTAssertEqual(Mojibake.repair("\u{ED}\u{A0}\u{80} surrogate"), "í\u{A0}€ surrogate")
        XCTAssertEqual(Mojibake.repair("\u{F4}\u{90}\u{80}\u{80} too large"), "ô€€ too large")
    }

    func testALoneC1ControlIsTheWindows1252CharacterItStandsFor() {
        XCTAssertEqual(Mojibake.repair("Hey\u{97}a tip"), "Hey—a tip")
        XCTAssertEqual(Mojibake.repair("a little\u{85} unhinged"), "a little… unhinged", "NEL is an ellipsis, not a line break")
        XCTAssertEqual(Mojibake.repair("\u{95}international standard"), "•international standard")
        XCTAssertEqual(Mojibake.repair("One®\u{99}"), "One®™")
        XCTAssertEqual(Mojibake.repair("Au \u{98} 100,000"), "Au ˜ 100,000")
        XCTAssertEqual(Mojibake.repair("a\u{81}b\u{8D}c\u{8F}d\u{90}e\u{9D}f"), "abcdef", "undefined in Windows-1252")
        XCTAssertEqual(Mojibake.repair("Witnesses \u{E2}\u{86}\u{92} x \u{96} y"), "Witnesses → x – y", "runs first, then lone controls")
    }

    /// For any text, its mojibake (each byte of its UTF-8 read back as
    /// Latin-1 or Windows-1252, chosen at random byte by byte) repairs to
    /// it, with any C1 control it held read as Windows-1252; text no
    /// mis-decoding could have produced keeps every other scalar; and no
    /// repaired text holds a C1 control.
    func testRepairUndoesMojibakeOfAnyTextAndKeepsCorrectText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let text = RandomText.make(using: &generator)
            let repaired = Mojibake.repair(RandomText.mojibake(text, using: &generator))
            XCTAssertEqual(repaired, RandomText.readingC1AsWindows1252(text), text.debugDescription)
            let correct = RandomText.withoutMojibakePairs(text)
            XCTAssertEqual(Mojibake.repair(correct), RandomText.readingC1AsWindows1252(correct), correct.debugDescription)
            XCTAssertFalse(repaired.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, repaired.debugDescription)
        }
    }
}

/// Random Unicode text for property tests, drawn from pools that reach
/// every kind of scalar the rules care about.
enum RandomText {
    private static let pools: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x0A...0x0A, 0x80...0x9F, 0xA0...0xFF, 0x100...0x24F, 0x370...0x3FF, 0x400...0x4FF,
        0x590...0x6FF, 0x7C0...0x7FF, 0x2000...0x206F, 0x2190...0x22FF, 0x3040...0x30FF, 0x4E00...0x9FFF,
        0xFE00...0xFE0F, 0x1F300...0x1FAFF, 0x10000...0x10FFFD,
    ]

    static func make(using generator: inout SystemRandomNumberGenerator, maximumLength: Int = 24) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maximumLength, using: &generator) {
            let pool = Bool.random(using: &generator) ? pools[0] : pools.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &generator)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// The text's UTF-8 read back byte by byte as Latin-1 or Windows-1252.
    static func mojibake(_ text: String, using generator: inout SystemRandomNumberGenerator) -> String {
        let windows1252 = Dictionary(uniqueKeysWithValues: Mojibake.windows1252.map { ($1, $0) })
        var scalars = String.UnicodeScalarView()
        for byte in text.utf8 {
            let latin1 = Unicode.Scalar(byte)
            scalars.append(Bool.random(using: &generator) ? windows1252[byte] ?? latin1 : latin1)
        }
        return String(scalars)
    }

    /// Each C1 control of the text as the Windows-1252 character of its
    /// byte, or nothing for the five bytes Windows-1252 leaves undefined.
    static func readingC1AsWindows1252(_ text: String) -> String {
        let windows1252 = Dictionary(uniqueKeysWithValues: Mojibake.windows1252.map { ($1, $0) })
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard (0x80...0x9F).contains(scalar.value) else {
                scalars.append(scalar)
                continue
            }
            if let character = windows1252[UInt8(scalar.value)] { scalars.append(character) }
        }
        return String(scalars)
    }

    /// The text with every pair mis-decoding could have made broken up: no
    /// scalar from U+00C2 to U+00F4 (a lead byte read as Latin-1) is
    /// followed by U+0080–U+00BF or a Windows-1252 punctuation mark (a
    /// continuation byte).
    static func withoutMojibakePairs(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let continues = (0x80...0xBF).contains(scalar.value) || Mojibake.windows1252[scalar] != nil
            if continues, let last = scalars.last, (0xC2...0xF4).contains(last.value) { scalars.append("x") }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

/// The byte-level fast paths the text rules read whole books with agree
/// with the plain definitions, on generated inputs.
final class ByteScanTests: XCTestCase {
    func testLineBreaksBecomeLineFeedsAsOneByOneWould() {
        func oneByOne(_ bytes: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0D {
                    result.append(0x0A)
                    if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                } else {
                    result.append(bytes[index])
                }
                index += 1
            }
            return result
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x0D, 0x0A, 0x61, 0xC3, 0xA9, 0x20]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            XCTAssertEqual(TextDecoding.unifyingLineBreaks(bytes), oneByOne(bytes), "\(bytes)")
        }
    }

    func testScalarCountsAndByteSearchesAgreeWithTheStringViews() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", " ", "\t", "é", "e\u{301}", "“", "😀", "\u{7F}", "ß"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(ByteScan.scalarCount(of: text), text.unicodeScalars.count, text)
            let cut = Int.random(in: 0...text.utf8.count, using: &generator)
            let tail = Substring(text).utf8.dropFirst(cut)
            let substring = Substring(tail)
            XCTAssertEqual(ByteScan.contains(0x09, in: substring), substring.utf8.contains(0x09), text)
        }
    }
}

final class ParallelMapTests: XCTestCase {
    /// Shared by the cores or not, each element lands in its own place.
    func testAParallelMapIsTheMapInOrder() {
        for count in [0, 1, 1_023, 1_024, 1_025, 4_099] {
            let numbers = Array(0..<count)
            XCTAssertEqual(numbers.parallelMap { $0 * 3 + 1 }, numbers.map { $0 * 3 + 1 }, "\(count)")
        }
    }
}
