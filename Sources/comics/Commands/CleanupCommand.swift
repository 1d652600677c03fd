import ComicsKit

/// `comics cleanup`: applies the cache limits now.
enum CleanupCommand {
    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let overrides = Catalog.CleanupOverrides(
            maxAge: try context.arguments.value("max-age").map(parseMaxAge),
            maxItems: try context.arguments.value("max-items").map(parseMaxItems))
        let dryRun = context.arguments.has("dry-run")
        let report = try context.catalog().cleanup(
            overrides: overrides, dryRun: dryRun, only: context.explicitSource.map { [$0] })

        var removed: [JSONValue] {
            report.removed.map { candidate in
                .object([
                    ("source", .string(candidate.ref.source.rawValue)),
                    ("id", .int(candidate.ref.id)),
                    ("cached_at", .string(CivilTime.timestamp(candidate.cachedAt))),
                ])
            }
        }
        switch context.format {
        case .table: break
        case .json, .ndjson:
            return try context.write(Records.render([record(report, removed: removed, dryRun: dryRun)], as: context.format, columns: [], single: true))
        case .csv, .tsv:
            return try context.write(Records.render(removed, as: context.format, columns: ["source", "id", "cached_at"]))
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
        let limits = describe(report.rules, mirroredQueries: report.mirroredQueries)
        let images = report.imagesRemoved.files
        let pictures = images == 0 ? "" : " and \(images) picture\(images == 1 ? "" : "s") (\(ByteCount.describe(report.imagesRemoved.bytes)))"
        var shrank = ""
        if let compaction = report.compaction, compaction.bytesAfter < compaction.bytesBefore {
            shrank = "; the database shrank from \(ByteCount.describe(compaction.bytesBefore)) to \(ByteCount.describe(compaction.bytesAfter))"
        }
        let textCount = report.textsRemoved.count
        let texts = textCount == 0 ? ""
            : " and \(textCount) text\(textCount == 1 ? "" : "s") (\(ByteCount.describe(report.textsRemoved.reduce(0) { $0 + $1.storedBytes })))"
        return "\(verb) \(count) item\(count == 1 ? "" : "s")\(detail)\(pictures)\(texts); kept \(report.favoritesKept) favourite\(report.favoritesKept == 1 ? "" : "s"); \(limits)\(shrank)"
    }

    /// The whole report for scripts: what went, what stayed, the limits
    /// applied and the database size before and after.
    private static func record(_ report: Catalog.CleanupReport, removed: [JSONValue], dryRun: Bool) -> JSONValue {
        let limits = SourceName.allCases.sorted().map { source -> (String, JSONValue) in
            (source.rawValue, .object([
                ("max_age", .string(CleanupRules.formatDuration(report.rules[source].maxAge))),
                ("max_items", report.rules[source].maxItems == Int.max ? .null : .int(report.rules[source].maxItems)),
                ("mirrored_queries", .array((report.mirroredQueries[source] ?? []).map(JSONValue.string))),
            ]))
        }
        return .object([
            ("dry_run", .bool(dryRun)),
            ("removed", .array(removed)),
            ("favorites_kept", .int(report.favoritesKept)),
            ("images_removed", .object([("files", .int(report.imagesRemoved.files)), ("bytes", .int(report.imagesRemoved.bytes))])),
            ("texts_removed", .array(report.textsRemoved.map { text in
                .object(Records.identity(text.ref) + [("stored_bytes", .int(text.storedBytes))])
            })),
            ("database_bytes_before", report.compaction.map { .int($0.bytesBefore) } ?? .null),
            ("database_bytes_after", report.compaction.map { .int($0.bytesAfter) } ?? .null),
            ("limits", .object(limits)),
        ])
    }

    /// "max age 30d, max 500 items per source", or each source's own.
    private static func describe(_ rules: CleanupRules, mirroredQueries: [SourceName: [String]]) -> String {
        func phrase(_ limits: CleanupRules.Limits, mirrored: Int) -> String {
            let spared = mirrored == 0 ? "" : " besides what \(mirrored) mirrored quer\(mirrored == 1 ? "y holds" : "ies hold")"
            return "max age \(CleanupRules.formatDuration(limits.maxAge)), "
                + (limits.maxItems == Int.max ? "no item limit (mirrored)" : "max \(limits.maxItems) items\(spared)")
        }
        if let uniform = rules.uniformLimits, mirroredQueries.values.allSatisfy(\.isEmpty) {
            return phrase(uniform, mirrored: 0) + (uniform.maxItems == Int.max ? "" : " per source")
        }
        return SourceName.allCases.sorted()
            .map { "\($0.rawValue): \(phrase(rules[$0], mirrored: mirroredQueries[$0]?.count ?? 0))" }.joined(separator: "; ")
    }

    private static func parseMaxAge(_ text: String) throws -> Double {
        guard let age = CleanupRules.parseDuration(text) else {
            throw ComicsError.usage("--max-age must be a duration such as 30d, 12h, 90m or 2w, not \(MessageText.quoted(text))")
        }
        return age
    }

    private static func parseMaxItems(_ text: String) throws -> Int {
        guard let count = Int(text), count >= 0 else {
            throw ComicsError.usage("--max-items must be a whole number of 0 or more, not \(MessageText.quoted(text))")
        }
        return count
    }
}
