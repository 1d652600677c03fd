import ComicsKit
import Foundation

/// `comics cleanup`: applies the cache limits now.
enum CleanupCommand {
    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let overrides = Catalog.CleanupOverrides(
            maxAge: try context.arguments.value("max-age").map(parseMaxAge),
            maxItems: try context.arguments.value("max-items").map(parseMaxItems))
        let dryRun = context.arguments.has("dry-run")
        let report = try context.catalog().cleanup(overrides: overrides, dryRun: dryRun)

        guard context.format == .table else {
            let records: [JSONValue] = report.removed.map { candidate in
                .object([
                    ("source", .string(candidate.ref.source.rawValue)),
                    ("id", .int(candidate.ref.id)),
                    ("cached_at", .string(Records.timestamp(candidate.cachedAt))),
                ])
            }
            try context.write(Records.render(records, as: context.format, columns: ["source", "id", "cached_at"]))
            return
        }
        if dryRun && !report.wouldRemove.isEmpty {
            try context.write(TableRenderer(terminal: context.terminal, catalog: context.catalog())
                .list(report.wouldRemove, showSource: true))
        }
        guard !context.isQuiet else { return }
        try context.write(summary(report, dryRun: dryRun) + "\n")
    }

    static func summary(_ report: Catalog.CleanupReport, dryRun: Bool) -> String {
        let count = report.removed.count
        let perSource = Dictionary(grouping: report.removed, by: \.ref.source)
            .sorted { $0.key < $1.key }
            .map { "\($0.key.rawValue) \($0.value.count)" }
        let detail = perSource.isEmpty ? "" : " (\(perSource.joined(separator: ", ")))"
        let verb = dryRun ? "would remove" : "removed"
        let limits = describe(report.rules)
        let images = report.imagesRemoved.files
        let pictures = images == 0 ? "" : " and \(images) picture\(images == 1 ? "" : "s") (\(byteCount(report.imagesRemoved.bytes)))"
        return "\(verb) \(count) item\(count == 1 ? "" : "s")\(detail)\(pictures); kept \(report.favoritesKept) favourite\(report.favoritesKept == 1 ? "" : "s"); \(limits)"
    }

    /// "max age 30d, max 500 items per source", or each source's own.
    private static func describe(_ rules: CleanupRules) -> String {
        func phrase(_ limits: CleanupRules.Limits) -> String {
            "max age \(CleanupRules.formatDuration(limits.maxAge)), max \(limits.maxItems) items"
        }
        if let uniform = rules.uniformLimits { return phrase(uniform) + " per source" }
        return SourceName.allCases.sorted().map { "\($0.rawValue): \(phrase(rules[$0]))" }.joined(separator: "; ")
    }

    /// "840 B", "12.5 KiB", "3.2 MiB".
    private static func byteCount(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }

    private static func parseMaxAge(_ text: String) throws -> Double {
        guard let age = CleanupRules.parseDuration(text) else {
            throw ComicsError.usage("--max-age must be a duration such as 30d, 12h, 90m or 2w, not '\(text)'")
        }
        return age
    }

    private static func parseMaxItems(_ text: String) throws -> Int {
        guard let count = Int(text), count >= 0 else {
            throw ComicsError.usage("--max-items must be a whole number of 0 or more, not '\(text)'")
        }
        return count
    }
}
