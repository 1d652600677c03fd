import ComicsKit

/// `comics config [list]`, `config get KEY`, `config set KEY VALUE`, `config unset KEY`.
enum ConfigCommand {
    static func list(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let catalog = try context.catalog()
        try write(try ConfigKey.all.map(catalog.configValue), context: context)
    }

    static func get(_ context: CommandContext) throws {
        let key = try ConfigKey.named(try context.positional("KEY"))
        let value = try context.catalog().configValue(key)
        guard context.format == .table else { return try write([value], context: context, single: true) }
        try context.write(value.value + "\n")
    }

    static func set(_ context: CommandContext) throws {
        let arguments = context.arguments.positionals
        guard arguments.count == 2 else {
            throw ComicsError.usage(
                "'comics config set' takes a KEY and a VALUE, got \(arguments.count) arguments",
                hint: "see 'comics config set --help'")
        }
        let value = try context.catalog().setConfig(try ConfigKey.named(arguments[0]), to: arguments[1])
        try write([value], context: context, single: true)
    }

    static func unset(_ context: CommandContext) throws {
        let key = try ConfigKey.named(try context.positional("KEY"))
        try write([try context.catalog().unsetConfig(key)], context: context, single: true)
    }

    /// `images = auto (default)` for people; records with `key`, `value`
    /// and `default` for scripts.
    /// `single`: one setting, so JSON is one object, not an array of one.
    private static func write(_ values: [ConfigValue], context: CommandContext, single: Bool = false) throws {
        guard context.format == .table else {
            let records: [JSONValue] = values.map {
                .object([("key", .string($0.name)), ("value", .string($0.value)), ("default", .bool($0.isDefault))])
            }
            return try context.write(Records.render(records, as: context.format, columns: ["key", "value", "default"], single: single))
        }
        try context.write(values.map { "\($0.name) = \($0.value)\(origin($0))\n" }.joined())
    }

    private static func origin(_ value: ConfigValue) -> String {
        if let general = value.inheritedFrom { return " (from \(general))" }
        return value.isDefault ? " (default)" : ""
    }
}
