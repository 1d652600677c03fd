import ComicsKit
import Glibc

/// Signals browse answers, turned into bytes on a pipe the input loop
/// polls: a handler may do almost nothing, and the terminal is given back
/// by the loop, not from inside a handler. Ctrl-Z (SIGTSTP) too: ncurses'
/// own handler could run on any of browse's threads, in the middle of the
/// main thread's drawing, and the stop was sometimes lost; the loop gives
/// the terminal back, stops, and takes it again on `fg`.
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
        for number in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP] { catchThroughPipe(number) }
    }

    private static func catchThroughPipe(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(BrowseSignals.writeEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    /// Stops the process as Ctrl-Z would have, from the main thread, and
    /// returns once it is continued (`fg`), catching the next Ctrl-Z again.
    static func stopUntilContinued() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        catchThroughPipe(SIGTSTP)
    }

    /// The most urgent signal that arrived, if any: an ending one, then a
    /// stop, then a resize.
    static func take() -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 64)
        var arrived: [Int32] = []
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            arrived += buffer[0..<count].map { Int32($0) }
        }
        return arrived.first { $0 != SIGWINCH && $0 != SIGTSTP } ?? arrived.first { $0 == SIGTSTP } ?? arrived.first
    }
}
