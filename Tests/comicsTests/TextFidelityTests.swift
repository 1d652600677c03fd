@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Real documents from the archive show their exact text in every output:
/// titles without markup, mis-encoded runs repaired, no line lost to a
/// stray control character, books' translators and editors kept.
final class TextFidelityTests: EndToEndTestCase {
    static let quirks = [155, 472, 718, 730, 1288, 1306, 1608, 1627]
    /// Real comics with a lone C1 control where Windows-1252 punctuation was meant.
    static let strayC1Controls = [792, 855, 1122, 1126, 1153, 1154, 1177, 1255, 1446, 1549, 1645]

    override func setUpWithError() throws {
        try super.setUpWithError()
        let documents = try (Self.quirks + Self.strayC1Controls).map { (String($0), try Fixtures.xkcdQuirk($0)) }
        try server.control(.object([("comics", .object(documents))]))
    }

    private func json(_ arguments: [String]) throws -> JSONValue {
        let result = try comics.run(arguments + ["-f", "json"])
        XCTAssertEqual(result.status, 0, "\(result)")
        return try JSONValue.parse(result.stdout)
    }

    private func table(_ arguments: [String]) throws -> String {
        let result = try comics.run(arguments)
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(result.stderr, "")
        return result.stdout
    }

    func testAMarkedUpTitleIsPlainInEveryOutputAndTheIndex() throws {
        XCTAssertEqual(try table(["fav", "add", "472"]).isEmpty, false)
        let outputs = [
            try table(["show", "472"]), try table(["fav", "list"]), try table(["search", "pancakes"]),
            try comics.run(["fav", "list", "-f", "csv"]).stdout, try comics.run(["fav", "list", "-f", "tsv"]).stdout,
            try comics.run(["search", "pancakes", "-f", "ndjson"]).stdout,
        ]
        XCTAssertTrue(outputs[0].hasPrefix("xkcd 472: House of Pancakes\n"), outputs[0])
        XCTAssertEqual(try json(["show", "472"])["title"], .string("House of Pancakes"))
        for output in outputs {
            XCTAssertTrue(output.contains("House of Pancakes"), output)
            XCTAssertFalse(output.contains("<span") || output.contains("</span>") || output.contains("0000ED"), output)
        }
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.scalar("SELECT title FROM item_search WHERE source = 'xkcd' AND id = 472"), "House of Pancakes")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM item_search WHERE item_search MATCH 'span OR color OR 0000ED'"), 0)
    }

    /// Every word of the transcript JSON holds is in the table too, in
    /// order, and nothing a terminal would act on is.
    func testAStrayControlCharacterLosesNoLineOfATranscript() throws {
        for number in [718, 730, 1288, 1627] {
            let transcript = try XCTUnwrap(try json(["show", String(number)])["transcript"]?.stringValue)
            let shown = try table(["show", String(number)])
            XCTAssertFalse(shown.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) }, "\(number)")
            let words = transcript.split(whereSeparator: \.isWhitespace)
            var rest = shown[...]
            for word in words {
                let printable = String(String.UnicodeScalarView(word.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
                guard !printable.isEmpty else { continue }
                guard let found = rest.range(of: printable) else { return XCTFail("\(number): '\(printable)' missing from\n\(shown)") }
                rest = rest[found.upperBound...]
            }
        }
        let flake = try table(["show", "718"])
        XCTAssertTrue(flake.contains("Dt X Au ˜ 100,000"), flake)
        XCTAssertTrue(flake.contains("Fermi's Lack-of-a-Paradox"), flake)
        XCTAssertFalse(flake.split(separator: "\n").contains { $0.hasSuffix(" ") }, "no line ends in a space")
        let circuit = try table(["show", "730"])
        XCTAssertTrue(circuit.contains("\"← to center of sun\""), circuit)
        XCTAssertTrue(circuit.contains("holy water"), circuit)
    }

    func testMisEncodedTextIsRepairedAndCorrectTextKept() throws {
        let substitutions = try XCTUnwrap(try json(["show", "1288"])["transcript"]?.stringValue)
        XCTAssertTrue(substitutions.contains("Witnesses → these dudes I know\nAllegedly → kinda probably"), substitutions)
        XCTAssertTrue(substitutions.contains("Smartphone → Pokédex"), substitutions)
        let circuit = try XCTUnwrap(try json(["show", "730"])["transcript"]?.stringValue)
        for repaired in ["√2V", "\"120Ω or to taste\"", "\"caution ↱\"", "\"5Ω (decoy)\"", "value of π", "\"← to center of sun\"", "labeled \"ë\""] {
            XCTAssertTrue(circuit.contains(repaired), repaired)
        }
        XCTAssertTrue(try json(["show", "1627"])["transcript"]?.stringValue?.contains("Debate → Dance-off") == true)
        for number in [718, 730, 1288, 1627] {
            let csv = try comics.run(["show", String(number), "-f", "csv"]).stdout
            XCTAssertNil(csv.unicodeScalars.first { (0x80...0x9F).contains($0.value) }, "\(number): \(csv)")
            XCTAssertFalse(csv.contains("â"), "\(number)")
        }
        XCTAssertEqual(try table(["search", "pokedex"]).split(separator: "\n").count, 3, "the repaired text is indexed, diacritics folded")
    }

    /// The punctuation a lone C1 control stands for is in every format, and
    /// no format holds the control or drops the character.
    func testALoneC1ControlIsItsWindows1252PunctuationInEveryFormat() throws {
        let expected = [
            855: "Hey—a tip", 1126: "a little… unhinged", 1645: "•international standard", 1549: "One®™",
            1446: "Churyumov–Gerasimenko", 792: "Google…", 1255: "west– –in",
        ]
        for (number, text) in expected {
            let transcript = try XCTUnwrap(try json(["show", String(number)])["transcript"]?.stringValue)
            XCTAssertTrue(transcript.contains(text), "\(number): \(transcript)")
            for format in ["table", "csv", "tsv", "ndjson"] {
                let shown = try comics.run(["show", String(number), "-f", format]).stdout
                let flattened = format == "table" ? shown.replacingOccurrences(of: "\n  ", with: " ") : shown
                XCTAssertTrue(flattened.contains(text), "\(number) \(format): \(shown)")
            }
        }
        for number in Self.strayC1Controls {
            for format in ["table", "csv", "tsv", "json", "ndjson"] {
                let shown = try comics.run(["show", String(number), "-f", format]).stdout
                XCTAssertNil(shown.unicodeScalars.first { (0x80...0x9F).contains($0.value) }, "\(number) \(format)")
                XCTAssertFalse(shown.contains("\\u0085") || shown.contains("\\u0097"), "\(number) \(format)")
            }
        }
        XCTAssertTrue(try table(["search", "unhinged"]).contains("little… unhinged"))
    }

    /// A cache written before the rule (a real schema-4 file, its rows
    /// given stray C1 controls) has them read as Windows-1252 by the
    /// migrations, in both sources, and indexed again.
    func testCachedStrayC1ControlsAreRepairedByTheMigration() throws {
        let database = URL(fileURLWithPath: comics.databasePath)
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Fixtures.path("databases/schema-4.db")), to: database)
        try DatabaseProbe.execute(on: comics.databasePath, """
            UPDATE items SET attributes = json_set(attributes, '$.alt', 'Hey' || char(151) || 'a tip')
                WHERE source = 'xkcd' AND id = 200;
            UPDATE items SET title = 'Abyssinia' || char(133),
                attributes = json_set(attributes, '$.subjects[0]', 'Ethiopia ' || char(150) || ' Travel' || char(129))
                WHERE source = 'books' AND id = 1436;
            """)
        XCTAssertEqual(try json(["--offline", "show", "200"])["alt"], .string("Hey—a tip"))
        let book = try json(["--offline", "show", "books:1436"])
        XCTAssertEqual(book["title"], .string("Abyssinia…"))
        XCTAssertEqual(book["subjects"]?.arrayValue?.first, .string("Ethiopia – Travel"))
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("PRAGMA user_version"), Migrations.all.count)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM item_search WHERE item_search MATCH 'ethiopia'"), 1)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE instr(title || attributes, char(150)) > 0"), 0)
        XCTAssertEqual(try probe.scalar("PRAGMA integrity_check"), "ok")
    }

    func testTranslatorsAndEditorsAreShownExportedAndSearched() throws {
        let plays = try table(["show", "books:31"])
        XCTAssertTrue(plays.contains("Translators:    Storr, Francis (1839–1919)\n"), plays)
        XCTAssertFalse(plays.contains("Editors:"), "no editors, no line")
        let voyage = try table(["show", "books:1436"])
        XCTAssertTrue(voyage.contains("Translators:    Johnson, Samuel (1709–1784)\n"), voyage)
        XCTAssertTrue(voyage.contains("Editors:        Morley, Henry (1822–1894)\n"), voyage)

        let record = try json(["show", "books:1436"])
        XCTAssertEqual(record["editors"], .array([.object([
            ("name", .string("Morley, Henry")), ("birth_year", .int(1822)), ("death_year", .int(1894)),
        ])]))
        XCTAssertEqual(record["translators"]?.arrayValue?.first?["name"], .string("Johnson, Samuel"))
        guard case let .object(members) = record else { return XCTFail("\(record)") }
        let keys = members.map(\.0)
        XCTAssertEqual(Array(keys[(keys.firstIndex(of: "authors") ?? 0)...].prefix(3)), ["authors", "translators", "editors"])

        let csv = try comics.run(["show", "books:1436", "-f", "csv"]).stdout.split(separator: "\r\n")
        let header = csv[0].split(separator: ",", omittingEmptySubsequences: false)
        XCTAssertTrue(header.contains("translators") && header.contains("editors"), "\(header)")
        XCTAssertTrue(csv[1].contains("Morley, Henry"), "\(csv[1])")
        let tsvHeader = try comics.run(["-s", "books", "list", "-f", "tsv"]).stdoutLines[0].split(separator: "\t")
        XCTAssertEqual(tsvHeader[7...9], ["authors", "translators", "editors"])

        let found = try comics.run(["search", "storr", "-f", "ndjson"])
        XCTAssertEqual(found.stdoutLines.count, 1, "\(found)")
        XCTAssertEqual(try JSONValue.parse(found.stdoutLines[0])["id"], .int(31))
        XCTAssertEqual(try comics.run(["search", "morley", "-f", "ndjson"]).stdoutLines.count, 1)
    }
}

/// A cache written by the previous release (schema 4) is brought up to
/// today's rules in place: nothing lost, text re-cleaned, the index rebuilt
/// with stemming, and every validator forgotten so the next refresh brings
/// whole documents.
final class CacheUpgradeTests: EndToEndTestCase {
    func testACacheOfSchema4IsUpgradedInPlace() throws {
        let database = URL(fileURLWithPath: comics.databasePath)
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Fixtures.path("databases/schema-4.db")), to: database)
        let shown = try comics.run(["--offline", "show", "472"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertTrue(shown.stdout.hasPrefix("xkcd 472: House of Pancakes\n"), shown.stdout)
        let transcript = try JSONValue.parse(try comics.run(["--offline", "show", "1288", "-f", "json"]).stdout)["transcript"]?.stringValue
        XCTAssertTrue(transcript?.contains("Witnesses → these dudes I know") == true, transcript ?? "")

        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.count("PRAGMA user_version"), Migrations.all.count)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items"), 8)
        XCTAssertEqual(try probe.rows("SELECT source || ':' || id FROM favorites ORDER BY source, id").map { $0[0] }, ["books:1436", "xkcd:472"])
        XCTAssertEqual(try probe.scalar("SELECT value FROM settings WHERE key = 'config.max-items'"), "500")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE etag IS NOT NULL OR last_modified IS NOT NULL"), 0)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM item_search"), 8)
        XCTAssertEqual(try probe.scalar("SELECT title FROM item_search WHERE source = 'xkcd' AND id = 472"), "House of Pancakes")
        XCTAssertEqual(try probe.scalar("PRAGMA integrity_check"), "ok")

        let found = try comics.run(["--offline", "search", "pancake", "-f", "ndjson"])
        XCTAssertEqual(found.stdoutLines.count, 1, "stemmed: \(found)")

        // Online, a refresh fetches the whole book: its translator arrives and is indexed.
        try server.control(.object([("comics", .object([("472", try Fixtures.xkcdQuirk(472))]))]))
        XCTAssertEqual(try comics.run(["search", "storr", "-f", "ndjson"]).stdoutLines.count, 0)
        XCTAssertEqual(try comics.run(["show", "books:31", "--refresh"]).status, 0)
        XCTAssertEqual(try comics.run(["search", "storr", "-f", "ndjson"]).stdoutLines.count, 1)
        XCTAssertEqual(try comics.run(["show", "472", "--refresh"]).status, 0)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM items WHERE source = 'xkcd' AND id = 472 AND etag IS NOT NULL"), 1)
    }
}
