import ComicsKit
import Foundation
import TestSupport
import XCTest

/// Every upstream fault against every command that touches the network,
/// with nothing cached and with a stale copy cached: the exit code the spec
/// gives, one line on stderr naming the cause, stale data served where there
/// is some, the database unchanged (but for a favourite, kept to be fetched
/// later), and no wait beyond the documented deadline. A fault or a command is one line of the tables below.
final class FaultMatrixTests: EndToEndTestCase {
    /// A command that reaches the network when its data is missing or stale.
    private struct NetworkCommand {
        let name: String
        let arguments: [String]
        /// Run once, without faults, to cache what the stale case serves.
        let warmUp: [[String]]
        /// Run `--offline` before each stale run, so it asks for the same data.
        var rewind: [[String]] = []
        /// A favourite of an uncached item has no stale case: it fetches only when missing.
        var hasStaleCase = true
        /// A favourite is recorded without its item (`source|id`) when it cannot be fetched.
        var favoriteKeptWithoutItem: String?
    }

    private struct Fault {
        let name: String
        /// The `/__control` command that switches it on; nil for a server that is gone.
        let control: JSONValue?
    }

    private static let commands: [NetworkCommand] = [
        NetworkCommand(name: "xkcd list", arguments: ["list", "-n", "3"], warmUp: [["list", "-n", "3"]]),
        // Comics after the newest are known by number: a cached later page needs no request, so no stale case.
        NetworkCommand(name: "xkcd more", arguments: ["more", "-n", "3"], warmUp: [], hasStaleCase: false),
        NetworkCommand(name: "xkcd show", arguments: ["show", "150"], warmUp: [["show", "150"]]),
        NetworkCommand(
            name: "xkcd fav", arguments: ["fav", "add", "150"], warmUp: [], hasStaleCase: false,
            favoriteKeptWithoutItem: "xkcd|150"),
        NetworkCommand(name: "books list", arguments: ["-s", "books", "list"], warmUp: [["-s", "books", "list"]]),
        NetworkCommand(
            name: "books more", arguments: ["-s", "books", "more"], warmUp: [["-s", "books", "list"], ["-s", "books", "more"]],
            rewind: [["-s", "books", "list"]]),
        NetworkCommand(name: "books show", arguments: ["show", "books:1342"], warmUp: [["show", "books:1342"]]),
        NetworkCommand(
            name: "books fav", arguments: ["fav", "add", "books:84"], warmUp: [], hasStaleCase: false,
            favoriteKeptWithoutItem: "books|84"),
    ]

    private static func fault(_ name: String, retryAfter: String? = nil) -> Fault {
        var members: [(String, JSONValue)] = [("fault", .string(name))]
        if let retryAfter { members.append(("retry_after", .string(retryAfter))) }
        return Fault(name: retryAfter.map { "\(name) (Retry-After: \($0))" } ?? name, control: .object(members))
    }

    private static var faults: [Fault] {
        [
            Fault(name: "connection refused", control: nil),
            fault("refuse"),
            fault("500"), fault("502"), fault("503"),
            fault("429", retryAfter: "1"),
            fault("429", retryAfter: Date().addingTimeInterval(2).formatted(
                Date.VerbatimFormatStyle(
                    format: "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
                    locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!, calendar: Calendar(identifier: .gregorian)))),
            fault("429", retryAfter: "whenever you like"),
            fault("429", retryAfter: "86400"),
            fault("truncated"), fault("html"), fault("types"), fault("utf8"), fault("deep"), fault("huge"),
            fault("redirect:http://example.invalid/elsewhere"), fault("redirect:file:///etc/passwd"), fault("redirect-loop"),
        ]
    }

    /// The most one command may take: the documented deadline for
    /// everything a command fetches at once (45 s), with room for start-up.
    private static let deadline: TimeInterval = 50

    func testEveryFaultAgainstEveryNetworkCommand() throws {
        // Under a sanitizer the clock cannot be aged, so only the empty cache is tried.
        let stale = try Self.commands.filter { $0.hasStaleCase && ComicsRunner.canAgeTheClock }
            .map { command in (command, try warmedRunner(for: command)) }
        for fault in Self.faults {
            let empty = try Self.commands.map { command in (command, try ComicsRunner(server: server)) }
            for (command, runner) in stale {
                for rewind in command.rewind {
                    XCTAssertEqual(try runner.run(["--offline"] + rewind).status, 0)
                }
            }
            let dumpsBefore = try stale.map { try dump($0.1) }
            if let control = fault.control {
                try server.control(control)
            }
            for runner in empty.map(\.1) + stale.map(\.1) where fault.control == nil {
                runner.environment["COMICS_XKCD_URL"] = "http://127.0.0.1:9"
                runner.environment["COMICS_GUTENDEX_URL"] = "http://127.0.0.1:9"
            }

            let started = Date()
            let running = try empty.map { try $0.1.start($0.0.arguments) }
                + stale.map { try $0.1.start(["--refresh"] + $0.0.arguments, clockOffset: "+2d") }
            let results = try running.map { try $0.finish(timeout: Self.deadline + 10) }
            let elapsed = Date().timeIntervalSince(started)
            // A refresh a command left to the background meets the same fault.
            for runner in empty.map(\.1) + stale.map(\.1) {
                XCTAssertTrue(runner.waitForBackgroundWork(), "\(fault.name): the background work ended")
            }
            try server.control(.object([("reset", .bool(true))]))
            for runner in empty.map(\.1) + stale.map(\.1) {
                runner.environment["COMICS_XKCD_URL"] = server.baseURL
                runner.environment["COMICS_GUTENDEX_URL"] = server.baseURL
            }

            XCTAssertLessThan(elapsed, Self.deadline, "\(fault.name) took \(Int(elapsed)) s")
            for ((command, runner), result) in zip(empty, results) {
                let label = "\(fault.name) × \(command.name), nothing cached"
                if let favorite = command.favoriteKeptWithoutItem {
                    XCTAssertEqual(result.status, 0, "\(label): \(result)")
                    XCTAssertTrue(result.stdout.hasPrefix("★ added "), "\(label): \(result)")
                    assertOneLine(result.stderr, prefix: "comics: warning: ", label)
                    XCTAssertTrue(result.stderr.hasSuffix("is not cached yet; it will be fetched when the network is back\n"), label)
                    XCTAssertEqual(try dump(runner), "items:\nfavorites:\n\(favorite)\npages:\n", "\(label): the favourite alone")
                    continue
                }
                XCTAssertEqual(result.status, 4, "\(label): \(result)")
                XCTAssertEqual(result.stdout, "", label)
                assertOneLine(result.stderr, prefix: "comics: error: ", label)
                XCTAssertEqual(try dump(runner), "items:\nfavorites:\npages:\n", "\(label): nothing written")
            }
            for (((command, runner), result), before) in zip(zip(stale, results.suffix(stale.count)), dumpsBefore) {
                let label = "\(fault.name) × \(command.name), stale copy cached"
                XCTAssertEqual(result.status, 0, "\(label): \(result)")
                XCTAssertFalse(result.stdout.isEmpty, label)
                assertOneLine(result.stderr, prefix: "comics: warning: ", label)
                XCTAssertTrue(result.stderr.contains("showing the copy cached 2 days ago"), "\(label): \(result.stderr)")
                XCTAssertEqual(try dump(runner), before, "\(label): the database is unchanged")
            }
        }
    }

    /// A server that sends one byte a second is dropped by the low-speed
    /// limit and the command's deadline, not waited for.
    func testAStalledTransferEndsWithinTheDeadline() throws {
        try server.control(.object([("fault", .string("stall"))]))
        let started = Date()
        let result = try comics.run(["show", "150"], timeout: Self.deadline + 10)
        XCTAssertLessThan(Date().timeIntervalSince(started), Self.deadline)
        XCTAssertEqual(result.status, 4, "\(result)")
        assertOneLine(result.stderr, prefix: "comics: error: ", "stall")
        XCTAssertTrue(result.stderr.contains("did not answer in time"), result.stderr)
        try server.control(.object([("reset", .bool(true))]))
    }

    /// A runner whose cache holds what `command` asks for, with the daily
    /// cleanup off so the database changes only if a command changes it.
    private func warmedRunner(for command: NetworkCommand) throws -> ComicsRunner {
        let runner = try ComicsRunner(server: server)
        XCTAssertEqual(try runner.run(["config", "set", "auto-cleanup", "off"]).status, 0)
        for arguments in command.warmUp {
            let result = try runner.run(arguments)
            XCTAssertEqual(result.status, 0, "warming \(command.name): \(result)")
        }
        return runner
    }

    /// What a fault must never change: items, favourites and pages.
    private func dump(_ runner: ComicsRunner) throws -> String {
        guard FileManager.default.fileExists(atPath: runner.databasePath) else { return "items:\nfavorites:\npages:\n" }
        let probe = try DatabaseProbe(path: runner.databasePath)
        let tables = [
            ("items", "SELECT source, id, title, attributes, cached_at, etag FROM items ORDER BY source, id"),
            ("favorites", "SELECT source, id FROM favorites ORDER BY source, id"),
            ("pages", "SELECT source, query, position, item_ids, fetched_at FROM pages ORDER BY source, query, position"),
        ]
        return try tables.map { name, sql in
            "\(name):\n" + (try probe.rows(sql).map { $0.joined(separator: "|") + "\n" }.joined())
        }.joined()
    }

    private func assertOneLine(_ stderr: String, prefix: String, _ label: String, line: UInt = #line) {
        XCTAssertTrue(stderr.hasPrefix(prefix), "\(label): \(stderr)", line: line)
        XCTAssertEqual(stderr.filter { $0 == "\n" }.count, 1, "\(label): one line: \(stderr)", line: line)
        for trace in ["Fatal error", "Backtrace", "Stack dump", "Crash"] {
            XCTAssertFalse(stderr.contains(trace), "\(label): \(stderr)", line: line)
        }
    }
}
