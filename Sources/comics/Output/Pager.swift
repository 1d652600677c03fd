import ComicsKit
import Glibc

/// Long output on a terminal goes through `$PAGER` (`less -FRX` when it is
/// unset), as git does: stdout is held while the command runs, then
/// printed directly when it fits the screen, or piped to the pager when it
/// is taller. Never off a terminal, never with `--no-pager` or an empty
/// `PAGER`, and never for a drawn picture (its escape sequences are the
/// terminal's, not a pager's).
enum Pager {
    static let defaultCommand = "less -FRX"

    /// Whether this run's output may be paged.
    static func applies(noPagerFlag: Bool, environment: [String: String]) -> Bool {
        !noPagerFlag && isatty(STDOUT_FILENO) == 1 && environment["PAGER"].map { !$0.isEmpty } ?? true
    }

    /// Prints what was held: to the pager when taller than the terminal.
    static func show(_ text: String, environment: [String: String]) throws {
        guard !text.isEmpty else { return }
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        let height = Terminal.detect(noColorFlag: true, environment: [:]).height ?? 24
        guard lines >= height, !containsPicture(text), let pager = start(environment["PAGER"] ?? defaultCommand, environment: environment)
        else { return try OutputSink.writeStdout(text) }
        defer { pager.finish() }
        try? OutputSink.write(text, to: pager.input)
    }

    private static func containsPicture(_ text: String) -> Bool {
        text.includes("\u{1B}_G") || text.includes("\u{1B}]1337;") || text.includes("\u{1B}P")
    }

    /// A running pager: where to write, and how to wait for it.
    struct Running {
        let input: Int32
        let pid: pid_t

        func finish() {
            close(input)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }

    /// `sh -c COMMAND` with its stdin on a pipe; nil when it cannot start.
    private static func start(_ command: String, environment: [String: String]) -> Running? {
        guard let (readEnd, writeEnd) = closeOnExecPipe() else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        closeInheritedDescriptors(&actions)
        var childEnvironment = environment
        // less: colours pass through; -F quits when it fits anyway.
        if childEnvironment["LESS"] == nil { childEnvironment["LESS"] = "FRX" }
        let arguments = ["/bin/sh", "-c", command]
        let environmentLines = childEnvironment.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let status = withCStrings(arguments) { argv in
            withCStrings(environmentLines) { envp in posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp) }
        }
        close(readEnd)
        guard status == 0 else {
            close(writeEnd)
            return nil
        }
        return Running(input: writeEnd, pid: pid)
    }
}
