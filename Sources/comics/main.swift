import ComicsKit
import Glibc

// A reader that goes away (`comics list | head -1`) must end the command
// quietly, through EPIPE, not kill it mid-transaction with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// With stdin, stdout or stderr closed (`comics cleanup >&- 2>&-` from a
// careless cron line) the next file opened would take that number, and
// output meant for the terminal would be written into it.
OutputSink.occupyClosedStandardStreams()
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = processEnvironment()
if arguments.first == PictureProcess.command {
    exit(PictureProcess.runChild(Array(arguments.dropFirst()), environment: environment))
}
let status = Application.run(arguments, environment: environment)
#if DEBUG
// The tests' builds (and the sanitizers') end as any program does: a
// sanitizer's own exit handler is what turns a report into a failure.
exit(status)
#else
// Everything comics writes has gone out through write(2) and every
// database is closed by now; what exit(3) would still do is run the
// runtimes' static destructors, which cost half a millisecond and 34
// page faults a command (a warm list is 3 ms).
fflush(nil)
_exit(status)
#endif

/// The environment as `getenv` sees it (the first of a name given twice
/// wins), read straight from `environ`: Foundation's process information
/// costs every start more than the whole list.
func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    environment.reserveCapacity(64)
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
            let name = String(text[..<equals])
            if environment[name] == nil { environment[name] = String(text[text.index(after: equals)...]) }
        }
        entry += 1
    }
    return environment
}
