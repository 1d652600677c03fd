import ComicsKit
import Foundation

// A reader that goes away (`comics list | head -1`) must end the command
// quietly, through EPIPE, not kill it mid-transaction with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
exit(Application.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
