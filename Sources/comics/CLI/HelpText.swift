/// Help pages, generated from the command table so they cannot drift from
/// what the parser accepts.
enum HelpText {
    static func render(_ path: [String], parser: ArgumentParser = ArgumentParser()) -> String {
        let command = parser.command(at: path)
        let fullName = (["comics"] + path).joined(separator: " ")
        let visibleSubcommands = command.subcommands.filter { !$0.hidden }
        let commandRows = visibleSubcommands.map { (arguments($0).isEmpty ? $0.name : "\($0.name) \(arguments($0))", $0.abstract) }
        let argumentRows = command.arguments.map { ($0.name, $0.help) }
        let optionRows = command.options.map(optionRow)
        let globalRows = parser.globalOptions.map(optionRow)
        var sections = command.sections
        if path.isEmpty {
            sections += [
                HelpSection(title: "Environment", rows: CommandTable.environment),
                HelpSection(title: "Exit codes", rows: CommandTable.exitCodes),
            ]
        }
        let sectionRows = sections.map { $0.rows.map { ($0.name, $0.text) } }
        // One column width for the whole page, so every table lines up.
        let width = min(28, (commandRows + argumentRows + optionRows + globalRows + sectionRows.joined()).map(\.0.count).max() ?? 0)
        func table(_ rows: [(String, String)]) -> [String] { HelpText.table(rows, width: width) }

        var lines: [String] = []
        lines.append("\(fullName): \(command.abstract)")
        lines.append("")
        lines.append("Usage:")
        for usage in usages(command, fullName: fullName) {
            lines.append("  \(usage)")
        }
        if !commandRows.isEmpty {
            lines.append("")
            lines.append("Commands:")
            lines += table(commandRows)
        }
        if !argumentRows.isEmpty {
            lines.append("")
            lines.append("Arguments:")
            lines += table(argumentRows)
        }
        if !optionRows.isEmpty {
            lines.append("")
            lines.append("Options:")
            lines += table(optionRows)
        }
        for (section, rows) in zip(sections, sectionRows) {
            lines.append("")
            lines.append("\(section.title):")
            lines += table(rows)
        }
        lines.append("")
        lines.append(path.isEmpty ? "Options (anywhere on the line):" : "Global options:")
        lines += table(globalRows)
        if !command.examples.isEmpty {
            lines.append("")
            lines.append("Examples:")
            lines += command.examples.map { "  \($0)" }
        }
        if path.isEmpty {
            lines.append("")
            lines.append("Run 'comics COMMAND --help' for more on a command.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The short form printed when `comics` runs with no command.
    static func usageSummary() -> String {
        "comics: error: no command given; usage: comics COMMAND [options] (commands: "
            + CommandTable.root.subcommands.filter { !$0.hidden }.map(\.name).joined(separator: ", ")
            + "; see 'comics --help')"
    }

    private static func arguments(_ command: CommandSpec) -> String {
        command.arguments.map { "<\($0.name)>" }.joined(separator: " ")
    }

    private static func usages(_ command: CommandSpec, fullName: String) -> [String] {
        var usages: [String] = []
        let visibleSubcommands = command.subcommands.filter { !$0.hidden }
        if !visibleSubcommands.isEmpty {
            usages.append("\(fullName) COMMAND [options]")
        }
        if visibleSubcommands.isEmpty || !command.arguments.isEmpty {
            let argumentText = arguments(command)
            usages.append("\(fullName) [options]" + (argumentText.isEmpty ? "" : " \(argumentText)"))
        }
        return usages
    }

    private static func optionRow(_ option: OptionSpec) -> (String, String) {
        var names = option.short.map { "-\($0), " } ?? "    "
        names += "--\(option.long)"
        if let value = option.valueName { names += " \(value)" }
        let help = option.environment.map { "\(option.help) [env: \($0)]" } ?? option.help
        return (names, help)
    }

    private static func table(_ rows: [(String, String)], width: Int) -> [String] {
        rows.map { left, right in
            let padding = left.count < width ? String(repeating: " ", count: width - left.count) : ""
            return left.count > width ? "  \(left)\n  \(String(repeating: " ", count: width))  \(right)" : "  \(left)\(padding)  \(right)"
        }
    }
}
