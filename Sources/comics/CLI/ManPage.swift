import ComicsKit

/// The manual page `comics.1`, in roff, generated from the command table
/// like help and completions; `make install` writes it with the hidden
/// command `comics __man-page`.
enum ManPage {
    static let command = "__man-page"

    static func render(root: CommandSpec = CommandTable.root, globalOptions: [OptionSpec] = CommandTable.globalOptions) -> String {
        var lines = [
            ".TH COMICS 1 \"\" \"comics \(ComicsVersion.current)\" \"User Commands\"",
            ".SH NAME",
            "comics \\- \(escaped(root.abstract))",
            ".SH SYNOPSIS",
            ".B comics",
            ".I COMMAND",
            "[\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
            text("comics keeps everything it has seen in a local SQLite database and prints it from there at once; "
                + "the network is used only when the cache rules say so. A listing's first page stays fresh for an hour "
                + "and an item for a day; stale data is printed at once and refreshed in the background. "
                + "Favourites are never removed by cleanup."),
            ".SH COMMANDS",
        ]
        for (path, spec) in commands(root, path: []) {
            let arguments = spec.arguments.map { " \\fI\($0.name)\\fR" }.joined()
            lines.append(".TP")
            lines.append("\\fBcomics \(escaped(path))\\fR\(arguments)")
            lines.append(text(spec.abstract))
            if !spec.arguments.isEmpty || !spec.options.isEmpty {
                lines.append(".RS")
                for argument in spec.arguments {
                    lines += [".TP", "\\fI\(argument.name)\\fR", text(argument.help)]
                }
                for option in spec.options {
                    lines += optionEntry(option)
                }
                lines.append(".RE")
            }
        }
        lines.append(".SH OPTIONS")
        lines.append(text("These may appear anywhere on the command line."))
        for option in globalOptions {
            lines += optionEntry(option)
        }
        for section in root.subcommands.flatMap(\.sections) + root.sections {
            lines.append(".SH \(escaped(section.title.uppercased()))")
            lines.append(text("Changed with \\fBcomics config set\\fR \\fIKEY VALUE\\fR; kept in the database."))
            for row in section.rows {
                lines += [".TP", "\\fB\(escaped(row.name))\\fR", text(row.text)]
            }
        }
        lines.append(".SH ENVIRONMENT")
        for row in CommandTable.environment {
            lines += [".TP", "\\fB\(escaped(row.name))\\fR", text(row.text)]
        }
        lines += [
            ".SH FILES",
            ".TP", "\\fI$XDG_DATA_HOME/comics/comics.db\\fR (else \\fI~/.local/share/comics/comics.db\\fR)",
            text("The database: the cache and your favourites. Pictures are kept in \\fIimages/\\fR beside it."),
            ".SH EXIT STATUS",
        ]
        for row in CommandTable.exitCodes {
            lines += [".TP", "\\fB\(row.name)\\fR", text(row.text)]
        }
        lines.append(".SH EXAMPLES")
        var seen = Set<String>()
        for example in root.examples + commands(root, path: []).flatMap(\.1.examples) where seen.insert(example).inserted {
            lines += [".PP", ".nf", escaped(example), ".fi"]
        }
        lines += [".SH SEE ALSO", "\\fBjq\\fR(1), \\fBcron\\fR(8)"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func commands(_ spec: CommandSpec, path: [String]) -> [(String, CommandSpec)] {
        spec.subcommands.filter { !$0.hidden }.flatMap { sub -> [(String, CommandSpec)] in
            let subPath = path + [sub.name]
            return [(subPath.joined(separator: " "), sub)] + commands(sub, path: subPath)
        }
    }

    private static func optionEntry(_ option: OptionSpec) -> [String] {
        var names = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        names += "\\fB\\-\\-\(escaped(option.long))\\fR"
        if let value = option.valueName { names += " \\fI\(value)\\fR" }
        let environment = option.environment.map { " Environment: \\fB\(escaped($0))\\fR." } ?? ""
        return [".TP", names, text(option.help) + environment]
    }

    /// A paragraph line that roff prints as written.
    private static func text(_ text: String) -> String {
        let line = escaped(text)
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// Backslashes and hyphens as roff wants them; `\f` font changes the
    /// callers wrote are kept.
    private static func escaped(_ text: String) -> String {
        var result = ""
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "\\", characters.first == "f" {
                result += "\\f"
                characters = characters.dropFirst()
            } else if character == "\\" {
                result += "\\e"
            } else if character == "-" {
                result += "\\-"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
