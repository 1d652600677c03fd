import ComicsKit
import Foundation
import Glibc

/// `comics` in a pseudo-terminal of a fixed size, its screen read back
/// through a terminal emulator (Tests/Fixtures/terminal.py, pyte): what a
/// person would see, after the keys a person would press.
public final class TerminalSession {
    /// The screen after the last step: one string a row.
    public private(set) var screen: [String] = []
    public private(set) var isAlive = true
    /// Cells of the screen with a background colour other than the default.
    public private(set) var coloredCells = 0
    private let process: ChildProcess
    private let commands: TestPipe
    private let answers: TestPipe

    /// Starts `arguments` with the runner's environment (and database).
    public init(_ runner: ComicsRunner, _ arguments: [String], rows: Int = 20, columns: Int = 80) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw FixtureError("the terminal tests need Debian's /usr/bin/python3 with python3-pyte")
        }
        commands = try TestPipe()
        answers = try TestPipe()
        process = try ChildProcess(
            "/usr/bin/python3", [Fixtures.path("terminal.py")],
            stdin: commands.readEnd, stdout: answers.writeEnd, stderr: STDERR_FILENO)
        commands.closeReadEnd()
        answers.closeWriteEnd()
        var environment = runner.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        try step(.object([
            ("op", .string("start")), ("argv", .array(([ComicsRunner.executable] + arguments).map(JSONValue.string))),
            ("env", .object(environment.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("rows", .int(rows)), ("columns", .int(columns)),
        ]))
    }

    deinit {
        commands.closeWriteEnd()
        process.waitForExit()
    }

    /// Types `text` (escape sequences included).
    public func send(_ text: String) throws {
        try step(.object([("op", .string("send")), ("text", .string(text))]))
    }

    /// Waits until the screen shows `text`; false if it did not in time.
    @discardableResult
    public func wait(for text: String, timeout: Double = 10) throws -> Bool {
        try step(.object([("op", .string("wait")), ("text", .string(text)), ("timeout", .double(timeout))]))
    }

    /// Waits until the screen no longer shows `text`.
    @discardableResult
    public func wait(whileShowing text: String, timeout: Double = 10) throws -> Bool {
        try step(.object([("op", .string("wait_gone")), ("text", .string(text)), ("timeout", .double(timeout))]))
    }

    /// Waits until the screen, read once output settles, is as `isDone`
    /// asks (what no one string says, such as a picture's rows).
    public func wait(until isDone: (TerminalSession) -> Bool, timeout: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            try step(.object([("op", .string("screen"))]))
            if isDone(self) { return true }
        } while Date() < deadline
        return false
    }

    /// Waits until the program has written `text` at least `count` times
    /// in all (what the emulator cannot show, such as graphics).
    @discardableResult
    public func wait(forOutput text: String, count: Int = 1, timeout: Double = 10) throws -> Bool {
        try step(.object([
            ("op", .string("wait_raw")), ("text", .string(text)), ("count", .int(count)), ("timeout", .double(timeout)),
        ]))
    }

    public func resize(rows: Int, columns: Int) throws {
        try step(.object([("op", .string("resize")), ("rows", .int(rows)), ("columns", .int(columns))]))
    }

    public func signal(_ name: String) throws {
        try step(.object([("op", .string("signal")), ("name", .string(name))]))
    }

    /// Waits for the program to end: its exit status, and whether the
    /// terminal's modes (what `stty -g` prints) are as they were before it.
    public func finish(timeout: Double = 10) throws -> (status: Int, modesRestored: Bool)? {
        let reply = try request(.object([("op", .string("finish")), ("timeout", .double(timeout))]))
        guard reply["ok"] == .bool(true), let status = reply["status"]?.intValue else { return nil }
        return (status, reply["modes_restored"] == .bool(true))
    }

    /// The row of the screen holding `text`.
    public func row(containing text: String) -> String? {
        screen.first { $0.contains(text) }
    }

    @discardableResult
    private func step(_ command: JSONValue) throws -> Bool {
        try request(command)["ok"] == .bool(true)
    }

    private func request(_ command: JSONValue) throws -> JSONValue {
        let line = Array((command.serialized + "\n").utf8)
        guard line.withUnsafeBytes({ write(commands.writeEnd, $0.baseAddress, $0.count) }) == line.count else {
            throw FixtureError("the terminal driver is gone")
        }
        let reply = try JSONValue.parse(answers.readLine())
        if case let .array(rows)? = reply["screen"] { screen = rows.compactMap(\.stringValue) }
        isAlive = reply["alive"] == .bool(true)
        coloredCells = reply["colored_cells"]?.intValue ?? 0
        return reply
    }
}
