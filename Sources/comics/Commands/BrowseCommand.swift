import ComicsKit
import Glibc

/// `comics browse` (and bare `comics` on a terminal): the full-screen browser.
enum BrowseCommand {
    /// Both ends on a terminal: a person is there to browse.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        guard isInteractive else {
            throw ComicsError.usage("browse needs a terminal", hint: "use 'comics list' in scripts and pipes")
        }
        // A dumb terminal (Emacs' shell, some CI consoles) cannot place the cursor.
        let terminal = context.environment["TERM"] ?? ""
        guard !terminal.isEmpty, terminal != "dumb" else {
            throw ComicsError.usage("browse needs a terminal that can move the cursor", hint: "use 'comics list'")
        }
        try BrowseSession(context: context, source: context.source).run()
    }
}
