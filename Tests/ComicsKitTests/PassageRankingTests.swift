@testable import ComicsKit
import TestSupport
import XCTest

/// The ranking of a text search's candidates is worked out in Swift from
/// the blocks' bytes; these hold it to what SQLite itself does: its words,
/// its stems and its bm25, on every word of the fixture texts.
final class PassageRankingTests: XCTestCase {
    private static let texts = ["pg11.txt", "pg1342.txt", "pg2701.txt", "pg2600.txt", "pg4650.txt", "pg22367.txt", "pg844.txt"]

    private func database() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: ":memory:")
    }

    /// Every distinct word's terms as FTS5 makes them, in one table.
    private func sqliteTerms(_ rows: [String], tokenizer: String) throws -> [[String]] {
        let database = try database()
        try database.execute("""
            CREATE VIRTUAL TABLE words USING fts5(body, tokenize = '\(tokenizer)');
            CREATE VIRTUAL TABLE terms USING fts5vocab(words, instance);
            """)
        try database.writeTransaction {
            let insert = try database.prepare("INSERT INTO words (rowid, body) VALUES (?, ?)")
            for (index, row) in rows.enumerated() {
                try insert.bind([.integer(Int64(index + 1)), .text(row)])
                _ = try insert.allRows()
            }
        }
        var terms = [[(offset: Int, term: String)]](repeating: [], count: rows.count)
        for row in try database.query("SELECT doc, offset, term FROM terms") {
            terms[(row[0].int ?? 1) - 1].append((row[1].int ?? 0, row[2].text ?? ""))
        }
        return terms.map { $0.sorted { $0.offset < $1.offset }.map(\.term) }
    }

    private func fixtureWords() throws -> [String] {
        var words = Set<String>()
        for name in Self.texts {
            let text = String(decoding: try Fixtures.gutenberg(name), as: UTF8.self).lowercased()
            for word in text.split(whereSeparator: { !("a"..."z").contains($0) }) where word.count >= 3 { words.insert(String(word)) }
        }
        return words.sorted()
    }

    func testTheStemmerGivesSQLitesPorterStemForEveryWordOfTheTexts() throws {
        let words = try fixtureWords()
        XCTAssertGreaterThan(words.count, 20_000)
        let stems = try sqliteTerms(words, tokenizer: "porter ascii")
        var differing: [String] = []
        for (word, stem) in zip(words, stems) where [String(decoding: PassageRanking.stem(Array(word.utf8)), as: UTF8.self)] != stem {
            differing.append("\(word): \(stem) vs \(String(decoding: PassageRanking.stem(Array(word.utf8)), as: UTF8.self))")
        }
        XCTAssertEqual(differing.prefix(20), [], "\(differing.count) of \(words.count) words")
    }

    func testWordsAreTheIndexTokenizersWords() throws {
        // Lines of every text (Latin-1 ones decoded first), and generated
        // ones mixing what separates and joins words.
        var lines: [String] = []
        for name in Self.texts {
            let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg(name))
            lines += content.blocks.prefix(400).map(\.text)
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["ϰητος", "ΣΟΦΙΑ", "Natásha", "ÉLAN", "c++", "f#", "don't", "tea-party", "naïve", "Œuvre", "straße", "1812", "_italics_", "—", "’s", " ", "\n", "x²", "ĳ"]
        for _ in 0..<300 {
            lines.append((0..<8).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: ["", " ", "-"].randomElement(using: &generator)!))
        }
        let expected = try sqliteTerms(lines, tokenizer: TextSearchIndex.tokenizer.replacing("porter ", with: ""))
        var differing: [String] = []
        for (line, terms) in zip(lines, expected) {
            let words = PassageRanking.words(in: Array(line.utf8)).map { String(decoding: $0, as: UTF8.self) }
            if words != terms { differing.append("\(line.prefix(60)): \(terms.prefix(8)) vs \(words.prefix(8))") }
        }
        XCTAssertEqual(differing.prefix(10), [], "\(differing.count) of \(lines.count) lines")

        // Counting skips folding the words no term begins like, and must
        // still count, and hand over, exactly the words `words` reads.
        let marks = ["\u{301}", "\u{301}a", "a\u{301}\u{301}", "\u{301} ", "\u{FFFD}", "\u{80}"]
        for _ in 0..<300 {
            lines.append((0..<8).map { _ in (pieces + marks).randomElement(using: &generator)! }.joined(separator: ["", " "].randomElement(using: &generator)!))
        }
        let everyLead = [Bool](repeating: true, count: 256)
        var leadN = [Bool](repeating: false, count: 256)
        leadN[Int(UInt8(ascii: "n"))] = true
        for line in lines {
            let words = PassageRanking.words(in: Array(line.utf8))
            var handed: [[UInt8]] = [], handedN: [[UInt8]] = []
            let count = Array(line.utf8).withUnsafeBufferPointer { PassageRanking.countWords(in: $0, checking: everyLead) { word, _ in handed.append(word) } }
            _ = Array(line.utf8).withUnsafeBufferPointer { PassageRanking.countWords(in: $0, checking: leadN) { word, _ in handedN.append(word) } }
            XCTAssertEqual(count, words.count, line)
            XCTAssertEqual(handed, words, line)
            XCTAssertEqual(handedN.filter { $0.first == UInt8(ascii: "n") }, words.filter { $0.first == UInt8(ascii: "n") }, line)
        }
    }

    func testTheOrderIsFTS5sBm25OverTheSameBlocks() throws {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg2600.txt"))
        for query in ["natasha", "prince", "war", "love*", "moscow OR petersburg", "pierre NOT natasha"] {
            let expression = SearchExpression(query).expression
            let ranking = try XCTUnwrap(PassageRanking(expression: expression), query)
            let database = try database()
            try database.execute("CREATE VIRTUAL TABLE blocks USING fts5(body, tokenize = '\(TextSearchIndex.tokenizer)')")
            try database.writeTransaction {
                let insert = try database.prepare("INSERT INTO blocks (rowid, body) VALUES (?, ?)")
                for (index, block) in content.blocks.enumerated() {
                    try insert.bind([.integer(Int64(index)), .text(block.text)])
                    _ = try insert.allRows()
                }
            }
            // The candidates alone, as the search ranks them.
            let matching = try database.query("SELECT rowid FROM blocks WHERE blocks MATCH ? ORDER BY rowid", [.text(expression)]).compactMap(\.first?.int)
            XCTAssertGreaterThan(matching.count, 20, query)
            try database.execute("DELETE FROM blocks WHERE rowid NOT IN (\(matching.map(String.init).joined(separator: ",")))")
            let sqliteOrder = try database.query("SELECT rowid FROM blocks WHERE blocks MATCH ? ORDER BY rank, rowid LIMIT 20", [.text(expression)])
                .compactMap(\.first?.int)
            let scores = ranking.scores(of: matching.map { index in Array(content.blocks[index].text.utf8).withUnsafeBufferPointer(ranking.counted) })
            let order = matching.indices.sorted { (scores[$0], matching[$0]) < (scores[$1], matching[$1]) }.prefix(20).map { matching[$0] }
            XCTAssertEqual(order, sqliteOrder, query)
        }
    }

    /// The words as asked, one after another, are found wherever they are,
    /// and the shortest stretch holding them all is the one a search of
    /// every stretch finds, on generated blocks.
    func testThePhraseAndTheSpanAreThoseOfEveryStretch() {
        var generator = SystemRandomNumberGenerator()
        let vocabulary = ["to", "be", "or", "not", "question", "whether", "Tis", "nobler"]
        let query = "to be or not to be"
        let ranking = PassageRanking(expression: SearchExpression(query).expression)!
        for _ in 0..<400 {
            let words = (0..<Int.random(in: 0...30, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
            let punctuation = [" ", ", ", "; ", " — ", "\n"]
            let text = words.map { $0 + punctuation.randomElement(using: &generator)! }.joined()
            let counted = Array(text.utf8).withUnsafeBufferPointer(ranking.counted)
            let lowered = words.map { $0.lowercased() }
            let asked = query.split(separator: " ").map(String.init)
            let holds = lowered.count >= asked.count && (0...(lowered.count - asked.count)).contains { Array(lowered[$0..<($0 + asked.count)]) == asked }
            XCTAssertEqual(counted.holdsPhrase, holds, text)
            var shortest: Int?
            for start in lowered.indices {
                for end in start..<lowered.count where Set(asked).isSubset(of: lowered[start...end]) {
                    shortest = min(shortest ?? .max, end - start + 1)
                    break
                }
            }
            XCTAssertEqual(counted.span, shortest, text)
        }
    }

    /// The line itself first, then the words near each other, then bm25:
    /// paragraphs that repeat the words score higher by bm25 alone.
    func testTheWordsAsAskedRankFirstThenNearEachOther() {
        let ranking = PassageRanking(expression: SearchExpression("to be or not to be").expression)!
        let blocks = [
            "Not to be outdone, or so it seemed, to go and be gone; not to be, not to be, or to be.",
            "To be, or not to be, that is the question.",
            "Be it known to all who hear: whatever we go and do, or not, whoever comes and goes in the town.",
            "Or to be not, to be.",
        ].map { Array($0.utf8).withUnsafeBufferPointer(ranking.counted) }
        let scores = ranking.scores(of: blocks)
        let order = blocks.indices.sorted { (ranking.tier(of: blocks[$0]), scores[$0]) < (ranking.tier(of: blocks[$1]), scores[$1]) }
        XCTAssertEqual(order.first, 1, "the line itself")
        XCTAssertEqual(blocks.map(ranking.tier), [1, 0, 2, 1])
    }

    func testQueriesThatNeedPositionsAreLeftToFTS5() {
        for query in ["\"white whale\"", "tea-party", "node.js", "\"a\" NEAR \"b\"", "NEAR(\"a\" \"b\")", "body: \"whale\"", "^\"whale\""] {
            XCTAssertNil(PassageRanking(expression: SearchExpression(query).expression), query)
        }
        XCTAssertEqual(PassageRanking(expression: SearchExpression("Natásha").expression)?.terms.map(\.key), [Array("natasha".utf8)])
        XCTAssertEqual(PassageRanking(expression: SearchExpression("running astro*").expression)?.terms.map(\.isPrefix), [false, true])
        XCTAssertEqual(PassageRanking(expression: SearchExpression("running astro*").expression)?.terms.first?.key, Array("run".utf8))
    }
}

/// Words are counted eight bytes at a time; the count is the plain one's
/// for any text, wherever its spaces and line breaks fall.
final class WordCountTests: XCTestCase {
    private func plainCount(_ text: String) -> Int {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
    }

    func testTheCountIsThePlainCountForGeneratedTexts() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "word", " ", "  ", "\n", "é", "—", "\t", "x\u{1E}y", "日本"]
        for length in 0..<200 {
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(TextBlock(.prose, text).wordCount, plainCount(text), text.debugDescription)
        }
    }
}
