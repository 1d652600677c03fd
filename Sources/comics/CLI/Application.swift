import ComicsKit

/// The one exit path: parse, run the command, and turn every error into a
/// one-line message on stderr and the exit code the spec gives it.
enum Application {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        var paging = false
        var commandContext: CommandContext?
        // Whatever happens, held output is shown before the error that ends the run.
        defer { if paging { try? Pager.show(OutputSink.releaseHeld(), environment: environment) } }
        do {
            let parsed = try ArgumentParser().parse(arguments)
            if Pager.applies(noPagerFlag: parsed.has("no-pager"), environment: environment),
               ![BackgroundLauncher.command, "browse"].contains(parsed.commandPath.first) {
                paging = true
                OutputSink.holdStdout()
            }
            if parsed.has("version") {
                try OutputSink.writeStdout("comics \(ComicsVersion.current)\n")
                return 0
            }
            if parsed.has("help") {
                try OutputSink.writeStdout(HelpText.render(parsed.commandPath, width: helpWidth))
                return 0
            }
            guard let command = parsed.commandPath.first else {
                // A person at a terminal gets the browser; anything else, the usage.
                if BrowseCommand.isInteractive {
                    if paging {
                        paging = false
                        _ = OutputSink.releaseHeld()
                    }
                    try BrowseCommand.run(try CommandContext(arguments: parsed, environment: environment))
                    return 0
                }
                OutputSink.writeStderr(HelpText.usageSummary() + "\n")
                return 2
            }
            if command == "help" {
                try OutputSink.writeStdout(HelpText.render(try helpPath(parsed.positionals), width: helpWidth))
                return 0
            }
            let context = try CommandContext(arguments: parsed, environment: environment)
            commandContext = context
            try dispatch(context)
            if paging {
                paging = false
                try Pager.show(OutputSink.releaseHeld(), environment: environment)
            }
            if command != BackgroundLauncher.command {
                try context.finish()
            }
            return 0
        } catch is OutputSink.BrokenPipe {
            return 0
        } catch let error as ComicsError {
            commandContext?.sayWarnings()
            let hint = error.hint.map { "; \($0)" } ?? ""
            OutputSink.writeStderr("comics: error: \(TerminalText.sanitize(error.message, singleLine: true))\(hint)\n")
            return error.exitCode
        } catch {
            OutputSink.writeStderr("comics: error: \(TerminalText.sanitize(String(describing: error), singleLine: true))\n")
            return 1
        }
    }

    private static func dispatch(_ context: CommandContext) throws {
        switch context.arguments.commandPath {
        case ["list"]: try ListCommand.run(context, page: .newest)
        case ["more"]: try ListCommand.run(context, page: .next)
        case ["show"]: try ShowCommand.run(context)
        case ["get"]: try GetCommand.run(context)
        case ["read"]: try ReadCommand.run(context)
        case ["toc"]: try TocCommand.run(context)
        case ["notes"]: try NotesCommand.run(context)
        case ["fav"]: try FavoriteCommand.change(context, .toggle)
        case ["fav", "add"]: try FavoriteCommand.change(context, .add)
        case ["fav", "remove"]: try FavoriteCommand.change(context, .remove)
        case ["fav", "list"]: try FavoriteCommand.list(context)
        case ["fav", "import"]: try FavoriteCommand.importFile(context)
        case ["cleanup"]: try CleanupCommand.run(context)
        case ["info"]: try InfoCommand.run(context)
        case ["browse"]: try BrowseCommand.run(context)
        case ["open"]: try OpenCommand.run(context)
        case ["search"]: try SearchCommand.run(context)
        case ["sync"]: try SyncCommand.run(context)
        case ["rebuild"]: try RebuildCommand.run(context)
        case ["config"], ["config", "list"]: try ConfigCommand.list(context)
        case ["config", "get"]: try ConfigCommand.get(context)
        case ["config", "set"]: try ConfigCommand.set(context)
        case ["config", "unset"]: try ConfigCommand.unset(context)
        case ["completions"]:
            let name = try context.positional("SHELL")
            guard let shell = Shell(rawValue: name) else {
                throw ComicsError.usage(
                    "no completions for the shell \(MessageText.quoted(name))", hint: "use one of: \(Shell.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            try context.write(Completions().script(for: shell))
        case [ManPage.command]: try context.write(ManPage.render())
        case [BackgroundLauncher.command]: try BackgroundCommand.run(context)
        default: throw ComicsError.usage("unknown command", hint: "see 'comics --help'")
        }
    }

    /// The terminal's width when help goes to one, else 80.
    private static var helpWidth: Int {
        let terminal = Terminal.detect(noColorFlag: true, environment: [:])
        return terminal.isTerminal ? terminal.width ?? 80 : 80
    }

    private static func helpPath(_ positionals: [String]) throws -> [String] {
        let parser = ArgumentParser()
        var path: [String] = []
        for name in positionals {
            guard parser.command(at: path).subcommand(named: name) != nil else {
                throw ComicsError.usage("no help for unknown command \(MessageText.quoted(positionals.joined(separator: " ")))", hint: "see 'comics --help'")
            }
            path.append(name)
        }
        return path
    }
}
