import XCTest

/// A test of the built binary: a fresh loopback server and an isolated
/// home for each test, and no background refresh left running after it.
open class EndToEndTestCase: XCTestCase {
    public private(set) var server: FixtureServer!
    public private(set) var comics: ComicsRunner!

    open override func setUpWithError() throws {
        server = try FixtureServer()
        comics = try ComicsRunner(server: server)
    }

    /// Skips a test that ages the cache with faketime where that cannot run.
    public func requireClockControl() throws {
        guard ComicsRunner.canAgeTheClock else { throw XCTSkip("faketime cannot run a sanitized comics") }
    }

    /// Leaves the reader (or browse) with `q` and checks it ended well.
    public func quitReader(_ session: TerminalSession, file: StaticString = #filePath, line: UInt = #line) throws {
        try session.send("q")
        let ended = try XCTUnwrap(try session.finish(), "the reader did not end", file: file, line: line)
        XCTAssertEqual(ended.status, 0, file: file, line: line)
    }

    /// XCTest keeps every test case object until the run ends: letting go
    /// of the server and the runner here closes their pipes and sockets,
    /// which would otherwise pile up by the hundred in one test process.
    open override func tearDown() {
        _ = comics.waitForBackgroundWork()
        server.stop()
        server = nil
        comics = nil
    }
}
