import CSQLite
import FoundationEssentials
import Glibc

/// The cache and the user's favourites in one SQLite file. Every write is
/// one `BEGIN IMMEDIATE` transaction; network I/O never happens inside one.
public final class SQLiteCacheStore: CacheStore {
    let database: SQLiteDatabase

    /// The schema this build writes: the number of migrations it knows.
    public static let schemaVersion = Migrations.all.count

    /// Opens (creating if needed) the database at `path`: the file is made
    /// 0600, then the schema is migrated. A missing directory is made 0700
    /// when `createsDirectory` (the default location); otherwise a path
    /// into a folder that does not exist is a mistake to report, not to build.
    public init(path: String, now: Date = Date(), createsDirectory: Bool = true) throws {
        do {
            try Self.prepareFile(at: path, createsDirectory: createsDirectory)
            database = try SQLiteDatabase(path: path)
            try Migrations.migrate(database, now: now)
            // From here on, nothing in the file's schema may call a
            // function with side effects or use a virtual table.
            try database.execute("PRAGMA trusted_schema = OFF")
        } catch let error as SQLiteError {
            throw Self.describe(error, path: path)
        }
    }

    /// Creates missing directories (0700) and the file (0600) before SQLite
    /// does, so neither is ever readable by other users.
    private static func prepareFile(at path: String, createsDirectory: Bool) throws {
        guard path != ":memory:" else { return }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            guard createsDirectory else {
                throw ComicsError.database("the folder \(directory) for the database \(path) does not exist; create it, or give another --db")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ComicsError.database("cannot create the directory \(directory) for the database")
            }
        }
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            throw ComicsError.database("\(path) is not a regular file; give a database file with --db")
        }
        try checkOwnership(of: path, directory: directory.isEmpty ? "." : directory)
        // Only a file that does not exist yet is opened (and closed) here:
        // closing any descriptor of a file drops every POSIX lock this
        // process holds on it, and another connection of this process
        // (browse has three) would lose the locks SQLite took for it, so
        // another process could take the database for unused and remove
        // its WAL under it.
        guard stat(path, &status) != 0, errno == ENOENT else { return }
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NONBLOCK, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EACCES && errno != EROFS && errno != EEXIST {
            throw ComicsError.database("cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    public func changeCounter() throws -> Int {
        try guarded { try database.query("PRAGMA data_version")[0][0].int ?? 0 }
    }

    /// As ssh refuses a key others could have written, comics refuses a
    /// database they could have: another user's file, or one that group or
    /// others may write, could hold anything (the schema is checked, the
    /// rows are data). Its folder must be this user's or root's, and
    /// writable by no one else unless sticky (as /tmp is), where nobody can
    /// replace another's files.
    private static func checkOwnership(of path: String, directory: String) throws {
        let user = getuid()
        var folder = stat()
        if stat(directory, &folder) == 0 {
            guard folder.st_uid == user || folder.st_uid == 0 else {
                throw ComicsError.database(
                    "the folder \(directory) holding the database belongs to another user; comics keeps its data only in folders of its own")
            }
            guard folder.st_mode & (S_IWGRP | S_IWOTH) == 0 || folder.st_mode & S_ISVTX != 0 else {
                throw ComicsError.database(
                    "the folder \(directory) holding the database is writable by others; make it private: chmod go-w '\(directory)'")
            }
        }
        var file = stat()
        if stat(path, &file) == 0 {
            guard file.st_uid == user else {
                throw ComicsError.database("the database \(path) belongs to another user; comics opens only its own files")
            }
            guard file.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
                throw ComicsError.database("the database \(path) is writable by others; make it private: chmod 600 '\(path)'")
            }
        }
        // SQLite reads the write-ahead log, its index and a rollback journal
        // beside the file as part of it, and checkpoints what they hold into
        // it: a planted one would replace the cache's contents for good.
        for companion in ["-wal", "-shm", "-journal"].map({ path + $0 }) {
            guard lstat(companion, &file) == 0 else { continue }
            guard (file.st_mode & S_IFMT) == S_IFREG, file.st_uid == user else {
                throw ComicsError.database(
                    "\(companion), which SQLite would read as part of the database, is not a file of yours; "
                        + "comics opens only its own files: remove it if no comics is running: rm '\(companion)'")
            }
            guard file.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
                throw ComicsError.database(
                    "\(companion), which SQLite would read as part of the database, is writable by others; "
                        + "make it private: chmod 600 '\(companion)'")
            }
        }
    }

    /// What can still be read from a database that may be damaged: the
    /// favourites and the settings, each table on its own, so damage to
    /// one costs only that one. The file is opened read-only and once.
    public static func salvage(at path: String) -> Salvage {
        var salvage = Salvage()
        guard FileManager.default.fileExists(atPath: path) else { return salvage }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, readOnly: true)
        } catch {
            salvage.problems.append(error.message)
            return salvage
        }
        do {
            salvage.favorites = try database.query("SELECT source, id FROM favorites ORDER BY source, id").compactMap { row in
                guard let name = row[0].text, let source = SourceName(rawValue: name), let id = row[1].int else { return nil }
                return ItemRef(source: source, id: id)
            }
        } catch {
            salvage.problems.append("favourites: \(error.message)")
        }
        do {
            salvage.settings = try database.query("SELECT key, value FROM settings WHERE key LIKE 'config.%' ORDER BY key")
                .compactMap { row in row[0].text.flatMap { key in row[1].text.map { (key, $0) } } }
        } catch {
            salvage.problems.append("settings: \(error.message)")
        }
        return salvage
    }

    /// Renames the database and its WAL and shared-memory files to
    /// `PATH.damaged-STAMP`, so a new one can start; returns the new name.
    /// The new name is never one that exists: a second rebuild in the same
    /// second gets `-2`, and each move refuses to replace a file (a hard
    /// link fails if the name is taken; only then is the old name removed).
    public static func moveAside(_ path: String, stamp: String) throws -> String {
        var aside = "\(path).damaged-\(stamp)"
        var attempt = 1
        while ["", "-wal", "-shm"].contains(where: { access(aside + $0, F_OK) == 0 }) {
            attempt += 1
            aside = "\(path).damaged-\(stamp)-\(attempt)"
        }
        for suffix in ["", "-wal", "-shm"] {
            guard link(path + suffix, aside + suffix) == 0 else {
                if errno == ENOENT { continue }
                throw ComicsError.database("cannot move \(path + suffix) aside: \(String(cString: strerror(errno)))")
            }
            unlink(path + suffix)
        }
        return aside
    }

    static func describe(_ error: SQLiteError, path: String) -> ComicsError {
        switch error.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .database("the database \(path) stayed locked by another comics process; try again")
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return .database("\(path) is damaged or not a comics database (\(error.message)); 'comics rebuild' moves it aside and keeps your favourites")
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return .database("cannot write the database \(path) (\(error.message)); check that it and its directory are writable")
        case SQLITE_FULL, SQLITE_IOERR:
            return .database("cannot write the database \(path) (\(error.message)); is the disk full?")
        default:
            return .database("the database \(path) failed: \(error)")
        }
    }

    /// Turns SQLite failures into user-facing errors.
    func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw Self.describe(error, path: database.path)
        }
    }

    // MARK: - Items

    private static let itemColumns =
        "i.source, i.id, i.title, i.url, i.attributes, i.cached_at, i.etag, i.last_modified, f.id IS NOT NULL, i.used_at"

    public func cachedItems(_ refs: [ItemRef]) throws -> [ItemRef: CachedItem] {
        try guarded {
            try database.readTransaction { try readItems(refs) }
        }
    }

    /// Reads items inside the caller's transaction.
    private func readItems(_ refs: [ItemRef]) throws -> [ItemRef: CachedItem] {
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

    private static func cachedItem(from row: [SQLiteValue]) -> CachedItem? {
        guard let sourceName = row[0].text, let source = SourceName(rawValue: sourceName), let id = row[1].int,
              let title = row[2].text, let url = row[3].text, let attributesText = row[4].text,
              let cachedAt = row[5].double,
              case let .object(members)? = try? JSONValue.parse(attributesText)
        else { return nil }
        let item = Item(ref: ItemRef(source: source, id: id), title: title, url: url,
                        attributes: members.map { Attribute($0.0, $0.1) })
        return CachedItem(
            item: item, cachedAt: Date(timeIntervalSince1970: cachedAt), isFavorite: row[8].int == 1,
            validators: Validators(etag: row[6].text, lastModified: row[7].text),
            usedAt: row.count > 9 ? row[9].double.map(Date.init(timeIntervalSince1970:)) : nil)
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
    private func upsert(_ items: [FetchedItem], at date: Date) throws {
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

    // MARK: - Pages and cursors

    public func page(_ key: PageKey) throws -> StoredPage? {
        try guarded {
            let rows = try database.query("""
                SELECT item_ids, next_position, fetched_at, etag, last_modified, total FROM pages
                WHERE source = ? AND query = ? AND position = ?
                """, [.text(key.source.rawValue), .text(key.query), .text(key.position)])
            guard let row = rows.first, let idsText = row[0].text, let fetchedAt = row[2].double,
                  let ids = try? JSONValue.parse(idsText).arrayValue?.compactMap(\.intValue)
            else { return nil }
            return StoredPage(
                key: key, itemIDs: ids, nextPosition: row[1].text, fetchedAt: Date(timeIntervalSince1970: fetchedAt),
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
                "SELECT next_position, page_size FROM cursors WHERE source = ? AND query = ?",
                [.text(source.rawValue), .text(query)])
            guard let row = rows.first else { return nil }
            return row[0].text.map { .next(position: $0, pageSize: row[1].int) } ?? .endOfArchive
        }
    }

    public func setCursor(_ cursor: PageCursor, source: SourceName, query: String, at date: Date) throws {
        let (position, pageSize): (SQLiteValue, SQLiteValue) = switch cursor {
        case let .next(position, pageSize): (.text(position), pageSize.map { .integer(Int64($0)) } ?? .null)
        case .endOfArchive: (.null, .null)
        }
        try guarded {
            try database.writeTransaction {
                try database.run(
                    "INSERT OR REPLACE INTO cursors (source, query, next_position, page_size, updated_at) VALUES (?, ?, ?, ?, ?)",
                    [.text(source.rawValue), .text(query), position, pageSize, .date(date)])
            }
        }
    }

    // MARK: - Favourites

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

    // MARK: - What the cache can show without the network

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
                .first?[0].double.map { Date(timeIntervalSince1970: $0) }
        }
    }

    // MARK: - Mirrors

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

    public func removePages(of source: SourceName, fetchedBefore date: Date) throws {
        try guarded {
            try database.writeTransaction {
                try database.run(
                    "DELETE FROM pages WHERE source = ? AND fetched_at < ?",
                    [.text(source.rawValue), .real(date.timeIntervalSince1970)])
            }
        }
    }

    public func attributeStrings(forKeys keys: [String]) throws -> Set<String> {
        try guarded {
            var values = Set<String>()
            for key in keys {
                let path = "$.\"\(key.replacing("\"", with: ""))\""
                let rows = try database.query(
                    "SELECT json_extract(attributes, ?1) FROM items WHERE json_type(attributes, ?1) = 'text'", [.text(path)])
                values.formUnion(rows.compactMap { $0[0].text })
            }
            return values
        }
    }

    // MARK: - Cleanup

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
                            cachedAt: Date(timeIntervalSince1970: row.real(at: 1)),
                            usedAt: row.optionalReal(at: 2).map(Date.init(timeIntervalSince1970:)),
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

    // MARK: - Search

    /// Best match first: items whose title or names (authors, translators,
    /// editors) match the query, then items holding its words as one exact
    /// phrase, then the rest, each group in `comics_rank` order (BM25 with
    /// a title or name match weighing ten times the rest, and each field's
    /// length counting less than in FTS5's bm25).
    public func search(_ query: String, source: SourceName?, limit: Int) throws -> (matches: [SearchMatch], total: Int) {
        let search = SearchExpression(query)
        var values: [SQLiteValue] = [
            .text(search.expression), .text(String(SearchMatch.start)), .text(String(SearchMatch.end)),
            .optionalText(source?.rawValue), .integer(Int64(limit)), .text(search.inTitle),
        ]
        var literalFilter = "", phraseTier = ""
        let literals = JSONValue.array(search.literals.map(JSONValue.string)).serialized
        func literalCondition(_ parameter: Int) -> String {
            search.literals.isEmpty ? "" : """
                AND NOT EXISTS (SELECT 1 FROM json_each(?\(parameter))
                    WHERE instr(lower(item_search.title || ' ' || item_search.people || ' ' || item_search.body), lower(value)) = 0)
                """
        }
        if !search.literals.isEmpty {
            values.append(.text(literals))
            literalFilter = literalCondition(values.count)
        }
        if let phrase = search.phrase {
            values.append(.text(phrase))
            phraseTier = "(rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH ?\(values.count))) DESC,"
        }
        do {
            let rows = try database.query("""
                SELECT source, id, highlight(item_search, 0, ?2, ?3), comics_snippet(item_search, ?2, ?3, '…', 12) FROM item_search
                WHERE item_search MATCH ?1 AND (?4 IS NULL OR source = ?4) \(literalFilter)
                ORDER BY (rowid IN (SELECT rowid FROM item_search WHERE item_search MATCH ?6)) DESC,
                         \(phraseTier) comics_rank(item_search, \(SearchIndex.columnWeights))
                LIMIT ?5
                """, values)
            let matches: [SearchMatch] = rows.compactMap { row in
                guard let name = row[0].text, let source = SourceName(rawValue: name), let id = row[1].int,
                      let title = row[2].text
                else { return nil }
                return SearchMatch(ref: ItemRef(source: source, id: id), highlightedTitle: title, snippet: row[3].text ?? "")
            }
            // Counting every match costs a second pass: only when capped.
            guard matches.count == limit else { return (matches, matches.count) }
            let total = try database.query(
                "SELECT count(*) FROM item_search WHERE item_search MATCH ?1 AND (?2 IS NULL OR source = ?2) \(literalCondition(3))",
                [.text(search.expression), .optionalText(source?.rawValue)] + (search.literals.isEmpty ? [] : [.text(literals)]))
            return (matches, total.first?[0].int ?? matches.count)
        } catch let error where error.primaryCode == SQLITE_ERROR {
            // The only thing in this statement a person wrote is the query.
            throw ComicsError.usage(
                "cannot search for \(query): \(Self.explainQueryError(error.message))",
                hint: "words match anywhere; \"a phrase\" in double quotes, word* for a prefix, AND, OR, NOT and ( ) between them")
        } catch {
            throw Self.describe(error, path: database.path)
        }
    }

    /// What was wrong with a query, in words for people rather than FTS5's.
    static func explainQueryError(_ message: String) -> String {
        if message.contains("unterminated string") { return "a double quote is not closed" }
        if message.contains("no such column") { return "a word followed by ':' names a column; put the word in double quotes" }
        if message.contains("syntax error") { return "AND, OR and NOT need a term on each side, and ( ) must pair up" }
        return "the query cannot be read"
    }

    // MARK: - Upkeep

    public func statistics() throws -> CacheStatistics {
        try guarded {
            var sources: [SourceName: CacheStatistics.Source] = [:]
            for source in SourceName.allCases { sources[source] = CacheStatistics.Source() }
            try database.readTransaction {
                for row in try database.query("SELECT source, count(*), min(cached_at), max(cached_at) FROM items GROUP BY source") {
                    guard let name = row[0].text, let source = SourceName(rawValue: name) else { continue }
                    sources[source]?.items = row[1].int ?? 0
                    sources[source]?.oldestCachedAt = row[2].double.map(Date.init(timeIntervalSince1970:))
                    sources[source]?.newestCachedAt = row[3].double.map(Date.init(timeIntervalSince1970:))
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

    // MARK: - Settings

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

/// What `SQLiteCacheStore.salvage(at:)` could read from a database.
public struct Salvage: Sendable {
    public var favorites: [ItemRef] = []
    public var settings: [(key: String, value: String)] = []
    /// What could not be read, one entry per table or for the file.
    public var problems: [String] = []
}
