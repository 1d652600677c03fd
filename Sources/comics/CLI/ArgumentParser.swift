import ComicsKit

/// What the command line said: the command path (`["fav", "add"]`), option
/// values by long name, flags, and positional arguments.
struct ParsedArguments: Equatable {
    var commandPath: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ long: String) -> String? { values[long] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Walks the command table: global options anywhere, command options after
/// their command, `--name=value`, `--name value`, `-n5`, `-n 5`, bundled
/// short flags (`-qv`) and `--` to end options.
struct ArgumentParser {
    let root: CommandSpec
    let globalOptions: [OptionSpec]

    init(root: CommandSpec = CommandTable.root, globalOptions: [OptionSpec] = CommandTable.globalOptions) {
        self.root = root
        self.globalOptions = globalOptions
    }

    func command(at path: [String]) -> CommandSpec {
        path.reduce(root) { $0.subcommand(named: $1) ?? $0 }
    }

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var current = root
        var remaining = arguments[...]
        var optionsEnded = false

        while let argument = remaining.popFirst() {
            let known = globalOptions + current.options
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                if parsed.positionals.isEmpty, !optionsEnded, let next = current.subcommand(named: argument) {
                    current = next
                    parsed.commandPath.append(argument)
                } else if current.subcommands.isEmpty || !current.arguments.isEmpty || optionsEnded {
                    parsed.positionals.append(argument)
                } else {
                    throw unknownCommand(argument, in: current, path: parsed.commandPath)
                }
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = known.first(where: { $0.long == name }) else {
                    throw unknownOption("--\(name)", path: parsed.commandPath, known: known)
                }
                try record(option, spelled: "--\(name)", inlineValue: inlineValue, remaining: &remaining, into: &parsed)
            } else {
                var letters = argument.dropFirst()
                while let letter = letters.popFirst() {
                    guard let option = known.first(where: { $0.short == letter }) else {
                        throw unknownOption("-\(letter)", path: parsed.commandPath, known: known)
                    }
                    if option.takesValue {
                        let inline = letters.isEmpty ? nil : String(letters.drop { $0 == "=" })
                        try record(option, spelled: "-\(letter)", inlineValue: inline, remaining: &remaining, into: &parsed)
                        break
                    }
                    try record(option, spelled: "-\(letter)", inlineValue: nil, remaining: &remaining, into: &parsed)
                }
            }
        }
        try refuseGlobalsThatDoNotApply(parsed)
        return parsed
    }

    /// A global option the command does not honour is a usage error, never
    /// silently ignored. Help and version stand alone and are not checked.
    private func refuseGlobalsThatDoNotApply(_ parsed: ParsedArguments) throws {
        guard !parsed.commandPath.isEmpty, !parsed.has("help"), !parsed.has("version") else { return }
        let path = parsed.commandPath.joined(separator: " ")
        guard let honoured = CommandTable.honouredGlobals[path] ?? (command(at: parsed.commandPath).hidden ? nil : []) else { return }
        let given = Set(parsed.values.keys).union(parsed.flags)
        for option in globalOptions where given.contains(option.long)
            && !CommandTable.universalOptions.contains(option.long) && !honoured.contains(option.long) {
            throw ComicsError.usage(
                "--\(option.long) does not apply to 'comics \(path)'", hint: usageHint(parsed.commandPath))
        }
    }

    private func record(
        _ option: OptionSpec, spelled: String, inlineValue: String?,
        remaining: inout ArraySlice<String>, into parsed: inout ParsedArguments
    ) throws {
        guard option.takesValue else {
            guard inlineValue == nil else {
                throw ComicsError.usage("\(spelled) takes no value", hint: usageHint(parsed.commandPath))
            }
            parsed.flags.insert(option.long)
            return
        }
        if let inlineValue {
            parsed.values[option.long] = inlineValue
        } else if let next = remaining.popFirst() {
            parsed.values[option.long] = next
        } else {
            throw ComicsError.usage(
                "\(spelled) needs a value (\(option.valueName ?? "VALUE"))", hint: usageHint(parsed.commandPath))
        }
    }

    private func usageHint(_ path: [String]) -> String {
        "see '\((["comics"] + path).joined(separator: " ")) --help'"
    }

    private func unknownOption(_ spelled: String, path: [String], known: [OptionSpec]) -> ComicsError {
        let names = known.map { "--\($0.long)" }
        let suggestion = Suggestion.closest(to: spelled, among: names).map { "did you mean '\($0)'? " } ?? ""
        let command = (["comics"] + path).joined(separator: " ")
        return .usage("unknown option \(MessageText.quoted(spelled)) for '\(command)'", hint: suggestion + usageHint(path))
    }

    private func unknownCommand(_ name: String, in command: CommandSpec, path: [String]) -> ComicsError {
        let names = command.subcommands.filter { !$0.hidden }.map(\.name)
        let suggestion = Suggestion.closest(to: name, among: names).map { "did you mean '\($0)'? " } ?? ""
        return .usage("unknown command \(MessageText.quoted(name))", hint: suggestion + usageHint(path))
    }
}
