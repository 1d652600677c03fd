import CSQLite
import Glibc

/// Upkeep: statistics, the integrity check, compaction, and settings.
extension SQLiteCacheStore {
    public func statistics() throws -> CacheStatistics {
        try guarded {
            var sources: [SourceName: CacheStatistics.Source] = [:]
            for source in SourceName.allCases { sources[source] = CacheStatistics.Source() }
            try database.readTransaction {
                for row in try database.query("SELECT source, count(*), min(cached_at), max(cached_at) FROM items GROUP BY source") {
                    guard let name = row[0].text, let source = SourceName(rawValue: name) else { continue }
                    sources[source]?.items = row[1].int ?? 0
                    sources[source]?.oldestCachedAt = row[2].time
                    sources[source]?.newestCachedAt = row[3].time
                }
                for row in try database.query("""
                    SELECT f.source, count(*), sum(i.id IS NULL) FROM favorites f
                    LEFT JOIN items i ON i.source = f.source AND i.id = f.id GROUP BY f.source
                    """) {
                    guard let name = row[0].text, let source = SourceName(rawValue: name) else { continue }
                    sources[source]?.favorites = row[1].int ?? 0
                    sources[source]?.pendingFavorites = row[2].int ?? 0
                }
            }
            return CacheStatistics(
                location: database.path, bytesOnDisk: bytesOnDisk(), schemaVersion: Self.schemaVersion, sources: sources)
        }
    }

    /// The file and its WAL, measured with stat(2): never opened a second time.
    public func bytesOnDisk() -> Int {
        [database.path, database.path + "-wal"].reduce(0) { total, path in
            var status = stat()
            return total + (stat(path, &status) == 0 ? Int(status.st_size) : 0)
        }
    }

    public func integrityProblems() throws -> [String] {
        try guarded {
            try database.query("PRAGMA quick_check").compactMap { $0[0].text }.filter { $0 != "ok" }
        }
    }

    /// A database made by this build vacuums incrementally, which costs in
    /// proportion to the pages freed; when most of the file is free, VACUUM
    /// (in proportion to what is kept) is the cheaper way. An older database
    /// with much free space is rebuilt once by VACUUM, which also switches
    /// it to incremental. The WAL is then truncated so the file really
    /// shrinks.
    public func compact() throws -> Compaction {
        try guarded {
            let before = bytesOnDisk()
            let freePages = try database.query("PRAGMA freelist_count")[0][0].int ?? 0
            let pages = try database.query("PRAGMA page_count")[0][0].int ?? 0
            let pageSize = try database.query("PRAGMA page_size")[0][0].int ?? 4096
            guard freePages > 0 else { return Compaction(bytesBefore: before, bytesAfter: before) }
            let incremental = try database.query("PRAGMA auto_vacuum")[0][0].int == Self.incrementalAutoVacuum
            if incremental, freePages * 2 < pages {
                try database.run("PRAGMA incremental_vacuum")
            } else if incremental || freePages * 4 >= pages || freePages * pageSize >= 8 << 20 {
                try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
                try database.execute("VACUUM")
            }
            try database.run("PRAGMA wal_checkpoint(TRUNCATE)")
            return Compaction(bytesBefore: before, bytesAfter: bytesOnDisk())
        }
    }

    static let incrementalAutoVacuum = 2


    public func setting(_ key: String) throws -> String? {
        try guarded {
            try database.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?[0].text
        }
    }

    public func removeSetting(_ key: String) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("DELETE FROM settings WHERE key = ?", [.text(key)])
            }
        }
    }

    public func setSetting(_ key: String, to value: String) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            }
        }
    }
}
