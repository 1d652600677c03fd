import ComicsKit
import Glibc

/// Signals browse answers, turned into bytes on a pipe the input loop
/// polls: a handler may do almost nothing, and the terminal is given back
/// by the loop, not from inside a handler. Ctrl-Z (SIGTSTP) is left to
/// ncurses, which gives the terminal back, stops, and repaints on `fg`.
enum BrowseSignals {
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var signalPipe: DescriptorPipe?

    static func install() throws {
        guard readEnd < 0 else { return }
        guard let pipe = DescriptorPipe(nonBlocking: true) else { throw ComicsError.unexpected("cannot make a pipe for signals") }
        // Kept for the life of the process: a handler may write at any time.
        signalPipe = pipe
        readEnd = pipe.readEnd
        writeEnd = pipe.writeEnd
        for number in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(BrowseSignals.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The most urgent signal that arrived, if any: an ending one over a resize.
    static func take() -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 64)
        var arrived: [Int32] = []
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            arrived += buffer[0..<count].map { Int32($0) }
        }
        return arrived.first { $0 != SIGWINCH } ?? arrived.first
    }
}
