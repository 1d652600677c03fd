import ComicsKit
import Foundation
import Glibc

/// A process started with posix_spawn, for the tests. Foundation's
/// `Process` reads /proc/self/fd into a buffer that AddressSanitizer
/// reports overflowing once a suite has opened many descriptors, so
/// `make sanitize` could not run the end-to-end tests through it.
public final class ChildProcess {
    public let pid: pid_t
    private var exitStatus: Int32?

    /// `stdin`, `stdout` and `stderr` are descriptors the child gets as 0,
    /// 1 and 2 (nil: /dev/null). Nothing else this process has open is
    /// inherited but what is not close-on-exec.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
        }
        // glibc's addchdir_np is not visible to Swift: GNU env changes directory, then executes.
        let command = directory.map { ["/usr/bin/env", "-C", $0, executable] } ?? [executable]
        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var child = pid_t()
        let status = withCStrings(command + arguments) { argv in
            withCStrings(environmentLines) { envp in posix_spawnp(&child, command[0], &actions, nil, argv, envp) }
        }
        guard status == 0 else { throw FixtureError("cannot start \(executable): \(String(cString: strerror(status)))") }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    public var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = Self.decode(status)
        return false
    }

    /// The exit code, or the number of the signal that ended it (as Foundation's `Process` says).
    @discardableResult
    public func waitForExit() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let decoded = Self.decode(status)
        exitStatus = decoded
        return decoded
    }

    public func signal(_ number: Int32) {
        if exitStatus == nil { kill(pid, number) }
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }
}

/// A pipe whose ends are closed on exec: a child gets one only as 0, 1 or 2.
public final class TestPipe {
    public private(set) var readEnd: Int32
    public private(set) var writeEnd: Int32

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw FixtureError("cannot make a pipe") }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }

    deinit {
        closeReadEnd()
        closeWriteEnd()
    }

    public func closeReadEnd() {
        if readEnd >= 0 { close(readEnd) }
        readEnd = -1
    }

    public func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// Reads up to a newline or the end, whichever comes first.
    public func readLine() -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
