import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Search judged by the queries people type, over the fixture archive
/// (comics 1–200), the real documents from further in it, and a few made
/// to pin down one rule each.
final class SearchQualityTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        var comics = try [155, 472, 1306].map { (String($0), try Fixtures.xkcdQuirk($0)) }
        comics += [
            ("9001", FixtureServer.comic(9001, title: "Rewrite", alt: "again",
                                         transcript: "We rewrote it in C#, then F#, then .NET, then Node.js.")),
            ("9002", FixtureServer.comic(9002, title: "Grades", alt: "a C and an F",
                                         transcript: "Node, js and c: the net result was a C")),
            ("9003", FixtureServer.comic(9003, title: "Kitchen", alt: "make a sandwich",
                                         transcript: "me? make me? sandwich, a sandwich. sandwich sandwich sandwich")),
            ("9004", FixtureServer.comic(9004, title: "Marathon", alt: "she keeps running")),
        ]
        try server.control(.object([("comics", .object(comics.map { ($0.0, $0.1) }))]))
        XCTAssertEqual(try self.comics.run(["sync", "--quiet"]).status, 0)
        for number in [155, 472, 1306, 9001, 9002, 9003, 9004] {
            XCTAssertEqual(try self.comics.run(["show", String(number)]).status, 0)
        }
    }

    private func ids(_ terms: String) throws -> [Int] {
        let result = try comics.run(["search", "-n", "50", "-f", "ndjson"] + terms.split(separator: " ").map(String.init))
        XCTAssertEqual(result.status, 0, "\(result)")
        return try result.stdoutLines.map { try JSONValue.parse($0)["id"]?.intValue ?? 0 }
    }

    func testInflectionsMatch() throws {
        XCTAssertEqual(try ids("velociraptor").first, 87, "the title 'Velociraptors' first")
        XCTAssertTrue(try ids("velociraptor").contains(155), "155 says only 'velociraptors'")
        XCTAssertTrue(try ids("run").contains(9004), "'running'")
        XCTAssertTrue(try ids("sandwiches").contains(149))
        XCTAssertTrue(try ids("pancake").contains(472))
    }

    func testProgrammingNamesMatchAsWritten() throws {
        XCTAssertEqual(try ids("c++"), [1306], "the comic about C++, and no comic that only has a 'c' or a 'c#'")
        XCTAssertEqual(try ids("c#"), [9001])
        XCTAssertEqual(try ids("F#"), [9001])
        XCTAssertEqual(try ids("node.js"), [9001], "'Node, js' is not 'Node.js'")
        let letterC = try ids("c")
        XCTAssertTrue(letterC.contains(9002) && !letterC.contains(9001) && !letterC.contains(1306), "\(letterC)")
        XCTAssertEqual(try ids(".net"), [9001], "'the net' is not '.NET'")
        XCTAssertEqual(try ids("NODE.JS rewrote"), [9001], "letter case aside")
    }

    func testTitleThenExactPhraseThenTheRest() throws {
        XCTAssertEqual(try ids("house of pancakes").first, 472)
        let sandwich = try ids("make me a sandwich")
        XCTAssertEqual(sandwich.first, 149, "the famous line, exactly: \(sandwich)")
        XCTAssertEqual(sandwich.prefix(2), [149, 9003], "then the words scattered, however often")
        let kitchen = try ids("sandwich")
        XCTAssertEqual(kitchen.first, 149, "its title says it: \(kitchen)")
        XCTAssertEqual(try ids("sudo make me a sandwich").first, 149)
    }
}
