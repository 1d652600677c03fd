import struct FoundationEssentials.Date

extension SQLiteCacheStore {
    public func recordAbsent(_ absences: [ItemRef: Absence], at date: Date) throws {
        guard !absences.isEmpty else { return }
        let rows = JSONValue.array(absences.map { ref, absence in
            .array([.string(ref.source.rawValue), .int(ref.id), .string(absence.kind.rawValue), .string(absence.reason)])
        })
        try guarded {
            try database.writeTransaction {
                try database.run("""
                    INSERT INTO absences (source, id, kind, reason, checked_at)
                    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, ?2 FROM json_each(?1) WHERE true
                    ON CONFLICT (source, id) DO UPDATE SET kind = excluded.kind, reason = excluded.reason, checked_at = excluded.checked_at
                    """, [.text(rows.serialized), .date(date)])
                // Kept a week at most: the table stays as small as the archive's gaps.
                try database.run("DELETE FROM absences WHERE checked_at < ?", [.date(date.addingTimeInterval(-7 * 86_400))])
            }
        }
    }

    public func absent(_ refs: [ItemRef], since date: Date) throws -> [ItemRef: Absence] {
        guard !refs.isEmpty else { return [:] }
        let rows = JSONValue.array(refs.map { .array([.string($0.source.rawValue), .int($0.id)]) })
        return try guarded {
            var absent: [ItemRef: Absence] = [:]
            for row in try database.query("""
                SELECT a.source, a.id, a.kind, a.reason FROM json_each(?1) j JOIN absences a ON a.source = j.value ->> 0 AND a.id = j.value ->> 1
                WHERE a.checked_at >= ?2
                """, [.text(rows.serialized), .date(date)]) {
                guard let source = row[0].text.flatMap(SourceName.init(rawValue:)), let id = row[1].int,
                      let kind = row[2].text.flatMap(Absence.Kind.init(rawValue:)), let reason = row[3].text else { continue }
                absent[ItemRef(source: source, id: id)] = Absence(kind, reason)
            }
            return absent
        }
    }
}
