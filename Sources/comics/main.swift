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
exit(Application.run(arguments, environment: environment))

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
