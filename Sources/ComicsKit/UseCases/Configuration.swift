/// The settings a person may change with `comics config`: each with the
/// values it accepts and its default. They persist in the database.
public struct ConfigKey: Sendable {
    public let name: String
    public let summary: String
    public let allowedValues: [String]
    public let defaultValue: String

    /// When to draw an item's picture under `show`.
    public static let images = ConfigKey(
        name: "images", summary: "draw the picture under 'show': auto (on a terminal), always or never",
        allowedValues: ImagePreference.allCases.map(\.rawValue), defaultValue: ImagePreference.auto.rawValue)

    public static let all: [ConfigKey] = [images]

    public static func named(_ name: String) throws -> ConfigKey {
        guard let key = all.first(where: { $0.name == name }) else {
            throw ComicsError.usage(
                "unknown setting '\(name)'", hint: "settings are: \(all.map(\.name).joined(separator: ", "))")
        }
        return key
    }

    /// The canonical form of `value`, or a usage error naming what is allowed.
    public func validate(_ value: String) throws -> String {
        guard let allowed = allowedValues.first(where: { $0 == value.lowercased() }) else {
            throw ComicsError.usage(
                "'\(value)' is not a value of \(name)", hint: "use one of: \(allowedValues.joined(separator: ", "))")
        }
        return allowed
    }

    var storageKey: String { "config.\(name)" }
}

/// The `images` setting.
public enum ImagePreference: String, CaseIterable, Sendable {
    case auto, always, never
}

/// A setting's value and whether it was set or is the default.
public struct ConfigValue: Equatable, Sendable {
    public let name: String
    public let value: String
    public let isDefault: Bool
}

extension Catalog {
    public func configValue(_ key: ConfigKey) throws -> ConfigValue {
        let stored = try store.setting(key.storageKey).flatMap { try? key.validate($0) }
        return ConfigValue(name: key.name, value: stored ?? key.defaultValue, isDefault: stored == nil)
    }

    public func setConfig(_ key: ConfigKey, to value: String) throws -> ConfigValue {
        let canonical = try key.validate(value)
        try store.setSetting(key.storageKey, to: canonical)
        return ConfigValue(name: key.name, value: canonical, isDefault: false)
    }

    public func unsetConfig(_ key: ConfigKey) throws -> ConfigValue {
        try store.removeSetting(key.storageKey)
        return ConfigValue(name: key.name, value: key.defaultValue, isDefault: true)
    }

    public var imagePreference: ImagePreference {
        get throws { ImagePreference(rawValue: try configValue(.images).value) ?? .auto }
    }
}
