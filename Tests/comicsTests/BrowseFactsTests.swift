import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Browse shows what the database holds, facts included: rows another
/// process removed, a query with no results, a number upstream lacks, a
/// failure until a success replaces it, a refused query. In a
/// pseudo-terminal at 80×24 and 40×12, against the loopback server.
final class BrowseFactsTests: EndToEndTestCase {
    private let sizes = [(rows: 24, columns: 80), (rows: 12, columns: 40)]

    private func browse(rows: Int, columns: Int, waitingFor first: String = "Bill Nye") throws -> TerminalSession {
        let session = try TerminalSession(comics, ["browse"], rows: rows, columns: columns)
        XCTAssertTrue(try session.wait(for: first), session.screen.joined(separator: "\n"))
        return session
    }

    private func quit(_ session: TerminalSession, file: StaticString = #filePath, line: UInt = #line) throws {
        try session.send("Q")
        let ended = try XCTUnwrap(try session.finish(), "browse did not end", file: file, line: line)
        XCTAssertEqual(ended.status, 0, file: file, line: line)
    }

    func testRowsACleanupElsewhereRemovedAreFetchedAgain() throws {
        for size in sizes {
            let session = try browse(rows: size.rows, columns: size.columns)
            XCTAssertEqual(try comics.run(["cleanup", "--max-items", "1", "--quiet"]).status, 0)
            XCTAssertTrue(try session.wait(for: "  …"), "the rows go as the database loses them: \(session.screen.joined(separator: "\n"))")
            XCTAssertTrue(try session.wait(for: "   200  2006-12-22  Bill Nye", timeout: 15), "and come back: \(session.screen.joined(separator: "\n"))")
            try quit(session)
        }
    }

    func testABooksQueryThatMatchesNothingSaysSo() throws {
        for size in sizes {
            let session = try browse(rows: size.rows, columns: size.columns)
            try session.send("s")
            XCTAssertTrue(try session.wait(for: "Moby Dick"))
            try session.send(":\u{15}language:xx\r")
            XCTAssertTrue(try session.wait(for: "no book matches this"), session.screen.joined(separator: "\n"))
            XCTAssertFalse(session.screen.contains { $0.contains("loading") })
            try session.send(":\u{15}\r")
            XCTAssertTrue(try session.wait(for: "Moby Dick"), "the whole catalogue again")
            try quit(session)
        }
    }

    /// Comic 404 is not upstream: its row and its screen say so, and
    /// upstream is asked once, however often it is passed or opened.
    func testANumberUpstreamLacksSaysSoAndIsAskedOnce() throws {
        var comics: [(String, JSONValue)] = []
        for number in 201...410 where number != 404 { comics.append((String(number), FixtureServer.comic(number, title: "Comic \(number)"))) }
        try server.control(.object([("latest", .int(410)), ("comics", .object(comics))]))
        for size in sizes {
            let session = try browse(rows: size.rows, columns: size.columns, waitingFor: "Comic 410")
            try session.send("404\r")
            XCTAssertTrue(try session.wait(for: "there is no xkcd"), session.screen.joined(separator: "\n"))
            try session.send("\r")
            XCTAssertTrue(try session.wait(for: "xkcd:404"), session.screen.joined(separator: "\n"))
            XCTAssertTrue(session.screen[0].hasPrefix("there is no xkcd comic 404"), session.screen.joined(separator: "\n"))
            XCTAssertFalse(session.screen.contains { $0.contains("loading") }, session.screen.joined(separator: "\n"))
            try session.send("np\u{1B}jk\r")
            XCTAssertTrue(try session.wait(for: "there is no xkcd comic 404"), session.screen.joined(separator: "\n"))
            try quit(session)
        }
        XCTAssertEqual(try server.requests().filter { $0.hasPrefix("/404/") }.count, 1, "asked once, by the first page")
    }

    /// A failure stays said until a fetch that reaches upstream replaces
    /// it, whatever else ends meanwhile.
    func testAFailureStaysSaidUntilASuccessReplacesIt() throws {
        for size in sizes {
            // The archive's end is not cached: G has it fetched.
            XCTAssertEqual(try comics.run(["cleanup", "--max-items", "1", "--quiet"]).status, 0)
            let session = try browse(rows: size.rows, columns: size.columns)
            try server.control(.object([("fault", .string("500")), ("count", .int(1000))]))
            try session.send("G")
            XCTAssertTrue(try session.wait(for: "failed"), session.screen.last ?? "")
            Thread.sleep(forTimeInterval: 11)
            XCTAssertTrue(session.screen.last?.contains("failed") == true, "still said: \(session.screen.last ?? "")")
            try server.control(.object([("reset", .bool(true))]))
            try session.send("r")
            XCTAssertTrue(try session.wait(for: "Barrel", timeout: 20), session.screen.joined(separator: "\n"))
            XCTAssertTrue(try session.wait(for: "updated just now", timeout: 10), session.screen.last ?? "")
            try quit(session)
        }
    }

    /// A refused query is said over the prompt until the next key, and
    /// what is typed stays in view at any width.
    func testARefusedQueryIsSaidAndTheTextStaysInView() throws {
        for size in sizes {
            let session = try browse(rows: size.rows, columns: size.columns)
            try session.send("s")
            XCTAssertTrue(try session.wait(for: "Moby Dick"))
            try session.send(":\u{15}sort:bogus\r")
            XCTAssertTrue(try session.wait(for: "unknown sort order"), session.screen.last ?? "")
            try session.send("x")
            XCTAssertTrue(try session.wait(for: "sort:bogusx▏"), "the prompt, its text whole: \(session.screen.last ?? "")")
            try session.send("\u{15}austen language:en sort:ascending topic:fiction")
            XCTAssertTrue(try session.wait(for: "topic:fiction▏"), "the cursor in view: \(session.screen.last ?? "")")
            try session.send("\u{1B}")
            try quit(session)
        }
    }
}
