import CSQLite
import struct FoundationEssentials.Date

/// Favourites: the user's own data, kept apart from the cache they point into.
extension SQLiteCacheStore {
    public func changeFavorite(_ ref: ItemRef, _ change: FavoriteChange, at date: Date, keepingAtMost limit: Int) throws -> Bool {
        try guarded {
            try database.writeTransaction {
                let key: [SQLiteValue] = [.text(ref.source.rawValue), .integer(Int64(ref.id))]
                let isFavorite = try !database.query("SELECT 1 FROM favorites WHERE source = ? AND id = ?", key).isEmpty
                let wanted = switch change {
                case .add: true
                case .remove: false
                case .toggle: !isFavorite
                }
                if wanted && !isFavorite {
                    let count = try database.query("SELECT count(*) FROM favorites")[0][0].int ?? 0
                    guard count < limit else { throw FavoriteLimitReached(wouldBe: count + 1) }
                    try database.run("INSERT INTO favorites (source, id, added_at) VALUES (?, ?, ?)", key + [.date(date)])
                } else if !wanted && isFavorite {
                    try database.run("DELETE FROM favorites WHERE source = ? AND id = ?", key)
                }
                return wanted
            }
        }
    }

    public func favorites(source: SourceName?) throws -> [CachedItem] {
        try guarded {
            let rows = try database.query("""
                SELECT \(Self.itemColumns) FROM favorites f
                JOIN items i ON i.source = f.source AND i.id = f.id
                WHERE ?1 IS NULL OR f.source = ?1
                ORDER BY f.source, f.id
                """, [.optionalText(source?.rawValue)])
            return rows.compactMap(Self.cachedItem)
        }
    }

    public func addFavorites(_ refs: [ItemRef], at date: Date, keepingAtMost limit: Int) throws -> [ItemRef] {
        try guarded {
            try database.writeTransaction {
                let insert = try database.prepare("INSERT OR IGNORE INTO favorites (source, id, added_at) VALUES (?, ?, ?)")
                var added: [ItemRef] = []
                for ref in refs {
                    try insert.bind([.text(ref.source.rawValue), .integer(Int64(ref.id)), .date(date)])
                    _ = try insert.allRows()
                    if sqlite3_changes(database.connection) > 0 { added.append(ref) }
                }
                let count = try database.query("SELECT count(*) FROM favorites")[0][0].int ?? 0
                guard count <= limit else { throw FavoriteLimitReached(wouldBe: count) }
                return added
            }
        }
    }

    public func removeFavorites(_ refs: [ItemRef]) throws {
        try guarded {
            try database.writeTransaction {
                let delete = try database.prepare("DELETE FROM favorites WHERE source = ? AND id = ?")
                for ref in refs {
                    try delete.bind([.text(ref.source.rawValue), .integer(Int64(ref.id))])
                    _ = try delete.allRows()
                }
            }
        }
    }

    public func favoritesNotCached(source: SourceName?) throws -> [ItemRef] {
        try guarded {
            let rows = try database.query("""
                SELECT f.source, f.id FROM favorites f
                WHERE (?1 IS NULL OR f.source = ?1)
                AND NOT EXISTS (SELECT 1 FROM items i WHERE i.source = f.source AND i.id = f.id)
                ORDER BY f.source, f.id
                """, [.optionalText(source?.rawValue)])
            return rows.compactMap { row in
                guard let name = row[0].text, let source = SourceName(rawValue: name), let id = row[1].int else { return nil }
                return ItemRef(source: source, id: id)
            }
        }
    }

    public func isFavorite(_ ref: ItemRef) throws -> Bool {
        try guarded {
            try !database.query(
                "SELECT 1 FROM favorites WHERE source = ? AND id = ?",
                [.text(ref.source.rawValue), .integer(Int64(ref.id))]).isEmpty
        }
    }

    public func favoritesToFetch(limit: Int, notFoundSince: Date) throws -> [ItemRef] {
        try guarded {
            let rows = try database.query("""
                SELECT f.source, f.id FROM favorites f
                WHERE (f.not_found_at IS NULL OR f.not_found_at < ?1)
                AND NOT EXISTS (SELECT 1 FROM items i WHERE i.source = f.source AND i.id = f.id)
                ORDER BY f.source, f.id LIMIT ?2
                """, [.date(notFoundSince), .integer(Int64(limit))])
            return rows.compactMap { row in
                guard let name = row[0].text, let source = SourceName(rawValue: name), let id = row[1].int else { return nil }
                return ItemRef(source: source, id: id)
            }
        }
    }

    public func markFavoritesNotFound(_ refs: [ItemRef], at date: Date) throws {
        try guarded {
            try database.writeTransaction {
                let mark = try database.prepare("UPDATE favorites SET not_found_at = ? WHERE source = ? AND id = ?")
                for ref in refs {
                    try mark.bind([.date(date), .text(ref.source.rawValue), .integer(Int64(ref.id))])
                    _ = try mark.allRows()
                }
            }
        }
    }

    public func favoriteCount() throws -> Int {
        try guarded { try database.query("SELECT count(*) FROM favorites")[0][0].int ?? 0 }
    }
}
