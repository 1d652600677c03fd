@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Writers killed at random moments and processes racing each other: the
/// database stays whole and no favourite is ever lost. `COMICS_CRASH_RUNS`
/// and `COMICS_CONCURRENCY_SECONDS` raise the counts for a soak run (`make soak`).
final class CrashAndConcurrencyTests: EndToEndTestCase {
    private static let crashRuns = ProcessInfo.processInfo.environment["COMICS_CRASH_RUNS"].flatMap(Int.init) ?? 50
    private static let concurrencySeconds = ProcessInfo.processInfo.environment["COMICS_CONCURRENCY_SECONDS"].flatMap(Int.init) ?? 8

    private let baseFavourites = ["xkcd:1", "xkcd:2", "xkcd:3", "books:1342"]

    private func addBaseFavourites() throws {
        for ref in baseFavourites {
            XCTAssertEqual(try comics.run(["fav", "add", ref]).status, 0)
        }
    }

    private func assertWholeWithEveryFavourite(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let probe = try DatabaseProbe(path: comics.databasePath)
        XCTAssertEqual(try probe.scalar("PRAGMA integrity_check"), "ok", label, file: file, line: line)
        let favourites = Set(try probe.rows("SELECT source || ':' || id FROM favorites").map { $0[0] })
        XCTAssertTrue(favourites.isSuperset(of: baseFavourites), "\(label): \(favourites.sorted())", file: file, line: line)
    }

    func testKillingWritersAtRandomMomentsLosesNothing() throws {
        try addBaseFavourites()
        let importFile = comics.home.file("import.csv")
        try Data(("source,id\n" + (100..<180).map { "xkcd,\($0)\n" }.joined()).utf8).write(to: URL(fileURLWithPath: importFile))
        let writers: [[String]] = [
            ["list", "-n", "150", "--refresh"],
            ["fav", "import", importFile],
            ["cleanup", "--max-age", "0s"],
            ["-s", "books", "more"],
        ]
        var generator = SystemRandomNumberGenerator()
        for run in 0..<Self.crashRuns {
            let writer = writers[run % writers.count]
            let running = try comics.start(writer)
            usleep(UInt32.random(in: 0...400_000, using: &generator))
            running.killAtOnce()
            try assertWholeWithEveryFavourite("after killing '\(writer.joined(separator: " "))' (run \(run + 1))")
        }
        XCTAssertTrue(comics.waitForBackgroundWork())
        let again = try comics.run(["list", "-n", "150", "--refresh"])
        XCTAssertEqual(again.status, 0, "a rerun after the kills is safe: \(again)")
        try assertWholeWithEveryFavourite("after a clean rerun")
    }

    /// Six commands started together on a database that does not exist
    /// yet, round after round: a file another process is still creating is
    /// never taken for a foreign one, and every command succeeds.
    func testFirstUseBySixProcessesAtOnce() throws {
        let rounds = ProcessInfo.processInfo.environment["COMICS_FIRST_USE_ROUNDS"].flatMap(Int.init) ?? 60
        let commands = [["list"], ["-s", "books", "list"], ["show", "5"], ["cleanup"], ["fav", "add", "7"], ["more"]]
        for round in 0..<rounds {
            try FileManager.default.createDirectory(atPath: comics.home.file("round-\(round)"), withIntermediateDirectories: true)
            comics.environment["COMICS_DB"] = comics.home.file("round-\(round)/comics.db")
            for (command, result) in zip(commands, try comics.runTogether(commands)) {
                XCTAssertEqual(result.status, 0, "round \(round + 1), \(command.joined(separator: " ")): \(result)")
            }
            XCTAssertTrue(comics.waitForBackgroundWork())
            let probe = try DatabaseProbe(path: comics.databasePath)
            XCTAssertEqual(try probe.count("PRAGMA user_version"), Migrations.all.count)
            XCTAssertEqual(try probe.count("SELECT count(*) FROM schema_migrations"), Migrations.all.count, "migrated once")
            XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 1)
        }
    }

    func testFourProcessesInLoopsAllSucceed() throws {
        try addBaseFavourites()
        XCTAssertEqual(try comics.run(["list"]).status, 0)
        let script = """
            end=$((SECONDS + \(Self.concurrencySeconds)))
            loop() {
                local runs=0
                while ((SECONDS < end)); do
                    for command in "$@"; do
                        $command > /dev/null 2>> errors || echo "exit $?: $command" >> failures
                    done
                    runs=$((runs + 1))
                done
                echo "$runs" >> runs
            }
            loop '"$COMICS" -s xkcd list' '"$COMICS" -s xkcd more' &
            loop '"$COMICS" -s books list --refresh' &
            loop '"$COMICS" fav add xkcd:150' '"$COMICS" fav remove xkcd:150' '"$COMICS" fav list' &
            loop '"$COMICS" cleanup --max-items 5' &
            wait
            cat failures 2> /dev/null
            cat errors 2> /dev/null
            """
        // The loops run for the seconds asked, then finish their round.
        let result = try comics.shell(
            script.replacingOccurrences(of: "$command >", with: "eval \"$command\" >"),
            timeout: TimeInterval(Self.concurrencySeconds + 60))
        XCTAssertEqual(result.stdout, "", "every exit code 0, nothing on stderr")
        XCTAssertFalse(result.stdout.contains("locked"))
        let runs = try String(contentsOfFile: comics.home.file("runs"), encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        XCTAssertEqual(runs.count, 4)
        XCTAssertTrue(runs.allSatisfy { $0 > 0 }, "every loop ran: \(runs)")
        try assertWholeWithEveryFavourite("after \(Self.concurrencySeconds) s of four loops")
    }
}
