import ComicsKit
import TestSupport
import XCTest

/// Every fixture text, end to end through the rules: where the work
/// begins and ends, its outline, and nothing of the licence left.
final class GutenbergTextTests: XCTestCase {
    struct Expected {
        let file: String
        let encoding: TextDecoding.Encoding
        let firstWords: String
        let lastWords: String
        /// Sentences of the work that must survive (its first, its last).
        let sentences: [String]
        let sectionsByLevel: [Int: Int]
        let titles: [Int: String]
    }

    static let expected: [Expected] = [
        Expected(file: "pg1041.txt", encoding: .utf8, firstWords: "THE SONNETS", lastWords: "water cools not love.",
                 sentences: ["From fairest creatures we desire increase,"], sectionsByLevel: [0: 154], titles: [0: "I", 153: "CLIV"]),
        Expected(file: "pg11.txt", encoding: .utf8, firstWords: "ALICE’S ADVENTURES IN WONDERLAND", lastWords: "THE END",
                 sentences: ["Alice was beginning to get very tired", "remembering her own child-life, and the happy summer days."],
                 sectionsByLevel: [0: 12], titles: [0: "CHAPTER I. Down the Rabbit-Hole", 11: "CHAPTER XII. Alice’s Evidence"]),
        Expected(file: "pg1342.pandp10.txt", encoding: .utf8, firstWords: "Pride and Prejudice", lastWords: "the means of uniting them.",
                 sentences: ["It is a truth universally acknowledged, that a single man in possession of a large fortune must be in want of a wife."],
                 sectionsByLevel: [0: 61], titles: [0: "Chapter 1", 60: "CHAPTER 61"]),
        Expected(file: "pg1342.txt", encoding: .utf8, firstWords: "GEORGE ALLEN", lastWords: "CHANCERY LANE, LONDON.",
                 sentences: ["It is a truth universally acknowledged, that a single man in possession of a good fortune must be in want of a wife.",
                             "had been the means of uniting them."],
                 sectionsByLevel: [0: 61], titles: [0: "Chapter I.", 12: "CHAPTER XIII", 45: "Chapter XLVI.", 60: "CHAPTER LXI."]),
        Expected(file: "pg22367.txt", encoding: .windows1252, firstWords: "DIE VERWANDLUNG", lastWords: "ihren jungen Körper dehnte.",
                 sentences: ["Als Gregor Samsa eines Morgens aus unruhigen Träumen erwachte"], sectionsByLevel: [0: 3],
                 titles: [0: "I.", 1: "II.", 2: "III."]),
        Expected(file: "pg2600.txt", encoding: .utf8, firstWords: "WAR AND PEACE", lastWords: "of which we are not conscious.",
                 sentences: ["“Well, Prince, so Genoa and Lucca are now just family estates of the Buonapartes."],
                 sectionsByLevel: [0: 17, 1: 365], titles: [0: "BOOK ONE: 1805", 1: "CHAPTER I", 381: "CHAPTER XII"]),
        Expected(file: "pg2701.txt", encoding: .utf8, firstWords: "MOBY-DICK;", lastWords: "only found another orphan.",
                 sentences: ["Call me Ishmael."], sectionsByLevel: [0: 138],
                 titles: [0: "ETYMOLOGY.", 1: "EXTRACTS. (Supplied by a Sub-Sub-Librarian).", 2: "CHAPTER 1. Loomings.", 137: "Epilogue"]),
        Expected(file: "pg4650.txt", encoding: .utf8, firstWords: "OEUVRES DE VOLTAIRE. TOME XXXIII", lastWords: "FIN DE CANDIDE.",
                 sentences: ["Il y avait en Vestphalie, dans le château de M. le baron de Thunder-ten-tronckh"],
                 sectionsByLevel: [0: 30],
                 titles: [0: "CHAPITRE I. Comment Candide fut élevé dans un beau château, et comment il fut chassé d'icelui.",
                          29: "CHAPITRE XXX. Conclusion."]),
        Expected(file: "pg844.txt", encoding: .utf8, firstWords: "The Importance of Being Earnest", lastWords: "TABLEAU",
                 sentences: ["Algernon. Did you hear what I was playing, Lane?"], sectionsByLevel: [0: 3],
                 titles: [0: "FIRST ACT", 1: "SECOND ACT", 2: "THIRD ACT"]),
    ]

    static let licencePhrases = [
        "START OF THE PROJECT GUTENBERG", "START OF THIS PROJECT GUTENBERG", "END OF THE PROJECT GUTENBERG",
        "END OF THIS PROJECT GUTENBERG", "SMALL PRINT", "Small Print", "Project Gutenberg-tm", "PROJECT GUTENBERG LICENSE",
        "Project Gutenberg License", "This eBook is for the use of anyone", "Produced by", "This file should be named",
        "End of Project Gutenberg", "End of the Project Gutenberg",
    ]

    func testEachFixtureTextIsTheWorkAloneWithItsOutline() throws {
        for expected in Self.expected {
            let (content, encoding) = GutenbergText.content(of: try Fixtures.gutenberg(expected.file))
            XCTAssertEqual(encoding, expected.encoding, expected.file)
            Self.assertIsTheWorkAlone(
                content, expected.file, firstWords: expected.firstWords, lastWords: expected.lastWords, sentences: expected.sentences,
                sectionsByLevel: expected.sectionsByLevel, titles: expected.titles)
        }
    }

    /// A fixture made into a text, either edition: it begins and ends with
    /// the work, keeps its sentences and none of the licence or a control,
    /// and has the sections it should, in order.
    static func assertIsTheWorkAlone(
        _ content: BookContent, _ name: String, firstWords: String, lastWords: String, sentences: [String],
        sectionsByLevel: [Int: Int], titles: [Int: String], licence: [String] = licencePhrases,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let text = content.blocks.map(\.text).joined(separator: "\n")
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        XCTAssertTrue(words.hasPrefix(firstWords), "\(name) begins \(words.prefix(80))", file: file, line: line)
        XCTAssertTrue(words.hasSuffix(lastWords), "\(name) ends \(words.suffix(80))", file: file, line: line)
        for sentence in sentences {
            XCTAssertTrue(words.contains(sentence), "\(name) lost \(sentence)", file: file, line: line)
        }
        for phrase in licence {
            XCTAssertFalse(text.contains(phrase), "\(name) keeps \(phrase)", file: file, line: line)
        }
        XCTAssertFalse(text.contains("\u{FFFD}"), "\(name) has a replacement character", file: file, line: line)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name) keeps a control", file: file, line: line)
        XCTAssertEqual(Dictionary(grouping: content.sections, by: \.level).mapValues(\.count), sectionsByLevel, name, file: file, line: line)
        for (index, title) in titles {
            guard content.sections.indices.contains(index) else {
                XCTFail("\(name) has \(content.sections.count) sections, no section \(index + 1)", file: file, line: line)
                continue
            }
            XCTAssertEqual(content.sections[index].title, title, "\(name) section \(index + 1)", file: file, line: line)
        }
        XCTAssertEqual(content.sections.map(\.firstBlock), content.sections.map(\.firstBlock).sorted(), "\(name) in order", file: file, line: line)
    }

    func testWarAndPeaceNestsChaptersUnderBooksAndEpilogues() throws {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg2600.txt"))
        let top = content.sections.filter { $0.level == 0 }.map(\.title)
        XCTAssertEqual(top.first, "BOOK ONE: 1805")
        XCTAssertEqual(top[14], "BOOK FIFTEEN: 1812 - 13")
        XCTAssertEqual(Array(top.suffix(2)), ["FIRST EPILOGUE: 1813 - 20", "SECOND EPILOGUE"])
        let outline = content.outline()
        XCTAssertEqual(outline[0].words, outline[1..<outline.firstIndex { $0.section.title == "BOOK TWO: 1805" }!].reduce(0) { $0 + $1.words }
            + content.blocks[outline[0].section.firstBlock].wordCount)
    }

    func testTheIllustratedEditionFindsChapterOneInsideACaption() throws {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg1342.txt"))
        let first = content.sections[0]
        XCTAssertEqual(content.blocks[first.firstBlock].kind, .illustration)
        let firstProse = content.blocks[(first.firstBlock + 1)...].first { $0.kind == .prose }
        XCTAssertTrue(firstProse?.text.hasPrefix("It is a truth universally acknowledged") ?? false)
        XCTAssertGreaterThanOrEqual(content.blocks.filter { $0.kind == .illustration }.count, 150)
    }

    func testVerseKeepsItsLinesAndIndentation() throws {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg1041.txt"))
        let sonnet = content.blocks[content.sections[0].firstBlock + 1]
        XCTAssertEqual(sonnet.kind, .lines)
        let lines = sonnet.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 14)
        XCTAssertTrue(lines[12].hasPrefix("    "), "the couplet is indented further: \(lines[12])")
    }

    func testFootnotesAreMarked() throws {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg4650.txt"))
        XCTAssertTrue(content.blocks.contains { $0.kind == .footnote && $0.text.hasPrefix("[1] De _pan_, tout") })
    }

    /// A `[Footnote N: …]` the book's paragraph runs on after, with its
    /// own references (`…&c.] It was once proposed … [53]`), ends at its
    /// bracket; the rest is prose. Words after the bracket with no
    /// reference stay the note's.
    func testTheBooksTextRunOnAfterANotesBracketIsTheBooks() {
        var generator = SeededGenerator(seed: 54)
        for round in 0..<30 {
            let number = Int.random(in: 1...300, using: &generator)
            let nested = ["", " l. xi. [Suppl.] and", " [c. 67.] p. 12,"].randomElement(using: &generator)!
            let marks = (1...Int.random(in: 1...3, using: &generator)).map { "[\(number + $0)]" }
            let runOn = "It was once proposed to discriminate the slaves " + marks.map { "by a habit; \($0)" }.joined(separator: " ") + " the end."
            let note = "[Footnote \(number): Spanheim, Orbis Roman.\(nested) p. 124, &c.] " + runOn
            let wordsPerLine = Int.random(in: 3...9, using: &generator)
            let noteWords = note.split(separator: " ")
            let wrapped = stride(from: 0, to: noteWords.count, by: wordsPerLine).map { noteWords.dropFirst($0).prefix(wordsPerLine).joined(separator: " ") }
                .joined(separator: "\n")
            let body = "CHAPTER I\n\nThe words of the chapter, and a reference to the note. [\(number)]\n\n\(wrapped)\n\n"
                + marks.map { "[Footnote \($0.dropFirst().dropLast()): Seneca.]" }.joined(separator: "\n\n")
            let blocks = GutenbergText.content(of: Array(body.utf8)).content.blocks
            let noteAt = blocks.firstIndex { $0.kind == .footnote && $0.text.hasPrefix("[Footnote \(number):") }
            XCTAssertEqual(noteAt.map { blocks[$0].text.hasSuffix("&c.]") }, true, "round \(round): \(blocks.map(\.text))")
            guard let noteAt, noteAt + 1 < blocks.count else { continue }
            XCTAssertEqual(blocks[noteAt + 1].kind, .prose, "round \(round)")
            XCTAssertEqual(blocks[noteAt + 1].text, runOn, "round \(round)")
        }
        for after in ["—M.", "Bentinck Street, March 1, 1782."] {
            let body = "CHAPTER I\n\nThe words of the chapter. [3]\n\n[Footnote 3: The octavo edition.] \(after)\n"
            let blocks = GutenbergText.content(of: Array(body.utf8)).content.blocks
            XCTAssertEqual(blocks.last?.kind, .footnote, "\(after): \(blocks.map(\.text))")
            XCTAssertEqual(blocks.last?.text, "[Footnote 3: The octavo edition.] \(after)")
        }
    }

    func testAFloodOfHeadingsIsOneSectionAndLinear() {
        let words = "Some words follow each heading here, twenty of them in all, so that no rule takes it for a contents line."
        var lines: [String] = []
        for number in 1...6_000 { lines += ["PART \(number)", "", words, "", "CHAPTER 1", "", words, ""] }
        let (content, _) = GutenbergText.content(of: Array(lines.joined(separator: "\n").utf8))
        XCTAssertEqual(content.sections.map(\.title), ["PART 1"], "one section, named by its first line")
        let (fewer, _) = GutenbergText.content(of: Array(lines.prefix(8 * 100).joined(separator: "\n").utf8))
        XCTAssertEqual(fewer.sections.count, 200, "below the bound the same shape is an outline")
        var repeated: [String] = []
        for _ in 1...200_000 { repeated += ["CHAPTER I", ""] }
        XCTAssertEqual(GutenbergText.content(of: Array(repeated.joined(separator: "\n").utf8)).content.sections.count, 1)
    }

    func testEscapesAndControlsInATextAreRemoved() {
        let hostile = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\nA \u{1B}[2J\u{1B}]0;owned\u{07}line\u{9B}31m with \u{202E}tricks.\r\n"
        let text = GutenbergText.content(of: Array(hostile.utf8)).content.blocks.map(\.text).joined()
        XCTAssertEqual(text, "A line with tricks.")
    }
}

/// Headings are short paragraphs: running text that begins like one is text.
final class HeadingLookalikeTests: XCTestCase {
    func testAParagraphThatBeginsLikeAHeadingIsText() {
        let body = """
            CHAPTER I

            The first chapter begins here and runs on for a good while, so that
            its lines reach the width the file was wrapped at, as prose does.

            Chapter 2. The lookalike: this paragraph begins as a heading would
            but runs on over three lines of prose, wrapped at the file's width,
            and a reader would never take it for the start of a new chapter.

            CHAPTER II

            The second chapter, which is real, with words enough under it to be
            taken for one and not for a line of a contents list at the front.
            """
        let content = GutenbergText.content(of: Array(body.utf8)).content
        XCTAssertEqual(content.sections.map(\.title), ["CHAPTER I", "CHAPTER II"])
        XCTAssertTrue(content.blocks.contains { $0.kind == .prose && $0.text.hasPrefix("Chapter 2. The lookalike") })
    }
}

/// Some files hold a paragraph a line: a line past the length a block's
/// line may have is cut in pieces, and no word of it is lost.
final class LongLineTests: XCTestCase {
    func testAParagraphOnOneLongLineIsKeptWhole() {
        let words = (1...3_000).map { "word\($0)" }
        let body = "CHAPTER I\n\n" + words.joined(separator: " ") + "\n\nThe end.\n"
        let content = GutenbergText.content(of: Array(body.utf8)).content
        let prose = content.blocks.first { $0.text.hasPrefix("word1 ") }
        XCTAssertEqual(prose?.kind, .prose)
        XCTAssertEqual(prose?.text, words.joined(separator: " "), "every word, in order")
    }

    func testALineWithNoSpaceIsCutNotDropped() {
        let run = String(repeating: "x", count: 250_000)
        let content = GutenbergText.content(of: Array(("A title\n\n" + run + "\n").utf8)).content
        XCTAssertEqual(content.blocks.map { $0.text.filter { $0 == "x" }.count }.reduce(0, +), 250_000)
    }
}

/// A block is at most `BookContent.maximumBlockBytes`, so a stored chunk
/// is bounded whatever one paragraph holds; the pieces lose no word and
/// the sections still open at their headings.
final class LongBlockTests: XCTestCase {
    func testLongBlocksAreCutIntoBoundedPiecesThatLoseNoWord() {
        var generator = SeededGenerator(seed: 32)
        let alphabet = Array("abcdé ß\u{301}漢😀\n ".unicodeScalars)
        for round in 0..<6 {
            let size = Int.random(in: 1...3, using: &generator) * BookContent.maximumBlockBytes / 2 + Int.random(in: 0...5_000, using: &generator)
            var scalars = String.UnicodeScalarView()
            // Round 0 has no space at all: cut at characters' boundaries.
            for _ in 0..<(size / 2) {
                let scalar = alphabet.randomElement(using: &generator)!
                if round > 0 || (scalar != " " && scalar != "\n") { scalars.append(scalar) }
            }
            let long = String(scalars)
            let content = BookContent(
                blocks: [TextBlock(.heading, "CHAPTER I"), TextBlock(.prose, long), TextBlock(.heading, "CHAPTER II"), TextBlock(.prose, "end")],
                sections: [TextSection(level: 0, title: "I", firstBlock: 0), TextSection(level: 0, title: "II", firstBlock: 2)])
            XCTAssertTrue(content.blocks.allSatisfy { $0.text.utf8.count <= BookContent.maximumBlockBytes }, "round \(round)")
            let pieces = content.blocks.dropFirst().prefix { $0.kind == .prose }
            let expected = long.utf8.count > BookContent.maximumBlockBytes ? 2...(2 * long.utf8.count / BookContent.maximumBlockBytes + 1) : 1...1
            XCTAssertTrue(expected.contains(pieces.count), "round \(round): \(pieces.count) pieces of \(long.utf8.count) bytes")
            if round > 0 {
                XCTAssertEqual(pieces.flatMap { $0.text.split(whereSeparator: \.isWhitespace) }, long.split(whereSeparator: \.isWhitespace), "round \(round)")
            } else {
                XCTAssertEqual(pieces.map(\.text).joined(), long)
            }
            XCTAssertEqual(content.sections.map { content.blocks[$0.firstBlock].text }, ["CHAPTER I", "CHAPTER II"])
        }
    }
}
