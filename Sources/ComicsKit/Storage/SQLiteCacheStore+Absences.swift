import FoundationEssentials

extension SQLiteCacheStore {
    public func recordAbsent(_ absences: [ItemRef: String], at date: Date) throws {
        guard !absences.isEmpty else { return }
        let rows = JSONValue.array(absences.map { .array([.string($0.key.source.rawValue), .int($0.key.id), .string($0.value)]) })
        try guarded {
            try database.writeTransaction {
                try database.run("""
                    INSERT INTO absences (source, id, reason, checked_at)
                    SELECT value ->> 0, value ->> 1, value ->> 2, ?2 FROM json_each(?1) WHERE true
                    ON CONFLICT (source, id) DO UPDATE SET reason = excluded.reason, checked_at = excluded.checked_at
                    """, [.text(rows.serialized), .date(date)])
                // Kept a week at most: the table stays as small as the archive's gaps.
                try database.run("DELETE FROM absences WHERE checked_at < ?", [.date(date.addingTimeInterval(-7 * 86_400))])
            }
        }
    }

    public func absent(_ refs: [ItemRef], since date: Date) throws -> [ItemRef: String] {
        guard !refs.isEmpty else { return [:] }
        let rows = JSONValue.array(refs.map { .array([.string($0.source.rawValue), .int($0.id)]) })
        return try guarded {
            var absent: [ItemRef: String] = [:]
            for row in try database.query("""
                SELECT a.source, a.id, a.reason FROM json_each(?1) j JOIN absences a ON a.source = j.value ->> 0 AND a.id = j.value ->> 1
                WHERE a.checked_at >= ?2
                """, [.text(rows.serialized), .date(date)]) {
                guard let source = row[0].text.flatMap(SourceName.init(rawValue:)), let id = row[1].int, let reason = row[2].text else { continue }
                absent[ItemRef(source: source, id: id)] = reason
            }
            return absent
        }
    }
}
