import CSQLite
import struct FoundationEssentials.Date

/// A raw SQLite connection handle; it never leaves the storage layer.
typealias SQLiteConnection = OpaquePointer

/// A value bound to, or read from, a statement.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A failed SQLite call: the result code, SQLite's message and the SQL that
/// was running, so a bug report says everything.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    let sql: String?

    var primaryCode: Int32 { code & 0xFF }

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }
}

/// One connection to the cache database, opened with the settings every
/// comics process shares: a busy timeout so writers wait for each other
/// instead of failing, FULL sync. (WAL, so readers never wait for writers,
/// is switched on by `Migrations` once the file is known to be ours.)
final class SQLiteDatabase {
    let connection: SQLiteConnection
    let path: String

    /// How long a writer waits for another before giving up (exit 5).
    static let busyTimeoutMilliseconds: Int32 = 15_000

    /// `readOnly` opens an existing file without changing it (to salvage a
    /// damaged one). A link at `path` is not followed: the store resolves
    /// the path, checked, before it opens.
    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        var handle: SQLiteConnection?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message, sql: nil)
        }
        connection = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // Nothing may rewrite the schema by hand or corrupt the file on
        // purpose through this connection.
        _ = comics_sqlite_defensive(handle)
        // A read-only connection salvages rows; it never searches.
        guard !readOnly else { return }
        // Search snippets in time linear in the text (FTS5's own is
        // quadratic), and a ranking that favours what an item is about.
        let registered = comics_sqlite_register_search_functions(handle)
        guard registered == SQLITE_OK else {
            throw SQLiteError(code: registered, message: "cannot register the search functions", sql: nil)
        }
        try execute("PRAGMA synchronous = FULL")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    /// Rows this connection has written since it opened.
    var totalChanges: Int { Int(sqlite3_total_changes64(connection)) }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Runs SQL that may hold several statements and binds nothing.
    func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(connection, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(connection))
            throw SQLiteError(code: code, message: message, sql: sql)
        }
    }

    /// Runs one statement and returns its rows.
    func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.allRows()
    }

    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        _ = try query(sql, values)
    }

    /// Runs `body` in a write transaction. `BEGIN IMMEDIATE` takes the write
    /// lock up front, so a transaction that reads and then writes waits for
    /// another writer instead of failing with "database is locked".
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` against one consistent snapshot of the database.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN DEFERRED")
        defer { try? execute("COMMIT") }
        return try body()
    }
}

/// A prepared statement; finalized when it goes away.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase
    let sql: String

    fileprivate init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(database.connection, sql, -1, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database.connection)), sql: sql)
        }
        statement = handle
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(statement)
    }

    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, index)
            case let .integer(number): sqlite3_bind_int64(statement, index, number)
            case let .real(number): sqlite3_bind_double(statement, index, number)
            case let .text(text): sqlite3_bind_text(statement, index, text, -1, comics_sqlite_transient())
            case let .blob(bytes):
                bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(buffer.count), comics_sqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    /// Steps to the end, collecting every row.
    func allRows() throws(SQLiteError) -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                sqlite3_reset(statement)
                throw failure(code)
            }
            rows.append((0..<sqlite3_column_count(statement)).map(column))
        }
        sqlite3_reset(statement)
        return rows
    }

    /// Steps through the rows without building a value per column; `body`
    /// reads the current row with `integer(at:)`, `real(at:)`, `text(at:)` and `optionalReal(at:)`. For reads
    /// of many rows, where allocations would dominate.
    func forEachRow(_ body: (SQLiteStatement) throws -> Void) throws {
        defer { sqlite3_reset(statement) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            try body(self)
        }
    }

    func integer(at index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    func real(at index: Int32) -> Double { sqlite3_column_double(statement, index) }

    func blob(at index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, index))
        guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func text(at index: Int32) -> String? { column(index).text }

    /// A plausible time (`SQLiteValue.time`), or nil.
    func time(at index: Int32) -> Date? { column(index).time }
    func timeOrEpoch(at index: Int32) -> Date { column(index).timeOrEpoch }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
        case SQLITE_NULL: .null
        case SQLITE_BLOB: .blob(blob(at: index))
        default: .text(sqlite3_column_text(statement, index).map { String(cString: $0) } ?? "")
        }
    }

    private func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database.connection)), sql: sql)
    }
}

extension SQLiteValue {
    /// A real stands for an integer only when it is one exactly (1e19 in
    /// an INTEGER column is stored as a real, and would trap).
    var int: Int? {
        switch self {
        case let .integer(number): Int(number)
        case let .real(number): Int(exactly: number)
        default: nil
        }
    }

    /// The integer when it lies in `range` (what comics writes in that
    /// column), else nil: a row someone else wrote is damage, not a trap.
    func int(in range: ClosedRange<Int>) -> Int? {
        int.flatMap { range.contains($0) ? $0 : nil }
    }

    /// A time comics could have written: finite, from 1970 to 2100.
    var time: Date? {
        guard let seconds = double, seconds.isFinite, (0...Self.latestTime).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `time`, or 1970 for a damaged one: the oldest, first to go.
    var timeOrEpoch: Date { time ?? Date(timeIntervalSince1970: 0) }

    /// 2100-01-01, in seconds since 1970.
    static let latestTime: Double = 4_102_444_800

    var double: Double? {
        switch self {
        case let .integer(number): Double(number)
        case let .real(number): number
        default: nil
        }
    }

    var text: String? {
        if case let .text(value) = self { return value }
        return nil
    }

    var bytes: [UInt8]? {
        if case let .blob(value) = self { return value }
        return nil
    }

    static func optionalText(_ value: String?) -> SQLiteValue {
        value.map(SQLiteValue.text) ?? .null
    }

    static func date(_ date: Date) -> SQLiteValue {
        .real(date.timeIntervalSince1970)
    }
}
