import ComicsKit
import struct FoundationEssentials.Date
import Glibc

/// `comics info`: where the database is, what it holds and whether it is
/// healthy. Exits 5 when the quick check finds damage, so cron can notice.
enum InfoCommand {
    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let info: CatalogInfo
        do {
            info = try context.catalog().info()
        } catch let error as ComicsError where error.kind == .database {
            try reportUnusable(context, error: error)
            throw error
        }
        switch context.format {
        case .table:
            try context.write(table(info, now: Date()))
        case .json, .ndjson:
            try context.write(Records.render([record(info)], as: context.format, columns: [], single: true))
        case .csv, .tsv:
            throw ComicsError.usage("info prints one nested record, not rows", hint: "use --format json")
        }
        if !info.integrityProblems.isEmpty {
            throw ComicsError.database(
                "\(info.cache.location) failed its quick check (\(info.integrityProblems.joined(separator: "; "))); "
                    + "export your favourites with 'comics fav list -f json' and move the file aside")
        }
    }

    /// What can be said of a database that cannot be opened: where it is,
    /// its size, and why it cannot be used.
    private static func reportUnusable(_ context: CommandContext, error: ComicsError) throws {
        var status = stat()
        let size = stat(context.databasePath, &status) == 0 ? Int(status.st_size) : 0
        switch context.format {
        case .table:
            let lines = "database  \(context.databasePath)\nsize      \(ByteCount.describe(size))\ncheck     \(error.message)"
            try context.write(lines.split(separator: "\n").map { TerminalText.sanitize(String($0), singleLine: true) + "\n" }.joined())
        case .json, .ndjson:
            let record = JSONValue.object([
                ("database", .string(context.databasePath)), ("size_bytes", .int(size)), ("quick_check", .string(error.message)),
            ])
            try context.write(Records.render([record], as: context.format, columns: [], single: true))
        case .csv, .tsv:
            break
        }
    }

    private static func record(_ info: CatalogInfo) -> JSONValue {
        let sources = SourceName.allCases.sorted().map { source -> (String, JSONValue) in
            let statistics = info.cache.sources[source] ?? CacheStatistics.Source()
            let refresh = info.refreshes[source] ?? RefreshRecord()
            return (source.rawValue, .object([
                ("items", .int(statistics.items)),
                ("favorites", .int(statistics.favorites)),
                ("favorites_not_cached", .int(statistics.pendingFavorites)),
                ("oldest_cached_at", timestamp(statistics.oldestCachedAt)),
                ("newest_cached_at", timestamp(statistics.newestCachedAt)),
                ("last_refresh", timestamp(refresh.lastSuccess)),
                ("last_refresh_failure", refresh.lastFailure.map { failedAt in
                    .object([("at", .string(CivilTime.timestamp(failedAt))), ("reason", refresh.failureReason.map(JSONValue.string) ?? .null)])
                } ?? .null),
            ]))
        }
        return .object([
            ("database", .string(info.cache.location)),
            ("size_bytes", .int(info.cache.bytesOnDisk)),
            ("schema_version", .int(info.cache.schemaVersion)),
            ("quick_check", .string(info.integrityProblems.isEmpty ? "ok" : info.integrityProblems.joined(separator: "; "))),
            ("sources", .object(sources)),
            ("images", .object([
                ("directory", info.imagesLocation.map(JSONValue.string) ?? .null),
                ("files", .int(info.images.files)),
                ("bytes", .int(info.images.bytes)),
            ])),
            ("texts", .object([
                ("books", .int(info.texts.texts)), ("bytes", .int(info.texts.bytes)),
                ("stored_bytes", .int(info.texts.storedBytes)), ("reading_positions", .int(info.texts.positions)),
                ("html_editions", .int(info.texts.htmlEditions)),
            ])),
            ("last_cleanup", timestamp(info.lastCleanup)),
        ])
    }

    private static func timestamp(_ date: Date?) -> JSONValue {
        date.map { .string(CivilTime.timestamp($0)) } ?? .null
    }

    private static func table(_ info: CatalogInfo, now: Date) -> String {
        var rows: [(String, String)] = [
            ("database", info.cache.location),
            ("size", ByteCount.describe(info.cache.bytesOnDisk)),
            ("schema", "version \(info.cache.schemaVersion)"),
            ("check", info.integrityProblems.isEmpty ? "ok" : info.integrityProblems.joined(separator: "; ")),
        ]
        for source in SourceName.allCases.sorted() {
            rows.append((source.rawValue, describe(info.cache.sources[source] ?? CacheStatistics.Source())))
            rows.append(("  refreshed", describe(info.refreshes[source] ?? RefreshRecord(), now: now)))
        }
        var pictures = "\(info.images.files) file\(info.images.files == 1 ? "" : "s"), \(ByteCount.describe(info.images.bytes))"
        if let location = info.imagesLocation { pictures += " in \(location)" }
        rows.append(("pictures", pictures))
        let texts = info.texts
        rows.append(("texts", "\(texts.texts) book\(texts.texts == 1 ? "" : "s") (\(texts.htmlEditions) from HTML editions), \(ByteCount.describe(texts.bytes)) "
            + "(\(ByteCount.describe(texts.storedBytes)) stored); \(texts.positions) with a reading position"))
        rows.append(("last cleanup", info.lastCleanup.map {
            "\(CivilTime.timestamp($0)) (\(RelativeAge.describe(now.timeIntervalSince($0))))"
        } ?? "never"))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { name, value in
            name + String(repeating: " ", count: width - name.count + 2) + TerminalText.sanitize(value, singleLine: true) + "\n"
        }.joined()
    }

    /// "2026-12-01T10:00:00Z (3 hours ago); last failure 2026-12-01T12:00:00Z (1 hour ago): cannot reach xkcd.com".
    private static func describe(_ refresh: RefreshRecord, now: Date) -> String {
        func when(_ date: Date) -> String { "\(CivilTime.timestamp(date)) (\(RelativeAge.describe(now.timeIntervalSince(date))))" }
        var text = refresh.lastSuccess.map(when) ?? "never"
        if let failedAt = refresh.lastFailure {
            text += "; last failure \(when(failedAt))" + (refresh.failureReason.map { ": \($0)" } ?? "")
        }
        return text
    }

    private static func describe(_ statistics: CacheStatistics.Source) -> String {
        var text = "\(statistics.items) item\(statistics.items == 1 ? "" : "s"), "
            + "\(statistics.favorites) favourite\(statistics.favorites == 1 ? "" : "s")"
        if statistics.pendingFavorites > 0 { text += " (\(statistics.pendingFavorites) not cached yet)" }
        if let oldest = statistics.oldestCachedAt, let newest = statistics.newestCachedAt {
            text += "; cached from \(CivilTime.timestamp(oldest)) to \(CivilTime.timestamp(newest))"
        }
        return text
    }
}
