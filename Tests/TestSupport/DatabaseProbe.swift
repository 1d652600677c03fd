import CSQLite
import Foundation

/// Reads a comics database directly, to check what a command left behind.
public final class DatabaseProbe {
    private var connection: OpaquePointer?

    public init(path: String) throws {
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close(connection)
            throw FixtureError("cannot open \(path)")
        }
        sqlite3_busy_timeout(connection, 10_000)
    }

    deinit {
        sqlite3_close(connection)
    }

    /// Every row of a query, each column as text ("" for NULL).
    public func rows(_ sql: String) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw FixtureError(String(cString: sqlite3_errmsg(connection)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw FixtureError(String(cString: sqlite3_errmsg(connection))) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
            })
        }
        return rows
    }

    /// Changes a database as another program would (python3's sqlite3),
    /// to set up damage or an old layout; several statements may be given.
    public static func execute(on path: String, _ sql: String) throws {
        let process = try ChildProcess("python3", [
            "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.executescript(sys.argv[2])",
            path, sql,
        ], stderr: STDERR_FILENO)
        guard process.waitForExit() == 0 else { throw FixtureError("python3 could not run \(sql) on \(path)") }
    }

    public func scalar(_ sql: String) throws -> String {
        try rows(sql).first?.first ?? ""
    }

    public func count(_ sql: String) throws -> Int {
        Int(try scalar(sql)) ?? -1
    }
}
