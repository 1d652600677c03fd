import CSQLite
import struct FoundationEssentials.Date

/// Items: reading and saving what the sources fetched, the marks of use
/// and revalidation, and what the cache can list without the network.
extension SQLiteCacheStore {
    static let itemColumns =
        "i.source, i.id, i.title, i.url, i.attributes, i.cached_at, i.etag, i.last_modified, f.id IS NOT NULL, i.used_at"

    public func cachedItems(_ refs: [ItemRef]) throws -> [ItemRef: CachedItem] {
        try guarded {
            try database.readTransaction { try readItems(refs) }
        }
    }

    /// Reads items inside the caller's transaction.
    func readItems(_ refs: [ItemRef]) throws -> [ItemRef: CachedItem] {
        let statement = try database.prepare("""
            SELECT \(Self.itemColumns) FROM items i
            LEFT JOIN favorites f ON f.source = i.source AND f.id = i.id
            WHERE i.source = ? AND i.id = ?
            """)
        var found: [ItemRef: CachedItem] = [:]
        for ref in Set(refs) {
            try statement.bind([.text(ref.source.rawValue), .integer(Int64(ref.id))])
            if let row = try statement.allRows().first, let item = Self.cachedItem(from: row) {
                found[ref] = item
            }
        }
        return found
    }

    static func cachedItem(from row: [SQLiteValue]) -> CachedItem? {
        guard let sourceName = row[0].text, let source = SourceName(rawValue: sourceName), let id = row[1].int,
              let title = row[2].text, let url = row[3].text, let attributesText = row[4].text,
              case let .object(members)? = try? JSONValue.parse(attributesText)
        else { return nil }
        let item = Item(ref: ItemRef(source: source, id: id), title: title, url: url,
                        attributes: members.map { Attribute($0.0, $0.1) })
        return CachedItem(
            // A time past what comics writes is as old as can be: fetched again.
            item: item, cachedAt: row[5].timeOrEpoch, isFavorite: row[8].int == 1,
            validators: Validators(etag: row[6].text, lastModified: row[7].text),
            usedAt: row.count > 9 ? row[9].time : nil)
    }

    public func save(_ items: [FetchedItem], at date: Date) throws {
        guard !items.isEmpty else { return }
        try guarded {
            try database.writeTransaction { try upsert(items, at: date) }
        }
    }

    /// All items in one statement, the rows passed as one JSON array: the
    /// search index (FTS5) writes its pending terms out at the start of
    /// every statement, so a statement per item cost a flush per item.
    func upsert(_ items: [FetchedItem], at date: Date) throws {
        guard !items.isEmpty else { return }
        let rows = JSONValue.array(items.map { fetched in
            let item = fetched.item
            return .array([
                .string(item.ref.source.rawValue), .int(item.ref.id), .string(item.title), .string(item.url),
                .object(item.attributes.map { ($0.key, $0.value) }),
                fetched.validators.etag.map(JSONValue.string) ?? .null,
                fetched.validators.lastModified.map(JSONValue.string) ?? .null,
            ])
        })
        try database.run("""
            INSERT INTO items (source, id, title, url, attributes, cached_at, etag, last_modified)
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value -> 4, ?2, value ->> 5, value ->> 6
            FROM json_each(?1) WHERE true
            ON CONFLICT (source, id) DO UPDATE SET
                title = excluded.title, url = excluded.url, attributes = excluded.attributes,
                cached_at = excluded.cached_at, etag = excluded.etag, last_modified = excluded.last_modified
            """, [.text(rows.serialized), .date(date)])
        try database.run("""
            DELETE FROM item_search WHERE rowid IN (SELECT \(SearchIndex.rowID(source: "value ->> 0", id: "value ->> 1")) FROM json_each(?1))
            """, [.text(rows.serialized)])
        try SearchIndex.insert(items.map { fetched in
            let item = fetched.item
            return (item.ref.source.rawValue, item.ref.id, item.title, item.attributes.map { ($0.key, $0.value) })
        }, into: database)
    }

    public func markUsed(_ refs: [ItemRef], at date: Date) throws {
        guard !refs.isEmpty else { return }
        let keys = JSONValue.array(refs.map { .array([.string($0.source.rawValue), .int($0.id)]) })
        try guarded {
            try database.writeTransaction {
                try database.run("""
                    UPDATE items SET used_at = ?2 WHERE (source, id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?1))
                    """, [.text(keys.serialized), .date(date)])
            }
        }
    }

    public func markRevalidated(_ revalidated: [ItemRef: Validators], at date: Date) throws {
        guard !revalidated.isEmpty else { return }
        try guarded {
            try database.writeTransaction {
                let update = try database.prepare("""
                    UPDATE items SET cached_at = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified)
                    WHERE source = ? AND id = ?
                    """)
                for (ref, validators) in revalidated {
                    try update.bind([.date(date), .optionalText(validators.etag), .optionalText(validators.lastModified),
                                     .text(ref.source.rawValue), .integer(Int64(ref.id))])
                    _ = try update.allRows()
                }
            }
        }
    }


    public func cachedIDs(of source: SourceName, atMost highest: Int?, limit: Int) throws -> [Int] {
        try guarded {
            try database.query("""
                SELECT id FROM items WHERE source = ?1 AND (?2 IS NULL OR id <= ?2) ORDER BY id DESC LIMIT ?3
                """, [.text(source.rawValue), highest.map { .integer(Int64($0)) } ?? .null, .integer(Int64(limit))])
                .compactMap { $0[0].int }
        }
    }

    public func randomCachedID(of source: SourceName) throws -> Int? {
        try guarded {
            try database.query("SELECT id FROM items WHERE source = ? ORDER BY random() LIMIT 1", [.text(source.rawValue)])
                .first?[0].int
        }
    }

    public func lastListingFetch(of source: SourceName) throws -> Date? {
        try guarded {
            try database.query("SELECT max(fetched_at) FROM pages WHERE source = ? AND position = ''", [.text(source.rawValue)])
                .first?[0].time
        }
    }

    public func attributeStrings(forKeys keys: [String]) throws -> Set<String> {
        try guarded {
            var values = Set<String>()
            for key in keys {
                let path = "$.\"\(key.replacingEvery("\"", with: ""))\""
                let rows = try database.query(
                    "SELECT json_extract(attributes, ?1) FROM items WHERE json_type(attributes, ?1) = 'text'", [.text(path)])
                values.formUnion(rows.compactMap { $0[0].text })
            }
            return values
        }
    }
}
