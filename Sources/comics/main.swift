import ComicsKit
import FoundationEssentials
import Glibc

// A reader that goes away (`comics list | head -1`) must end the command
// quietly, through EPIPE, not kill it mid-transaction with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// With stdin, stdout or stderr closed (`comics cleanup >&- 2>&-` from a
// careless cron line) the next file opened would take that number, and
// output meant for the terminal would be written into it.
OutputSink.occupyClosedStandardStreams()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == PictureProcess.command {
    exit(PictureProcess.runChild(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
}
exit(Application.run(arguments, environment: ProcessInfo.processInfo.environment))
