import ComicsKit

/// The detached child started after a command: refreshes what was served
/// stale and runs the daily cleanup. Its output goes to /dev/null; a task
/// that fails is simply tried again the next time it is due.
enum BackgroundCommand {
    static func run(_ context: CommandContext) throws {
        let catalog = try context.catalog()
        for argument in context.arguments.positionals {
            guard let task = BackgroundTask(argument: argument) else { continue }
            try? catalog.perform(task)
        }
    }
}
