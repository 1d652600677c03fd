/// The settings a person may change with `comics config`: each with the
/// values it accepts and its default. They persist in the database.
public struct ConfigKey: Sendable {
    /// What a setting holds, which decides how its values are checked and written.
    public enum Kind: Sendable {
        case choice([String])
        /// `30d`, `12h`: written back in the largest whole unit.
        case duration
        case count(ClosedRange<Int>)
        /// `on` or `off`; `true`, `yes`, `1` and their opposites are read too.
        case toggle
    }

    public let name: String
    public let summary: String
    public let kind: Kind
    public let defaultValue: String
    /// A per-source setting falls back to the general one until it is set.
    public let inheritsFrom: String?

    init(_ name: String, _ kind: Kind, default defaultValue: String, inheritsFrom: String? = nil, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.inheritsFrom = inheritsFrom
        self.summary = summary
    }

    /// When to draw an item's picture under `show`.
    public static let images = ConfigKey(
        "images", .choice(ImagePreference.allCases.map(\.rawValue)), default: ImagePreference.auto.rawValue,
        "draw the picture under 'show': auto (on a terminal), always or never")
    public static let maxAge = ConfigKey(
        "max-age", .duration, default: CleanupRules.formatDuration(CleanupRules.Limits().maxAge),
        "cleanup removes items not refreshed for this long (30d, 12h, 2w)")
    public static let maxItems = ConfigKey(
        "max-items", .count(0...10_000_000), default: String(CleanupRules.Limits().maxItems),
        "cleanup keeps at most this many non-favourites per source")
    public static let pageSize = ConfigKey(
        "xkcd.page-size", .count(1...ListQuery.maximumLimit), default: String(ListQuery.defaultLimit),
        "comics per xkcd page when --limit is not given")
    public static let backgroundRefresh = ConfigKey(
        "background-refresh", .toggle, default: "on",
        "on: stale data is shown at once and refreshed in the background; off: it is refreshed first")
    public static let textsMaxBytes = ConfigKey(
        "texts.max-bytes", .count(0...(1 << 40)), default: String(512 * 1024 * 1024),
        "cleanup keeps at most this many bytes of downloaded texts, the least recently read going first (favourites' stay)")
    public static let readerWidth = ConfigKey(
        "reader.width", .count(20...200), default: "72", "the width of a book's text in browse's reader, in columns")
    public static let readerTheme = ConfigKey(
        "reader.theme", .choice(["terminal", "dark", "light"]), default: "terminal",
        "the reader's colours: the terminal's own, or light text on dark, or dark on light (browse's c cycles them)")
    public static let readerPictures = ConfigKey(
        "reader.pictures", .toggle, default: "on",
        "on: the reader draws an HTML edition's pictures where they stand (as kitty, iTerm2 or sixel graphics, else in symbols); off: their captions alone")
    public static let textsEdition = ConfigKey(
        "texts.edition", .choice(TextEdition.allCases.map(\.rawValue)), default: TextEdition.html.rawValue,
        "the edition 'get' downloads: html (its markup gives the chapters; the plain text when it has none) or text")
    public static let autoCleanup = ConfigKey(
        "auto-cleanup", .toggle, default: "on", "run cleanup by itself once a day, after a command")

    /// `xkcd.max-age`, `books.max-items`: one source's cleanup limits.
    public static func maxAge(of source: SourceName) -> ConfigKey {
        ConfigKey(
            "\(source.rawValue).max-age", .duration, default: maxAge.defaultValue, inheritsFrom: maxAge.name,
            "max-age for \(source.rawValue) alone")
    }

    public static func maxItems(of source: SourceName) -> ConfigKey {
        ConfigKey(
            "\(source.rawValue).max-items", maxItems.kind, default: maxItems.defaultValue, inheritsFrom: maxItems.name,
            "max-items for \(source.rawValue) alone")
    }

    /// Set by `sync`: xkcd's archive is mirrored whole, books query by query;
    /// cleanup keeps what is mirrored while it is younger than max-age.
    public static func mirror(of source: SourceName) -> ConfigKey {
        let what = source == .xkcd ? "the archive" : "a query (each one synced)"
        return ConfigKey(
            "\(source.rawValue).mirror", .toggle, default: "off",
            "on once 'sync' mirrored \(what): cleanup then applies max-age but not max-items to it; off forgets it")
    }

    public static let all: [ConfigKey] = [images, maxAge, maxItems]
        + SourceName.allCases.sorted().flatMap { [maxAge(of: $0), maxItems(of: $0), mirror(of: $0)] }
        + [pageSize, textsMaxBytes, textsEdition, readerWidth, readerTheme, readerPictures, backgroundRefresh, autoCleanup]

    public static func named(_ name: String) throws -> ConfigKey {
        guard let key = all.first(where: { $0.name == name.lowercased() }) else {
            let closest = all.first { $0.name.hasSuffix(".\(name.lowercased())") }?.name
                ?? Suggestion.closest(to: name, among: all.map(\.name))
            let suggestion = closest.map { "did you mean '\($0)'? " } ?? ""
            throw ComicsError.usage(
                "unknown setting \(MessageText.quoted(name))", hint: suggestion + "settings are: \(all.map(\.name).joined(separator: ", "))")
        }
        return key
    }

    /// The canonical form of `value`, or a usage error naming what is allowed.
    public func validate(_ value: String) throws -> String {
        let typed = value.trimmingWhitespace().lowercased()
        switch kind {
        case let .choice(allowed):
            if allowed.contains(typed) { return typed }
            throw invalid(value, hint: "use one of: \(allowed.joined(separator: ", "))")
        case .duration:
            if let duration = CleanupRules.parseDuration(typed) { return CleanupRules.formatDuration(duration) }
            throw invalid(value, hint: "give a duration such as 30d, 12h, 90m or 2w")
        case let .count(range):
            if let number = Int(typed), range.contains(number) { return String(number) }
            throw invalid(value, hint: "give a whole number from \(range.lowerBound) to \(range.upperBound)")
        case .toggle:
            if ["on", "true", "yes", "1"].contains(typed) { return "on" }
            if ["off", "false", "no", "0"].contains(typed) { return "off" }
            throw invalid(value, hint: "use on or off")
        }
    }

    /// The values a completion may offer, where they are few.
    public var suggestedValues: [String] {
        switch kind {
        case let .choice(allowed): allowed
        case .toggle: ["on", "off"]
        case .duration, .count: []
        }
    }

    private func invalid(_ value: String, hint: String) -> ComicsError {
        .usage("\(MessageText.quoted(value)) is not a valid value for \(name)", hint: hint)
    }

    var storageKey: String { "config.\(name)" }
}

/// The `images` setting.
public enum ImagePreference: String, CaseIterable, Sendable {
    case auto, always, never
}

/// A setting's value and whether it was set or is the default (or, for a
/// per-source setting, the general one's value).
public struct ConfigValue: Equatable, Sendable {
    public let name: String
    public let value: String
    public let isDefault: Bool
    /// The general setting an unset per-source one takes its value from.
    public let inheritedFrom: String?
}

extension Catalog {
    public func configValue(_ key: ConfigKey) throws -> ConfigValue {
        if let stored = try store.setting(key.storageKey).flatMap({ try? key.validate($0) }) {
            return ConfigValue(name: key.name, value: stored, isDefault: false, inheritedFrom: nil)
        }
        if let general = key.inheritsFrom.flatMap({ name in ConfigKey.all.first { $0.name == name } }) {
            let inherited = try configValue(general)
            return ConfigValue(name: key.name, value: inherited.value, isDefault: true, inheritedFrom: general.name)
        }
        return ConfigValue(name: key.name, value: key.defaultValue, isDefault: true, inheritedFrom: nil)
    }

    public func setConfig(_ key: ConfigKey, to value: String) throws -> ConfigValue {
        let valid = try key.validate(value)
        try store.setSetting(key.storageKey, to: valid)
        try forgetMirrorsIfOff(key, value: valid)
        return try configValue(key)
    }

    /// Turning a source's mirror off forgets which queries were mirrored.
    private func forgetMirrorsIfOff(_ key: ConfigKey, value: String) throws {
        for source in SourceName.allCases where key.name == ConfigKey.mirror(of: source).name && value == "off" {
            try store.removeMirrors(of: source)
        }
    }

    /// Settings salvaged from another database; unknown or invalid ones are skipped.
    public func restore(settings: [(key: String, value: String)]) throws {
        for (storageKey, value) in settings {
            guard let key = ConfigKey.all.first(where: { $0.storageKey == storageKey }), let valid = try? key.validate(value) else {
                continue
            }
            try store.setSetting(key.storageKey, to: valid)
        }
    }

    public func unsetConfig(_ key: ConfigKey) throws -> ConfigValue {
        try store.removeSetting(key.storageKey)
        try forgetMirrorsIfOff(key, value: key.defaultValue)
        return try configValue(key)
    }

    /// The reader's column, as `config` set it.
    public var readerWidth: Int {
        get throws { Int(try configValue(.readerWidth).value) ?? 72 }
    }

    public var imagePreference: ImagePreference {
        get throws { ImagePreference(rawValue: try configValue(.images).value) ?? .auto }
    }

    /// The persisted cleanup limits of every source.
    public func configuredCleanupRules() throws -> CleanupRules {
        var rules = CleanupRules.standard
        for source in SourceName.allCases {
            let maxAge = try configValue(.maxAge(of: source)).value
            let maxItems = try configValue(.maxItems(of: source)).value
            // A mirrored archive is exempt from max-items as a whole; a
            // mirrored query's items are marked so by the store.
            let archive = (try? self.source(source))?.hasLatest == true
            let wholeSourceMirrored = try archive && isEnabled(.mirror(of: source))
            rules[source] = CleanupRules.Limits(
                maxAge: CleanupRules.parseDuration(maxAge) ?? rules[source].maxAge,
                maxItems: wholeSourceMirrored ? Int.max : Int(maxItems) ?? rules[source].maxItems)
        }
        return rules
    }

    func isEnabled(_ key: ConfigKey) throws -> Bool {
        try configValue(key).value == "on"
    }

    /// The page size a listing without `--limit` gets.
    func configuredPageSize() throws -> Int {
        Int(try configValue(.pageSize).value) ?? ListQuery.defaultLimit
    }
}
