import ComicsKit
import Foundation
import TestSupport
import XCTest

/// `make demo`: comics without the network, against the fixture server,
/// leaving nothing behind.
final class DemoTests: XCTestCase {
    func testTheDemoServesTheFixturesAndRemovesWhatItMade() throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.file("out")
        FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: output))
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        let demo = try ChildProcess(
            "/bin/bash", [Fixtures.path("demo.sh"), ComicsRunner.executable, "search", "tables", "-f", "ndjson"],
            environment: environment, stdout: handle.fileDescriptor)
        XCTAssertEqual(demo.waitForExit(), 0)
        try handle.close()
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "", "nothing cached yet: a scratch database")
        let listed = try ChildProcess(
            "/bin/bash", ["-c", "\"$0\" \"$1\" list -n 3 > \"$2\" && \"$0\" \"$1\" -s books list -n 1 >> \"$2\"",
                          Fixtures.path("demo.sh"), ComicsRunner.executable, output],
            environment: environment)
        XCTAssertEqual(listed.waitForExit(), 0)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 6, "\(lines)")
        XCTAssertTrue(lines[1].hasSuffix("Bill Nye"), "\(lines)")
        XCTAssertEqual(lines.last, "  2701 Melville, Herman Moby Dick; Or, The Whale", "the fixture books too")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0 != "out" }
        XCTAssertEqual(left, [], "the demo's scratch folder and its server are gone")
    }
}
