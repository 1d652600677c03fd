import ComicsKit
import Foundation
import TestSupport
import XCTest

/// An HTML edition's pictures, fetched by `get` beside the text and kept
/// with it: bounded, from the edition's own host, said when skipped.
final class BookPicturesTests: EndToEndTestCase {
    private func pictureStates(_ ref: String = "1342") throws -> [String: Int] {
        var states: [String: Int] = [:]
        for row in try DatabaseProbe(path: comics.databasePath).rows("SELECT state, count(*) FROM text_pictures WHERE id = \(ref) GROUP BY state") {
            states[row[0]] = Int(row[1])
        }
        return states
    }

    func testGetKeepsThePicturesWithTheTextForOfflineReading() throws {
        let got = try comics.run(["get", "1342"])
        XCTAssertEqual(got.status, 0, "\(got)")
        XCTAssertEqual(got.stdout, "got books:1342: HTML edition, 832.5 KiB, 62 sections, 126471 words, 102 pictures (398.5 KiB)\n")
        let requests = try server.requests()
        XCTAssertTrue(requests.contains("/cache/epub/1342/images/i_035_a.jpg"), "read against the address that answered")
        XCTAssertEqual(requests.filter { $0.contains("/images/") }.count, 102, "each picture once")
        XCTAssertEqual(try pictureStates(), ["kept": 102])

        let shown = try comics.run(["--offline", "show", "books:1342"])
        // A field's value wraps under itself at 100 columns.
        let unwrapped = shown.stdout.replacingOccurrences(of: "\n" + String(repeating: " ", count: 16), with: " ")
        XCTAssertTrue(unwrapped.contains("62 sections from its contents, 126471 words, 102 pictures (398.5 KiB)"), shown.stdout)
        let record = try JSONValue.parse(try comics.run(["--offline", "show", "books:1342", "-f", "json"]).stdout)
        XCTAssertEqual(record["text"]?["pictures"]?["kept"], .int(102))
        XCTAssertEqual(record["text"]?["pictures"]?["bytes"], .int(408_055))
        XCTAssertGreaterThan(record["text"]?["stored_bytes"]?.intValue ?? 0, 408_055, "counted in the text's bytes")

        let before = try server.requests().count
        let again = try comics.run(["get", "1342"])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("102 pictures (398.5 KiB)); nothing to do"), again.stderr)
        XCTAssertEqual(try server.requests().count, before, "no picture asked again")

        let plain = try comics.run(["get", "1342", "--edition", "text"])
        XCTAssertEqual(plain.stdout, "got books:1342: plain text, 754.3 KiB, 61 sections, 127160 words\n")
        XCTAssertEqual(try pictureStates(), [:], "a plain text has no pictures; the edition's went with it")
    }

    func testPicturesThatFailAreAskedAgainByTheNextGetAndTheFirstFailureStopsTheRun() throws {
        try server.control(.object([("fault", .string("500")), ("count", .int(3)), ("only", .string("/images/"))]))
        let failed = try comics.run(["get", "1342", "--quiet"])
        XCTAssertEqual(failed.status, 4, "\(failed)")
        XCTAssertTrue(failed.stderr.contains("not fetched (127.0.0.1 failed (HTTP 500)"), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("'comics get books:1342' again fetches them"), failed.stderr)
        XCTAssertEqual(try pictureStates()["kept"], nil)
        XCTAssertEqual(try server.requests().filter { $0.contains("/images/") }.count, 3, "one picture's three attempts, then the run stops")

        let shown = try JSONValue.parse(try comics.run(["--offline", "show", "books:1342", "-f", "json"]).stdout)
        XCTAssertEqual(shown["text"]?["pictures"]?["missing"], .int(102))
        let offline = try comics.run(["--offline", "get", "1342"])
        XCTAssertEqual(offline.status, 4, "offline, the pictures still missing are said: \(offline)")

        try server.control(.object([("reset", .bool(true))]))
        let mended = try comics.run(["get", "1342"])
        XCTAssertEqual(mended.status, 0, "\(mended)")
        XCTAssertEqual(mended.stdout, "got 102 more pictures of books:1342: 102 pictures (398.5 KiB)\n")
        XCTAssertEqual(try pictureStates(), ["kept": 102])
    }

    func testPicturesPastTheCapsOrOffTheEditionsHostAreSkippedAndSaid() throws {
        let little = { (value: Int) -> [UInt8] in [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
        // A PNG header claiming 20000×20000 pixels: never decoded, skipped.
        let huge = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + little(20_000) + little(20_000) + [8, 6, 0, 0, 0, 0, 0, 0, 0]
        try server.control(.object([("images", .object([
            ("huge.png", .string(FixtureServer.hex(huge))), ("text.png", .string(FixtureServer.hex(Array("not a picture\u{1B}[31m".utf8)))),
        ]))]))
        try server.postBook(70020, formats: [("text/html", "https://www.gutenberg.org/ebooks/70020.html.images")])
        let html = "<html><body><h1>A BOOK</h1><h2>CHAPTER I</h2><p>Words enough to be a chapter of a book.</p>"
            + "<div class=\"figcenter\"><img src=\"images/huge.png\" alt=\"\"><p class=\"caption\">Huge</p></div>"
            + "<div class=\"figcenter\"><img src=\"images/text.png\" alt=\"\"><p class=\"caption\">Text</p></div>"
            + "<div class=\"figcenter\"><img src=\"http://elsewhere.example/evil.png\" alt=\"\"><p class=\"caption\">Elsewhere</p></div>"
            + "<div class=\"figcenter\"><img src=\"images/fine.png\" alt=\"\"><p class=\"caption\">Fine</p></div>"
            + "<h2>CHAPTER II</h2><p>More words, and the end of the book.</p></body></html>"
        try server.serveHTML(70020, Array(html.utf8))
        let got = try comics.run(["get", "70020"])
        XCTAssertEqual(got.status, 0, "skipped for good is not a failure: \(got)")
        XCTAssertTrue(got.stdout.hasSuffix("1 picture (1.3 KiB), 2 skipped\n"), got.stdout)
        XCTAssertTrue(got.stderr.contains("picture images/huge.png: the image is too large to draw (20000×20000 pixels); skipped"), got.stderr)
        XCTAssertTrue(got.stderr.contains("picture images/text.png: "), got.stderr)
        XCTAssertFalse(got.stderr.contains("\u{1B}"), "nothing of upstream reaches the terminal raw")
        XCTAssertFalse(try server.requests().contains { $0.contains("evil") })
        XCTAssertEqual(try pictureStates("70020"), ["kept": 1, "skipped": 2], "a picture on another host is not even planned")
    }

    func testThePicturesGoWithTheirText() throws {
        XCTAssertEqual(try comics.run(["get", "1342"]).status, 0)
        XCTAssertEqual(try comics.run(["config", "set", "texts.max-bytes", "1000"]).status, 0)
        let cleaned = try comics.run(["cleanup"])
        XCTAssertEqual(cleaned.status, 0, "\(cleaned)")
        XCTAssertEqual(try pictureStates(), [:])
        XCTAssertEqual(try DatabaseProbe(path: comics.databasePath).rows("SELECT count(*) FROM text_pictures"), [["0"]])
    }
}
