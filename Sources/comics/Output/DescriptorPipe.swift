import ComicsKit
import Glibc

/// A pipe whose ends this process keeps only as long as it needs them,
/// and no child inherits unless handed one.
final class DescriptorPipe {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32

    /// `nonBlocking`: neither end ever blocks this process (a wake-up or
    /// signal pipe); otherwise each end blocks until made non-blocking.
    init?(nonBlocking: Bool = false) {
        guard let ends = closeOnExecPipe() else { return nil }
        (readEnd, writeEnd) = ends
        if nonBlocking { [readEnd, writeEnd].forEach(Self.makeNonBlocking) }
    }

    /// An end this process keeps must never block it; a child's blocks as usual.
    static func makeNonBlocking(_ end: Int32) {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }

    func closeReadEnd() {
        if readEnd >= 0 { close(readEnd) }
        readEnd = -1
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    deinit {
        closeReadEnd()
        closeWriteEnd()
    }
}
