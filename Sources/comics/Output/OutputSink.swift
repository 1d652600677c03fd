import ComicsKit
import Foundation

/// Writes to stdout and stderr with plain `write(2)`, so that a closed pipe
/// (`comics list | head -1`) ends the command quietly and a full disk is
/// reported instead of being lost in a buffer.
enum OutputSink {
    /// Thrown when the reader has gone away: not an error worth a message.
    struct BrokenPipe: Error {}

    static func writeStdout(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
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

    /// Diagnostics; failures to write them are ignored (there is nowhere left to say so).
    static func writeStderr(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
