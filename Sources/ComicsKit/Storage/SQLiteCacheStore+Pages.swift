import CSQLite
import struct FoundationEssentials.Date

/// Listing pages, the cursors `more` follows, and the queries `sync` mirrors.
extension SQLiteCacheStore {
    public func page(_ key: PageKey) throws -> StoredPage? {
        try guarded {
            let rows = try database.query("""
                SELECT item_ids, next_position, fetched_at, etag, last_modified, total FROM pages
                WHERE source = ? AND query = ? AND position = ?
                """, [.text(key.source.rawValue), .text(key.query), .text(key.position)])
            guard let row = rows.first, let idsText = row[0].text, let fetchedAt = row[2].time,
                  let ids = try? JSONValue.parse(idsText).arrayValue?.compactMap(\.intValue)
            else { return nil }
            return StoredPage(
                key: key, itemIDs: ids, nextPosition: row[1].text, fetchedAt: fetchedAt,
                validators: Validators(etag: row[3].text, lastModified: row[4].text), total: row[5].int)
        }
    }

    public func save(_ page: StoredPage, items: [FetchedItem]) throws -> [CachedItem]? {
        try guarded {
            try database.writeTransaction {
                try upsert(items, at: page.fetchedAt)
                try insertPage(page)
                let refs = page.itemIDs.map { ItemRef(source: page.key.source, id: $0) }
                let found = try readItems(refs)
                let stored = refs.compactMap { found[$0] }
                return stored.count == refs.count ? stored : nil
            }
        }
    }

    /// One transaction for them all, and one statement for all their items:
    /// a commit is a sync to disk, and the search index flushes at every
    /// statement.
    public func save(pages: [(page: StoredPage, items: [FetchedItem])]) throws {
        guard let newest = pages.map(\.page.fetchedAt).max() else { return }
        try guarded {
            try database.writeTransaction {
                try upsert(pages.flatMap(\.items), at: newest)
                for (page, _) in pages { try insertPage(page) }
            }
        }
    }

    private func insertPage(_ page: StoredPage) throws {
        let ids = JSONValue.array(page.itemIDs.map(JSONValue.int)).serialized
        try database.run("""
            INSERT OR REPLACE INTO pages (source, query, position, item_ids, next_position, fetched_at, etag, last_modified, total)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(page.key.source.rawValue), .text(page.key.query), .text(page.key.position), .text(ids),
             .optionalText(page.nextPosition), .date(page.fetchedAt),
             .optionalText(page.validators.etag), .optionalText(page.validators.lastModified),
             page.total.map { .integer(Int64($0)) } ?? .null])
    }

    public func cursor(source: SourceName, query: String) throws -> PageCursor? {
        try guarded {
            let rows = try database.query(
                "SELECT next_position, page_size, shown_rows FROM cursors WHERE source = ? AND query = ?",
                [.text(source.rawValue), .text(query)])
            guard let row = rows.first else { return nil }
            guard let position = row[0].text else { return .endOfArchive }
            let pageSize = row[1].int(in: 1...Int(Int32.max))
            if let shown = row[2].int(in: 1...Int(Int32.max)) { return .within(position: position, shown: shown, pageSize: pageSize) }
            return .next(position: position, pageSize: pageSize)
        }
    }

    public func setCursor(_ cursor: PageCursor, source: SourceName, query: String, at date: Date) throws {
        let (position, pageSize, shown): (SQLiteValue, SQLiteValue, SQLiteValue) = switch cursor {
        case let .next(position, pageSize): (.text(position), pageSize.map { .integer(Int64($0)) } ?? .null, .null)
        case let .within(position, shown, pageSize): (.text(position), pageSize.map { .integer(Int64($0)) } ?? .null, .integer(Int64(shown)))
        case .endOfArchive: (.null, .null, .null)
        }
        try guarded {
            try database.writeTransaction {
                try database.run(
                    "INSERT OR REPLACE INTO cursors (source, query, next_position, page_size, shown_rows, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [.text(source.rawValue), .text(query), position, pageSize, shown, .date(date)])
            }
        }
    }


    public func addMirror(source: SourceName, query: String, at date: Date) throws {
        try guarded {
            try database.writeTransaction {
                try database.run(
                    "INSERT OR REPLACE INTO mirrors (source, query, synced_at) VALUES (?, ?, ?)",
                    [.text(source.rawValue), .text(query), .date(date)])
            }
        }
    }

    public func removeMirrors(of source: SourceName) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("DELETE FROM mirrors WHERE source = ?", [.text(source.rawValue)])
            }
        }
    }

    public func mirroredQueries(of source: SourceName) throws -> [String] {
        try guarded {
            try database.query("SELECT query FROM mirrors WHERE source = ? ORDER BY query", [.text(source.rawValue)])
                .compactMap { $0[0].text }
        }
    }

    public func removePages(of source: SourceName, fetchedBefore date: Date) throws {
        try guarded {
            try database.writeTransaction {
                try database.run(
                    "DELETE FROM pages WHERE source = ? AND fetched_at < ?",
                    [.text(source.rawValue), .real(date.timeIntervalSince1970)])
            }
        }
    }
}
