import BrowseCore
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
        guard canPlaceTheCursor(context) else {
            throw ComicsError.usage("browse needs a terminal that can move the cursor", hint: "use 'comics list'")
        }
        try BrowseSession(context: context, source: context.source).run()
    }

    /// A dumb terminal (Emacs' shell, some CI consoles) cannot place the cursor.
    static func canPlaceTheCursor(_ context: CommandContext) -> Bool {
        let terminal = context.environment["TERM"] ?? ""
        return !terminal.isEmpty && terminal != "dumb"
    }

    /// `comics read REF` on a terminal: browse on the book's text.
    static func read(_ ref: ItemRef, from start: ReaderStart, searching terms: String?, _ context: CommandContext) throws {
        // The screen is the reader's, not the pager's.
        try OutputSink.writeStdout(OutputSink.releaseHeld())
        let session = try BrowseSession(context: context, source: .books)
        session.startReading(ref, from: start, searching: terms)
        try session.run()
    }
}
