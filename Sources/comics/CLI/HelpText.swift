/// Help pages, generated from the command table so they cannot drift from
/// what the parser accepts.
enum HelpText {
    /// The help page of the command at `path`, wrapped to `width` columns
    /// between words. A subcommand's page lists its own options and the
    /// global ones it honours; the rest are one line pointing to `comics --help`.
    static func render(_ path: [String], width: Int = 80, parser: ArgumentParser = ArgumentParser()) -> String {
        let command = parser.command(at: path)
        let fullName = (["comics"] + path).joined(separator: " ")
        let key = path.joined(separator: " ")
        let visibleSubcommands = command.subcommands.filter { !$0.hidden }
        let commandRows = visibleSubcommands.map { (arguments($0).isEmpty ? $0.name : "\($0.name) \(arguments($0))", $0.abstract) }
        let argumentRows = command.arguments.map { ($0.name, $0.help) }
        let honoured = CommandTable.honouredGlobals[key] ?? []
        let overrides = CommandTable.globalHelp[key] ?? [:]
        let ownGlobals = path.isEmpty ? [] : parser.globalOptions.filter { honoured.contains($0.long) }
        let optionRows = (command.options + ownGlobals).map { optionRow($0, help: overrides[$0.long]) }
        let globalRows = path.isEmpty ? parser.globalOptions.map { optionRow($0, help: nil) } : []
        var sections = command.sections
        if path.isEmpty {
            sections += [
                HelpSection(title: "Environment", rows: CommandTable.environment),
                HelpSection(title: "Exit codes", rows: CommandTable.exitCodes),
            ]
        }
        let sectionRows = sections.map { $0.rows.map { ($0.name, $0.text) } }
        // One column width for the whole page, so every table lines up.
        let column = min(28, (commandRows + argumentRows + optionRows + globalRows + sectionRows.joined()).map(\.0.count).max() ?? 0)
        func table(_ rows: [(String, String)]) -> [String] { HelpText.table(rows, column: column, width: width) }

        var lines: [String] = wrap("\(fullName): \(command.abstract)", width: width, indent: 0)
        lines.append("")
        lines.append("Usage:")
        for usage in usages(command, fullName: fullName) {
            lines += wrap(usage, width: width, indent: 2)
        }
        if !commandRows.isEmpty {
            lines += ["", "Commands:"] + table(commandRows)
        }
        if !argumentRows.isEmpty {
            lines += ["", "Arguments:"] + table(argumentRows)
        }
        if !optionRows.isEmpty {
            lines += ["", "Options:"] + table(optionRows)
        }
        for (section, rows) in zip(sections, sectionRows) {
            lines += ["", "\(section.title):"] + table(rows)
        }
        lines.append("")
        if path.isEmpty {
            lines += ["Options (anywhere on the line):"] + table(globalRows)
        } else {
            let others = parser.globalOptions
                .filter { CommandTable.universalOptions.contains($0.long) && !["help", "version"].contains($0.long) }
                .map { ($0.short.map { "-\($0)" } ?? "--\($0.long)") + ($0.valueName.map { " \($0)" } ?? "") }
            lines += wrap("Also: \(others.joined(separator: ", ")); see 'comics --help'.", width: width, indent: 0)
        }
        if !command.examples.isEmpty {
            lines += ["", "Examples:"] + command.examples.map { "  \($0)" }
        }
        if path.isEmpty {
            lines += [""] + wrap("Run 'comics COMMAND --help' for more on a command.", width: width, indent: 0)
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
        command.arguments.map { argument in
            let name = argument.name + (argument.isRepeated ? "..." : "")
            return argument.isOptional ? "[\(name)]" : "<\(name)>"
        }.joined(separator: " ")
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

    private static func optionRow(_ option: OptionSpec, help: String?) -> (String, String) {
        var names = option.short.map { "-\($0), " } ?? "    "
        names += "--\(option.long)"
        if let value = option.valueName { names += " \(value)" }
        let text = help ?? option.help
        return (names, option.environment.map { "\(text) [env: \($0)]" } ?? text)
    }

    /// Two columns; the right one wraps between words under itself, and a
    /// name too long for the left column has the text on the next line. On
    /// a narrow terminal every text goes under its name.
    private static func table(_ rows: [(String, String)], column: Int, width: Int) -> [String] {
        let stacked = width - column - 4 < 24
        let textWidth = stacked ? max(10, width - 6) : width - column - 4
        return rows.flatMap { left, right -> [String] in
            let text = wrapWords(right, width: textWidth)
            let indent = String(repeating: " ", count: stacked ? 6 : column + 4)
            if stacked || left.count > column {
                return ["  \(left)"] + text.map { indent + $0 }
            }
            let first = "  \(left)" + String(repeating: " ", count: column - left.count) + "  " + (text.first ?? "")
            return [first] + text.dropFirst().map { indent + $0 }
        }
    }

    /// `text` in lines of at most `width` columns, the first indented by
    /// `indent` and the rest by `indent + 2`.
    private static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let lines = wrapWords(text, width: max(20, width - indent - 2), firstWidth: max(20, width - indent))
        return lines.enumerated().map { index, line in String(repeating: " ", count: indent + (index == 0 ? 0 : 2)) + line }
    }

    /// Breaks between words; a word longer than the width stands alone.
    /// The first line may have its own width.
    static func wrapWords(_ text: String, width: Int, firstWidth: Int? = nil) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let limit = lines.isEmpty ? firstWidth ?? width : width
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= limit {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
