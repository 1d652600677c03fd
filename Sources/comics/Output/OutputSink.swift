import ComicsKit
import Glibc

/// Writes to stdout and stderr with plain `write(2)`, so that a closed pipe
/// (`comics list | head -1`) ends the command quietly and a full disk is
/// reported instead of being lost in a buffer.
enum OutputSink {
    /// Thrown when the reader has gone away: not an error worth a message.
    struct BrokenPipe: Error {}

    /// Set when stdout was closed at start, and /dev/null stands in for it.
    nonisolated(unsafe) private static var stdoutWasClosed = false

    /// Opens /dev/null on each of fds 0, 1 and 2 that is closed, so that no
    /// file comics opens (the database, a picture) can take their number.
    static func occupyClosedStandardStreams() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == STDOUT_FILENO { stdoutWasClosed = true }
        }
    }

    /// Output held for the pager while the command runs; nil when written at once.
    nonisolated(unsafe) private static var held: String?

    /// From now on stdout is held, for `releaseHeld` to page.
    static func holdStdout() { held = "" }

    /// What was held, and stdout written at once again.
    static func releaseHeld() -> String {
        defer { held = nil }
        return held ?? ""
    }

    static func writeStdout(_ text: String) throws {
        guard !stdoutWasClosed else { throw ComicsError.unexpected("cannot write output: standard output is closed") }
        if held != nil {
            held? += text
            return
        }
        try write(text, to: STDOUT_FILENO)
    }

    static func write(_ text: String, to descriptor: Int32) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw BrokenPipe() }
                throw ComicsError.unexpected("cannot write output: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        bytes.removeAll()
    }

    /// Diagnostics, each line cleaned of every control and escape sequence
    /// whoever built it: nothing from outside reaches the terminal raw.
    /// Failures to write are ignored (there is nowhere left to say so).
    static func writeStderr(_ text: String) {
        writeStderrRaw(TerminalText.sanitize(text))
    }

    /// comics' own terminal control (a progress line's `\r` and erase).
    static func writeStderrRaw(_ text: String) {
        try? write(text, to: STDERR_FILENO)
    }
}
