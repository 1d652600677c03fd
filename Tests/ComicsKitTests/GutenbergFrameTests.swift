import ComicsKit
import XCTest

/// A property over generated texts: whatever header and footer Project
/// Gutenberg wrapped a body in, and whichever encoding and line breaks it
/// was saved with, the body comes back the same.
final class GutenbergFrameTests: XCTestCase {
    static let headersCount = 7

    static func header(_ index: Int, _ title: String) -> String {
        let upper = title.uppercased()
        switch index {
        case 0: return "The Project Gutenberg eBook of \(title)\n\nThis ebook is for the use of anyone anywhere in the United States.\n\nTitle: \(title)\nCharacter set encoding: UTF-8\n\n*** START OF THE PROJECT GUTENBERG EBOOK \(upper) ***\n\n"
        case 1: return "Project Gutenberg's \(title)\n\n*** START OF THIS PROJECT GUTENBERG EBOOK \(upper) ***\n\nProduced by Somebody and the Online Distributed\nProofreading Team\n\n\n"
        case 2: return "***START OF THE PROJECT GUTENBERG EBOOK \(upper)***\n"
        case 3: return "*** START OF THE PROJECT GUTENBERG EBOOK, \(upper) ***\n\nE-text prepared by A. Reader\n\n"
        case 5: return "*** START OF THE PROJECT GUTENBERG EBOOK LES\nMISÉRABLES, \(upper) ***\n\nWe thank the Bibliothèque nationale de France that has made\navailable the image files.\n\nAn HTML version of this book is also available.\n\n"
        case 4: return "The Project Gutenberg Etext of \(title)\n\n***START**THE SMALL PRINT!**FOR PUBLIC DOMAIN ETEXTS**START***\nWhy is this \"Small Print!\" statement here? You know: lawyers.\n*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*\n\n"
        default: return ""
        }
    }

    static let footersCount = 8

    static func footer(_ index: Int, _ title: String) -> String {
        let upper = title.uppercased()
        switch index {
        case 0: return "\n\n*** END OF THE PROJECT GUTENBERG EBOOK \(upper) ***\n\nSection 1. General Terms of Use and Redistributing Project Gutenberg-tm\n"
        case 1: return "\n\nEnd of the Project Gutenberg EBook of \(title), by Some Author\n\n*** END OF THIS PROJECT GUTENBERG EBOOK \(upper) ***\n\n***** This file should be named 1.txt *****\n"
        case 2: return "\n\n            *** END OF THE PROJECT GUTENBERG EBOOK \(upper) ***\n"
        case 3: return "\n\n***END OF THE PROJECT GUTENBERG EBOOK \(upper)***\n"
        case 4: return "\n\nEnd of Project Gutenberg's Etext of \(title)\n"
        case 5: return "\n\nEnd of the Project Gutenberg EBook of A Title So Long\nThat Its Line Wraps, by Someone\n"
        case 6: return "\n\n*** END OF THE PROJECT GUTENBERG EBOOK ***\n\n***START**THE SMALL PRINT!**FOR PUBLIC DOMAIN ETEXTS**START***\nsmall print\n"
        default: return "\n"
        }
    }

    enum Saving: CaseIterable { case utf8, utf8WithBOM, crlf, latin1 }

    func testAnyBodyComesBackTheSameFromEveryFrameAndEncoding() {
        var generator = SplitMix(seed: 24)
        for round in 0..<30 {
            let latin1Only = round % 2 == 0
            let body = Self.body(&generator, latin1Only: latin1Only)
            let bare = GutenbergText.content(of: Array(body.utf8)).content
            XCTAssertFalse(bare.blocks.isEmpty)
            let title = "A Generated Book"
            for headerIndex in 0..<Self.headersCount {
                for footerIndex in 0..<Self.footersCount {
                    for saving in Saving.allCases where saving != .latin1 || latin1Only {
                        if headerIndex == Self.headersCount - 1 && footerIndex == Self.footersCount - 1 && saving == .utf8 { continue }
                        let file = Self.saved(Self.header(headerIndex, title) + body + Self.footer(footerIndex, title), as: saving)
                        let framed = GutenbergText.content(of: file).content
                        XCTAssertEqual(framed.blocks, bare.blocks, "round \(round), header \(headerIndex), footer \(footerIndex), \(saving)")
                        XCTAssertEqual(framed.sections, bare.sections, "round \(round), header \(headerIndex), footer \(footerIndex), \(saving)")
                    }
                }
            }
        }
    }

    static func saved(_ text: String, as saving: Saving) -> [UInt8] {
        switch saving {
        case .utf8: Array(text.utf8)
        case .utf8WithBOM: [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        case .crlf: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case .latin1: text.unicodeScalars.map { UInt8($0.value) }
        }
    }

    static let words = ["the", "whale", "sea", "Natasha", "said", "garden", "and", "of", "a", "letter", "morning", "end",
                        "start", "small", "print", "café", "naïve", "Ærø", "über", "señor", "wrote", "house", "light"]
    static let wide = ["—", "“quoted”", "it’s", "東京", "œuvre"]

    static func body(_ generator: inout SplitMix, latin1Only: Bool) -> String {
        let vocabulary = latin1Only ? words : words + wide
        func sentence(_ count: Int) -> String {
            var words = (0..<count).map { _ in vocabulary[generator.next(vocabulary.count)] }
            words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
            return words.joined(separator: " ") + "."
        }
        var paragraphs: [String] = []
        var chapter = 0
        for _ in 0..<(3 + generator.next(12)) {
            switch generator.next(6) {
            case 0:
                chapter += 1
                paragraphs.append("CHAPTER \(chapter)")
            case 1:
                paragraphs.append((0..<(2 + generator.next(4))).map { index in
                    (index % 2 == 1 ? "  " : "") + sentence(3 + generator.next(4))
                }.joined(separator: "\n"))
            default:
                let text = (0..<(1 + generator.next(5))).map { _ in sentence(4 + generator.next(12)) }.joined(separator: " ")
                paragraphs.append(wrapped(text, at: 70))
            }
        }
        return paragraphs.joined(separator: "\n\n")
    }

    static func wrapped(_ text: String, at width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " \(word)"
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

/// A small seeded generator, so a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
