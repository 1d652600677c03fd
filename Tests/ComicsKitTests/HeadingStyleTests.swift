@testable import ComicsKit
import TestSupport
import XCTest

/// Headings as books write them, in the catalogue's languages: each is read
/// with its number, and generated books of every style give the outline
/// they were made with.
final class HeadingStyleTests: XCTestCase {
    /// Written by hand, not by the tables the code uses.
    static let samples: [(line: String, number: Int)] = [
        ("FIRST ACT", 1), ("CHAPTER TWENTY-ONE", 21), ("BOOK FIRST.--A JUST MAN", 1), ("VOLUME I.--FANTINE.", 1),
        ("CHAPTER I--M. MYRIEL", 1), ("Chapter 1 PETER BREAKS THROUGH", 1), ("FORTY-SECOND CHAPTER", 42),
        ("CHAPITRE PREMIER", 1), ("LIVRE DEUXIÈME", 2), ("Vingt-et-unième chapitre", 21), ("QUATRE-VINGT-DIX-NEUVIÈME CHAPITRE", 99),
        ("VINGT ET UNIÈME DIALOGUE.", 21), ("Trente et unième chapitre", 31), ("DIXIÈME DIALOGUE.", 10), ("Second Dialogue", 2),
        ("Erstes Kapitel", 1), ("Dritter Teil", 3), ("Einundzwanzigstes Kapitel", 21), ("Zwölftes Buch", 12),
        ("Capítulo primero. Que trata de la condición", 1), ("Capítulo decimoquinto", 15), ("Capítulo vigésimo primero", 21),
        ("Primera parte", 1), ("Segunda parte del ingenioso hidalgo", 2),
        ("Capitolo ventunesimo", 21), ("Parte terza", 3), ("Libro primo", 1),
        ("Yhdestoista runo", 11), ("Viideskymmenes runo", 50), ("Kahdeskymmenes runo", 20), ("Neljäs luku", 4),
        ("Eerste hoofdstuk", 1), ("Eenentwintigste hoofdstuk", 21), ("Derde boek", 3),
        ("Capítulo décimo terceiro", 13), ("Primeira parte", 1),
        ("LIBER PRIMUS", 1), ("Caput vicesimum", 20), ("Liber tertius decimus", 13),
    ]

    func testEachLanguagesHeadingsAreReadWithTheirNumbers() {
        for sample in Self.samples {
            let heading = HeadingPattern.match(sample.line)
            XCTAssertEqual(heading?.number, sample.number, sample.line)
        }
        for sentence in ["First he went home.", "Chapter and verse were quoted", "Dritter im Bunde war er nicht.",
                         "First act of kindness he showed her.", "Second part, he said, was worse", "Vingt et un dialogues suivent."] {
            XCTAssertNil(HeadingPattern.match(sentence), sentence)
        }
    }

    /// Where markup says a line is a heading, a numeral and a stop before a
    /// title in any case number it; a letter other than I, V or X is an
    /// initial, and a line with no stop after its numeral is no such title.
    func testANumeralBeforeATitleInAHeadingNumbersIt() {
        for (line, number) in [("VIII. Literaturverzeichnis.", 8), ("12. The Bull", 12), ("V. Das Traummaterial", 5)] {
            XCTAssertEqual(HeadingPattern.numberedTitle(line)?.number, number, line)
        }
        for line in ["M. Dupont", "C. Marius", "VIII Literaturverzeichnis", "IL. Libro", "XII. and so on", "VIII.", "0. Zero"] {
            XCTAssertNil(HeadingPattern.numberedTitle(line), line)
        }
    }

    /// A title in capitals after a numeral and a stop is numbered by it
    /// (`VII. THE ADVENTURE OF THE BLUE CARBUNCLE`, `12. THE BULL`, a
    /// song's `L. THE BUNGO`); after D or M alone it is a name (`M. DE
    /// TERMES.`, Monsieur, no chapter 1000).
    func testAnInitialBeforeATitleInCapitalsNumbersNothing() {
        for (line, number) in [("VII. THE ADVENTURE OF THE BLUE CARBUNCLE", 7), ("12. THE BULL", 12), ("X. LE RETOUR", 10),
                               ("L. THE BUNGO", 50), ("C. BREDDA RAT", 100)] {
            XCTAssertEqual(HeadingPattern.match(line)?.number, number, line)
        }
        for line in ["M. DE TERMES.", "M. DE GUISE, FILS DU BALAFRÉ.", "D. JUAN DE AUSTRIA"] {
            XCTAssertNil(HeadingPattern.match(line), line)
        }
    }

    /// Books of one to three levels, numbered in roman, arabic or words,
    /// titled after a full stop, a dash, or in capitals, with and without a
    /// contents list repeating every heading, in UTF-8 or Latin-1, LF or
    /// CRLF: the outline is the one they were made with.
    func testGeneratedPlainTextBooksGiveTheOutlineTheyWereMadeWith() {
        var generator = SeededGenerator(seed: 7)
        for round in 0..<150 {
            let book = PlainBook.random(using: &generator)
            let text = book.text(withContents: round % 3 == 0, using: &generator)
            var bytes = Array((round % 4 == 1 ? text.replacingLineBreaks() : text).utf8)
            if round % 5 == 2, let latin1 = text.latin1Bytes { bytes = latin1 }
            let content = GutenbergText.content(of: bytes).content
            XCTAssertEqual(content.sections.map { "\($0.level) \($0.title)" }, book.outline, "round \(round):\n\(text.prefix(2_500))")
        }
    }
}

/// A plain-text book made up for a test.
struct PlainBook {
    var lines: [(level: Int, heading: String, title: String)]

    var outline: [String] { lines.map { "\($0.level) \($0.title)" } }

    private static let romans = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV"]
    private static let words = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
                                "THIRTEEN", "FOURTEEN", "FIFTEEN"]
    private static let languages: [[String]] = [
        ["VOLUME", "BOOK", "CHAPTER"], ["TOME", "LIVRE", "CHAPITRE"], ["BAND", "TEIL", "KAPITEL"], ["TOMO", "PARTE", "CAPÍTULO"],
        ["VOLUME", "LIBRO", "CAPITOLO"], ["DEEL", "BOEK", "HOOFDSTUK"],
    ]

    static func random(using generator: inout SeededGenerator) -> PlainBook {
        let levels = Int.random(in: 1...3, using: &generator)
        let language = languages[Int.random(in: 0..<languages.count, using: &generator)]
        let kinds = Array(language.suffix(levels))
        let numbering = Int.random(in: 0..<3, using: &generator)
        let titling = Int.random(in: 0..<4, using: &generator)
        var lines: [(level: Int, heading: String, title: String)] = []
        var counts = [Int](repeating: 0, count: levels)
        var chapterTitles = 0
        func add(_ level: Int) {
            counts[level] += 1
            for deeper in (level + 1)..<max(level + 1, levels) { counts[deeper] = 0 }
            let number = counts[level]
            let numeral = numbering == 0 ? romans[number - 1] : numbering == 1 ? String(number) : (kinds[level] == "CHAPTER" || kinds[level] == "BOOK" ? words[number - 1] : romans[number - 1])
            let keyword = kinds[level]
            var heading = "\(keyword) \(numeral)", title = "\(keyword) \(numeral)"
            if level == levels - 1 {
                chapterTitles += 1
                let name = ["THE OLD HOUSE", "A JOURNEY NORTH", "THE LETTER", "NIGHT FALLS", "HOME AGAIN"][chapterTitles % 5]
                switch titling {
                case 1: (heading, title) = ("\(keyword) \(numeral). \(name.capitalized)", "\(keyword) \(numeral). \(name.capitalized)")
                case 2: (heading, title) = ("\(keyword) \(numeral)--\(name)", "\(keyword) \(numeral)--\(name)")
                case 3: (heading, title) = ("\(keyword) \(numeral) \(name)", "\(keyword) \(numeral) \(name)")
                default: break
                }
            }
            lines.append((level, heading, title))
            if level + 1 < levels {
                for _ in 0..<Int.random(in: 1...4, using: &generator) { add(level + 1) }
            }
        }
        for _ in 0..<Int.random(in: 2...5, using: &generator) { add(0) }
        return PlainBook(lines: lines)
    }

    func text(withContents: Bool, using generator: inout SeededGenerator) -> String {
        var text = "The Project Gutenberg eBook of A Made-Up Book\n\n*** START OF THE PROJECT GUTENBERG EBOOK A MADE-UP BOOK ***\n\n"
        text += "A MADE-UP BOOK\n\nby Nobody\n\n"
        if withContents {
            text += "CONTENTS\n\n" + lines.map { String(repeating: " ", count: 2 + 4 * $0.level) + $0.heading }.joined(separator: "\n") + "\n\n"
        }
        let paragraph = "The story goes on here, line after line, as a story does; it is long enough\nto be wrapped at the width the file was made at, and to be a real part of\nthe book that no rule takes for a line of a contents list at its front.\n\n"
        for (index, line) in lines.enumerated() {
            text += "\n\n" + line.heading + "\n\n"
            let isParent = index + 1 < lines.count && lines[index + 1].level > line.level
            if !isParent || Bool.random(using: &generator) {
                for _ in 0..<Int.random(in: 1...3, using: &generator) { text += paragraph }
            }
        }
        text += "\n\n*** END OF THE PROJECT GUTENBERG EBOOK A MADE-UP BOOK ***\n\nThe licence.\n"
        return text
    }
}

private extension String {
    func replacingLineBreaks() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }

    var latin1Bytes: [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in unicodeScalars {
            guard scalar.value < 0x100 else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }
}

/// Books whose headings no pattern knows, outlined by their own contents
/// list, and a book whose heading style changes half way.
final class ContentsListTests: XCTestCase {
    private static let story = """
        The story goes on here, line after line, as a story does; it is long enough
        to be wrapped at the width the file was made at, and to be a real part of
        the book that no rule takes for a line of a contents list at its front.


        """

    private func outline(_ text: String) -> [String] {
        GutenbergText.content(of: Array(text.utf8)).content.sections.map { "\($0.level) \($0.title)" }
    }

    /// Stories titled in capitals, listed with their pages; numerals written
    /// one way in the list and another in the body; titles wrapped.
    func testGeneratedCollectionsAreOutlinedByTheirContentsList() {
        var generator = SeededGenerator(seed: 35)
        let words = ["HOUSE", "RIVER", "NIGHT", "GARDEN", "LETTER", "STRANGER", "WINTER", "ROAD", "MILL", "BELL", "SHADOW", "KING"]
        for round in 0..<80 {
            let count = Int.random(in: 2...12, using: &generator)
            var titles: [String] = []
            while titles.count < count {
                let title = "THE " + (0..<Int.random(in: 1...3, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
                if !titles.contains(title) { titles.append(title) }
            }
            let numbered = round % 3 == 0
            var text = "*** START OF THE PROJECT GUTENBERG EBOOK STORIES ***\n\nSTORIES\n\nby Nobody\n\n\nCONTENTS\n\n"
            for (index, title) in titles.enumerated() {
                let listed = numbered ? "\(index + 1). \(title)" : title
                text += "    " + listed + String(repeating: ".", count: Int.random(in: 0...6, using: &generator)) + "  \(index * 17 + 3)\n"
            }
            text += "\n\n"
            for (index, title) in titles.enumerated() {
                text += (numbered ? "\(Self.roman(index + 1)). \(title)" : title) + "\n\n\n" + Self.story
            }
            let expected = titles.enumerated().map { "0 " + (numbered ? "\(Self.roman($0.offset + 1)). \($0.element)" : $0.element) }
            XCTAssertEqual(outline(text), expected, "round \(round):\n\(text.prefix(1_500))")
            if !numbered {
                XCTAssertEqual(GutenbergText.draft(of: Array(text.utf8)).outlined().origin, .contents, "round \(round): show says where")
            }
        }
    }

    func testATitleOnTwoLinesInTheListAndInTheBodyIsOneEntry() {
        var text = "CONTENTS\n\n"
        let titles = [("Capítulo primero. Que trata de la condición", "y ejercicio del famoso hidalgo"), ("Capítulo II. Que trata de la primera", "salida que hizo el ingenioso")]
        for (first, second) in titles { text += "  \(first)\n      \(second.lowercased())\n" }
        text += "\n\n"
        for (first, second) in titles { text += "\(first)\n\(second.lowercased())\n\n" + Self.story }
        XCTAssertEqual(outline(text), titles.map { "0 \($0.0). \($0.1.lowercased())" })
    }

    func testAHeadingStyleThatChangesHalfWayKeepsItsChapters() {
        var text = ""
        for number in 1...6 { text += "ADVENTURE \(Self.roman(number)). A SCANDAL IN PART \(number)\n\n" + Self.story }
        for number in 7...12 { text += "\(Self.roman(number)). THE ADVENTURE OF PART \(number)\n\n" + Self.story }
        let sections = GutenbergText.content(of: Array(text.utf8)).content.sections
        XCTAssertEqual(sections.count, 12, sections.map(\.title).joined(separator: "\n"))
        XCTAssertEqual(Set(sections.map(\.level)), [0])
        XCTAssertEqual(sections.last?.title, "XII. THE ADVENTURE OF PART 12")
    }

    /// The pictures' file names and `Enlarge` links of the HTML edition a
    /// plain text was made from are no words of the book; a number is.
    func testPictureMarkersAreNotText() {
        let text = "CHAPTER I\n\n0009m 0011m\n\n[Enlarge]\n\n" + Self.story + "1234 copies were sold.\n\n2024\n\n"
        let blocks = GutenbergText.content(of: Array(text.utf8)).content.blocks.map(\.text)
        XCTAssertFalse(blocks.contains { $0.contains("0009m") || $0.contains("Enlarge") }, "\(blocks)")
        XCTAssertTrue(blocks.contains("1234 copies were sold."))
        XCTAssertTrue(blocks.contains("2024"))
        let html = "<body><h2>CHAPTER I</h2><div class=\"figcenter\"><img src=\"images/0009.jpg\" alt=\"\"><a href=\"images/0009.jpg\">Enlarge</a></div>"
            + "<p>" + Self.story + "</p></body>"
        XCTAssertFalse(GutenbergHTML.content(of: Array(html.utf8)).content.blocks.contains { $0.text.contains("Enlarge") })
    }

    private static func roman(_ number: Int) -> String {
        ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII"][number - 1]
    }
}

final class SpelledNumbersTests: XCTestCase {
    /// The tables' own upper-casing is the standard library's for every
    /// Latin-1 letter, so a heading upper-cased either way finds its number.
    func testTheTablesUpperCaseAsTheStandardLibraryDoes() {
        let letters = (0x20...0x7E).compactMap(Unicode.Scalar.init) + (0xC0...0xFE).compactMap(Unicode.Scalar.init).filter { $0.value != 0xD7 && $0.value != 0xF7 }
        for letter in letters {
            let word = "x\(letter)y"
            XCTAssertEqual(SpelledNumbers.latinUppercased(word), word.uppercased(), "U+\(String(letter.value, radix: 16))")
        }
        for key in SpelledNumbers.ordinals.keys {
            XCTAssertEqual(key.uppercased(), key)
        }
        XCTAssertEqual(SpelledNumbers.ordinal("dreißigste"), 30)
        XCTAssertEqual(SpelledNumbers.ordinal("DREISSIGSTE"), 30)
        XCTAssertEqual(SpelledNumbers.ordinal("vingt-et-unième"), 21)
        XCTAssertEqual(SpelledNumbers.ordinal("Viideskymmenes"), 50)
    }
}

final class ContentsKeyTests: XCTestCase {
    /// Keys of ASCII text read by bytes are those the character path
    /// gives (a `§`, no letter, sends a text down that path).
    func testASCIIKeysAreTheCharacterPathsKeys() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["Chapter", "XIV", "twenty-one", "the", " ", ".", "--", "12", "é", "“", "e\u{301}", "Vingt-et-unième", ":", "\t"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(ContentsList.key(text), ContentsList.key(text + " §"), text)
            let start = text.firstIndex { $0.isLetter || $0.isNumber } ?? text.endIndex
            XCTAssertEqual(ContentsList.firstWordKey(text), ContentsList.key(String(text[start...].prefix { $0.isLetter || $0.isNumber }) + " §"), text)
        }
    }
}
