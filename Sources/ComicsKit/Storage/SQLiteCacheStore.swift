import CSQLite
import struct FoundationEssentials.Date
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
        let path = try Self.resolvedPath(path)
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

    /// `path` with its links resolved, so that every check and SQLite
    /// itself see the file that is used (SQLite puts the write-ahead log
    /// beside the real file, not beside the link). A link another user made
    /// (other than root) anywhere on the way is refused: in a shared folder
    /// it would make comics create, or read, a file of their choosing.
    public static func resolvedPath(_ path: String) throws -> String {
        try resolvedPath(path, depth: 0)
    }

    private static func resolvedPath(_ path: String, depth: Int) throws -> String {
        guard path != ":memory:" else { return path }
        let user = getuid()
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            var status = stat()
            guard lstat(prefix, &status) == 0 else { break }
            if (status.st_mode & S_IFMT) == S_IFLNK, status.st_uid != user, status.st_uid != 0 {
                throw ComicsError.database(
                    "\(prefix) is a symbolic link another user made; comics does not follow it: remove it, or give another --db")
            }
        }
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        // Not there yet: its folder resolved, its name as given, or where
        // a link of the user's own that leads nowhere yet leads.
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &target, Int(PATH_MAX))
        if length > 0, depth < 40 {
            let destination = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return try resolvedPath(destination.hasPrefix("/") ? destination : folder + "/" + destination, depth: depth + 1)
        }
        guard let real = realpath(folder.isEmpty ? "/" : folder, nil) else { return path }
        defer { free(real) }
        let resolved = String(cString: real)
        return (resolved == "/" ? "" : resolved) + "/" + name
    }

    /// Creates missing directories (0700) and the file (0600) before SQLite
    /// does, so neither is ever readable by other users.
    private static func prepareFile(at path: String, createsDirectory: Bool) throws {
        guard path != ":memory:" else { return }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty, !FileSystem.exists(directory) {
            guard createsDirectory else {
                throw ComicsError.database("the folder \(directory) for the database \(path) does not exist; create it, or give another --db")
            }
            guard FileSystem.createDirectories(directory, mode: 0o700) else {
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
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EACCES && errno != EROFS && errno != EEXIST {
            throw ComicsError.database("cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    public func databaseVersion() throws -> DatabaseVersion {
        try guarded {
            DatabaseVersion(dataVersion: try database.query("PRAGMA data_version")[0][0].int ?? 0, ownChanges: database.totalChanges)
        }
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
        guard FileSystem.exists(path) else { return salvage }
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
        salvageReading(database, into: &salvage)
        return salvage
    }

    /// Where reading stopped and the bookmarks: user data, like the
    /// favourites (a file from before them has none). Each row is bounded
    /// as the code writes it; a row that is not is left behind.
    private static func salvageReading(_ database: SQLiteDatabase, into salvage: inout Salvage) {
        let place = Self.place, percent = Self.percent
        func book(_ row: [SQLiteValue]) -> ItemRef? {
            guard row[0].text == SourceName.books.rawValue, let id = row[1].int, id > 0 else { return nil }
            return ItemRef(source: .books, id: id)
        }
        func has(_ table: String) -> Bool {
            (try? database.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).isEmpty == false) ?? false
        }
        if has("reading_positions") {
            do {
                salvage.readingPositions = try database.query("""
                    SELECT source, id, block, block_offset, substr(anchor, 1, 60), percent, section, at FROM reading_positions
                    ORDER BY source, id LIMIT \(salvageRowLimit)
                    """).compactMap { row in
                    guard let ref = book(row), let position = place(row[2], row[3]) else { return nil }
                    let section = row[6].int(in: 1...SectionOutline.maximumSections)
                    return (ref, ReadingPosition(
                        position: position, anchor: row[4].text ?? "", percent: percent(row[5]), section: section, at: row[7].timeOrEpoch))
                }
            } catch {
                salvage.problems.append("where reading stopped: \(error.message)")
            }
        }
        if has("bookmarks") {
            func hasColumn(_ name: String) -> Bool {
                (try? database.query("SELECT 1 FROM pragma_table_info('bookmarks') WHERE name = '\(name)'").isEmpty == false) ?? false
            }
            let hasPercent = hasColumn("percent"), hasNote = hasColumn("note")
            do {
                // At most a book's limit of them each, as comics keeps.
                salvage.bookmarks = try database.query("""
                    SELECT source, id, block, block_offset, substr(anchor, 1, 60), \(hasPercent ? "percent" : "0"), substr(name, 1, 200), at,
                           \(hasNote ? "substr(note, 1, \(Bookmark.maximumNoteLength))" : "NULL")
                    FROM (SELECT *, row_number() OVER (PARTITION BY source, id ORDER BY number) AS place FROM bookmarks)
                    WHERE place <= \(Bookmark.limit) ORDER BY source, id, number LIMIT \(salvageRowLimit)
                    """).compactMap { row in
                    guard let ref = book(row), let position = place(row[2], row[3]) else { return nil }
                    return (ref, Bookmark(
                        number: 0, position: position, anchor: row[4].text ?? "", percent: percent(row[5]),
                        name: row[6].text ?? "bookmark", at: row[7].timeOrEpoch, note: row[8].text))
                }
            } catch {
                salvage.problems.append("bookmarks: \(error.message)")
            }
        }
    }

    /// The most reading places or bookmarks a rebuild carries over.
    static let salvageRowLimit = 100_000

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
}

/// What `SQLiteCacheStore.salvage(at:)` could read from a database.
public struct Salvage: Sendable {
    public var favorites: [ItemRef] = []
    public var settings: [(key: String, value: String)] = []
    public var readingPositions: [(ref: ItemRef, position: ReadingPosition)] = []
    /// In the order they were made, numbered again when restored.
    public var bookmarks: [(ref: ItemRef, bookmark: Bookmark)] = []
    /// What could not be read, one entry per table or for the file.
    public var problems: [String] = []
}
