import CSQLite

/// Cleanup: removing what the limits select, the search index kept in step.
extension SQLiteCacheStore {
    /// Reads the candidates column by column, a source at a time, and
    /// deletes what `select` picks with one statement per source: a cache of
    /// 100,000 items is cleaned in SQLite's time, not in per-row round trips.
    public func removeItems(
        dryRun: Bool, select: ([CleanupRules.Candidate]) -> [CleanupRules.Candidate]
    ) throws -> [CleanupRules.Candidate] {
        try guarded {
            try database.writeTransaction {
                let read = try database.prepare("""
                    SELECT i.id, i.cached_at, i.used_at, i.id IN (
                        SELECT j.value FROM pages p JOIN mirrors m ON m.source = p.source AND m.query = p.query,
                            json_each(p.item_ids) j
                        WHERE p.source = ?1
                    ) FROM items i WHERE i.source = ?1
                    AND NOT EXISTS (SELECT 1 FROM favorites f WHERE f.source = ?1 AND f.id = i.id)
                    """)
                var candidates: [CleanupRules.Candidate] = []
                for source in SourceName.allCases {
                    try read.bind([.text(source.rawValue)])
                    try read.forEachRow { row in
                        candidates.append(CleanupRules.Candidate(
                            ref: ItemRef(source: source, id: Int(row.integer(at: 0))),
                            cachedAt: row.timeOrEpoch(at: 1),
                            usedAt: row.time(at: 2),
                            isMirrored: row.integer(at: 3) != 0))
                    }
                }
                let selected = select(candidates)
                guard !dryRun else { return selected }
                let itemCount = try database.query("SELECT count(*) FROM items")[0][0].int ?? 0
                try withSearchIndexRebuilt(if: selected.count > itemCount - selected.count) { indexIsKept in
                    let unindex = try indexIsKept ? database.prepare("""
                        DELETE FROM item_search WHERE rowid IN (
                            SELECT \(SearchIndex.rowID(source: "?1", id: "j.value")) FROM json_each(?2) j
                            WHERE NOT EXISTS (SELECT 1 FROM favorites f WHERE f.source = ?1 AND f.id = j.value))
                        """) : nil
                    let delete = try database.prepare("""
                        DELETE FROM items WHERE source = ?1 AND id IN (SELECT value FROM json_each(?2))
                        AND NOT EXISTS (SELECT 1 FROM favorites f WHERE f.source = ?1 AND f.id = items.id)
                        """)
                    for (source, doomed) in Dictionary(grouping: selected, by: \.ref.source) {
                        let ids = "[" + doomed.map { String($0.ref.id) }.joined(separator: ",") + "]"
                        for statement in [unindex, delete].compactMap({ $0 }) {
                            try statement.bind([.text(source.rawValue), .text(ids)])
                            _ = try statement.allRows()
                        }
                    }
                }
                return selected
            }
        }
    }

    /// Removing a row from the search index costs as much as indexing it
    /// (SQLite's FTS5 tokenizes the stored text again), so when most rows
    /// go, the index is dropped, and what stays is indexed afresh, inside
    /// the caller's transaction; `body` is told whether the index is kept
    /// (and must be updated). It is recreated from the definition in the
    /// code, never from text the file holds: a file must not be able to
    /// choose the SQL comics runs.
    private func withSearchIndexRebuilt(if rebuild: Bool, _ body: (_ indexIsKept: Bool) throws -> Void) throws {
        guard rebuild else { return try body(true) }
        try database.execute("DROP TABLE item_search")
        try body(false)
        try database.execute(SearchIndex.definition)
        try SearchIndex.indexEveryItem(in: database)
    }
}
