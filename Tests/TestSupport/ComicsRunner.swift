import ComicsKit
import Foundation

/// What one run of the built `comics` binary did.
public struct RunResult: CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Line `index` of stdout, or "" when there are fewer lines.
    public func line(_ index: Int) -> String {
        let lines = stdoutLines
        return index < lines.count ? lines[index] : ""
    }
}

/// Runs the built `comics` binary as a user would, in an isolated
/// environment: its own HOME and database, the fixture server as upstream.
public final class ComicsRunner {
    public let home: TemporaryDirectory
    public var environment: [String: String]
    /// Where comics keeps its database in this environment: COMICS_DB, or
    /// the default under HOME, as comics itself decides.
    public var databasePath: String {
        environment["COMICS_DB"] ?? "\(environment["HOME"] ?? home.path)/.local/share/comics/comics.db"
    }

    /// False under `make sanitize`: libfaketime, preloaded ahead of a
    /// sanitizer's runtime, recurses in clock_gettime and hangs the process.
    public static var canAgeTheClock: Bool {
        ProcessInfo.processInfo.environment["COMICS_TEST_SANITIZER"] == nil
    }

    /// False under `make sanitize`: a sanitizer's shadow memory and
    /// quarantine make peak memory several times what comics itself uses.
    public static var peakMemoryMeansComics: Bool {
        ProcessInfo.processInfo.environment["COMICS_TEST_SANITIZER"] == nil
    }

    /// The `comics` executable SwiftPM built beside the test bundle.
    public static var executable: String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("comics").path
    }

    public init(server: FixtureServer?) throws {
        home = try TemporaryDirectory()
        // An explicit database path's folder must exist, as for any user.
        try FileManager.default.createDirectory(atPath: home.file("data"), withIntermediateDirectories: true)
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "COMICS_DB": home.file("data/comics.db"),
            "COMICS_XKCD_URL": server?.baseURL ?? "http://127.0.0.1:9",
            "COMICS_GUTENDEX_URL": server?.baseURL ?? "http://127.0.0.1:9",
            "COMICS_GUTENBERG_URL": server?.baseURL ?? "http://127.0.0.1:9",
            "LANG": "C.UTF-8",
            // A terminal in a test (through `script`) must never wait in less.
            "PAGER": "cat",
        ]
    }

    /// Runs `comics ARGUMENTS`; `clockOffset` (such as "+2h") runs it
    /// under libfaketime, so the cache ages without anyone sleeping.
    @discardableResult
    public func run(_ arguments: [String], clockOffset: String? = nil, stdin: String? = nil, timeout: TimeInterval = 60) throws -> RunResult {
        try start(arguments, clockOffset: clockOffset, stdin: stdin).finish(timeout: timeout)
    }

    /// Runs several commands at the same time and returns their results in order.
    public func runTogether(_ commands: [[String]], timeout: TimeInterval = 60) throws -> [RunResult] {
        let running = try commands.map { try start($0) }
        return try running.map { try $0.finish(timeout: timeout) }
    }

    /// Runs `comics ARGUMENTS` and says how long it took and its peak
    /// resident memory (through Python's `resource`): for bounds set
    /// generously, as figures, never as tight timings.
    public func measured(_ arguments: [String], timeout: TimeInterval = 120) throws -> (result: RunResult, seconds: Double, peakMiB: Int) {
        let figures = home.file("measured-\(UUID().uuidString)")
        let script = """
            import resource, subprocess, sys, time
            started = time.monotonic()
            code = subprocess.call(sys.argv[2:])
            with open(sys.argv[1], "w") as out:
                out.write("%f %d" % (time.monotonic() - started, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))
            sys.exit(code)
            """
        let result = try RunningComics(
            executable: "/usr/bin/python3", arguments: ["-c", script, figures, Self.executable] + arguments, environment: environment,
            directory: home, stdin: nil, label: arguments.joined(separator: " ")
        ).finish(timeout: timeout)
        let words = (try String(contentsOfFile: figures, encoding: .utf8)).split(separator: " ")
        return (result, Double(words.first ?? "") ?? .infinity, Int(words.last ?? "") ?? .max)
    }

    /// A shell command line, with `comics` standing for the binary under test.
    public func shell(_ script: String, timeout: TimeInterval = 60) throws -> RunResult {
        var environment = self.environment
        environment["COMICS"] = Self.executable
        return try RunningComics(
            executable: "/bin/bash", arguments: ["-c", script], environment: environment,
            directory: home, stdin: nil, label: script
        ).finish(timeout: timeout)
    }

    /// Starts `comics ARGUMENTS` without waiting for it.
    public func start(_ arguments: [String], clockOffset: String? = nil, stdin: String? = nil) throws -> RunningComics {
        if let clockOffset {
            guard Self.canAgeTheClock else {
                throw FixtureError("call requireClockControl() first: faketime cannot run a sanitized binary")
            }
            Self.removeFaketimeLeftovers()
            return try RunningComics(
                executable: "/usr/bin/faketime", arguments: ["-f", clockOffset, Self.executable] + arguments,
                environment: environment, directory: home, stdin: stdin, label: arguments.joined(separator: " "))
        }
        return try RunningComics(
            executable: Self.executable, arguments: arguments, environment: environment, directory: home,
            stdin: stdin, label: arguments.joined(separator: " "))
    }

    /// faketime names its semaphore and shared memory after its pid and
    /// creates them exclusively; a process killed (or a detached child
    /// whose faketime had ended) leaves them in /dev/shm, and a later
    /// faketime given the same pid refuses to start ("sem_open: File
    /// exists"). Those of processes that no longer run are removed.
    private static func removeFaketimeLeftovers() {
        let folder = "/dev/shm"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard name.hasPrefix("faketime_shm_") || name.hasPrefix("sem.faketime_sem_"),
                  let pid = pid_t(name.split(separator: "_").last ?? ""),
                  kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink("\(folder)/\(name)")
        }
    }

    /// Waits until a detached background job holds its lock; false if none did in time.
    public func waitForBackgroundWorkToStart(timeout: TimeInterval = 20) -> Bool {
        let lockPath = BackgroundLauncher(databasePath: databasePath).lockPath
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let descriptor = open(lockPath, O_RDWR | O_CLOEXEC)
            if descriptor >= 0 {
                defer { close(descriptor) }
                if flock(descriptor, LOCK_EX | LOCK_NB) != 0 { return true }
                flock(descriptor, LOCK_UN)
            }
            usleep(10_000)
        }
        return false
    }

    /// Waits for the detached background refresh, if one is running.
    public func waitForBackgroundWork(timeout: TimeInterval = 30) -> Bool {
        BackgroundLauncher(databasePath: databasePath).waitForIdle(timeout: timeout)
    }
}

/// A started process whose output goes to files (no pipe can fill up and stall it).
public final class RunningComics {
    private let process: ChildProcess
    private let stdoutPath: String
    private let stderrPath: String
    private let label: String

    init(executable: String, arguments: [String], environment: [String: String], directory: TemporaryDirectory,
         stdin: String?, label: String) throws {
        self.label = label
        let name = UUID().uuidString
        stdoutPath = directory.file("stdout-\(name)")
        stderrPath = directory.file("stderr-\(name)")
        let stdinPath = directory.file("stdin-\(name)")
        guard FileManager.default.createFile(atPath: stdoutPath, contents: nil),
              FileManager.default.createFile(atPath: stderrPath, contents: nil),
              stdin == nil || FileManager.default.createFile(atPath: stdinPath, contents: Data((stdin ?? "").utf8))
        else { throw FixtureError("cannot create output files in \(directory.path)") }
        defer { try? FileManager.default.removeItem(atPath: stdinPath) }
        let output = open(stdoutPath, O_WRONLY | O_CLOEXEC)
        let errors = open(stderrPath, O_WRONLY | O_CLOEXEC)
        let input = stdin == nil ? -1 : open(stdinPath, O_RDONLY | O_CLOEXEC)
        defer { [output, errors, input].filter { $0 >= 0 }.forEach { close($0) } }
        guard output >= 0, errors >= 0, stdin == nil || input >= 0 else { throw FixtureError("cannot open the output files") }
        process = try ChildProcess(
            executable, arguments, environment: environment, directory: directory.path,
            stdin: input >= 0 ? input : nil, stdout: output, stderr: errors)
    }

    /// Waits until stdout holds `count` lines; false if it did not in time.
    public func waitForStdoutLines(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").count >= count { return true }
            usleep(10_000)
        }
        return false
    }

    /// Ends the process at once, as a crash or `kill -9` would, and reaps it.
    public func killAtOnce() {
        process.signal(SIGKILL)
        process.waitForExit()
    }

    public func finish(timeout: TimeInterval) throws -> RunResult {
        defer {
            try? FileManager.default.removeItem(atPath: stdoutPath)
            try? FileManager.default.removeItem(atPath: stderrPath)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            usleep(5_000)
        }
        if process.isRunning {
            process.signal(SIGTERM)
            throw FixtureError("comics \(label) ran longer than \(timeout) s")
        }
        return RunResult(
            status: process.waitForExit(),
            stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }
}
