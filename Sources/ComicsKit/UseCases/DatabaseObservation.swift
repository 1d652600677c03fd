/// How a screen stays what the database holds: the screen declares the
/// queries it shows, and this runs them again only when they could answer
/// otherwise — a query newly declared, or a commit to the database by any
/// connection (another process, another connection of this one, or the
/// observing connection itself) — and hands back only the answers that
/// differ from the last it handed back. Nothing asks for a reload.
public final class DatabaseObservation<Query: Hashable, Answer: Equatable> {
    /// What a query gave: its answer, or why it could not be read (a fact
    /// a screen says, like any other).
    public enum Outcome: Equatable {
        case answer(Answer)
        case failure(String)
    }

    private let version: () throws -> DatabaseVersion
    private let read: (Query) throws -> Answer
    private var delivered: [Query: Outcome] = [:]
    private var seen: DatabaseVersion?
    /// How many times a query was run: what tests count to see that
    /// nothing runs when nothing changed.
    public private(set) var runs = 0

    /// `version` reads the database's change counter; `read` runs one
    /// query (on the same connection, so its answer is at least as new).
    public init(version: @escaping () throws -> DatabaseVersion, read: @escaping (Query) throws -> Answer) {
        self.version = version
        self.read = read
    }

    /// The observation over a catalog's own connection.
    public convenience init(catalog: Catalog, read: @escaping (Query) throws -> Answer) {
        self.init(version: { try catalog.databaseVersion() }, read: read)
    }

    /// The answers to `declared` that changed since they were last handed
    /// back, in no particular order. A query left out is forgotten: it is
    /// not run, and handed back afresh if declared again.
    public func changes(for declared: Set<Query>) -> [(query: Query, outcome: Outcome)] {
        delivered = delivered.filter { declared.contains($0.key) }
        let now = try? version()
        // A counter that cannot be read counts as a change: the queries
        // then say for themselves what is wrong.
        let databaseChanged = now == nil || now != seen
        seen = now
        var changed: [(query: Query, outcome: Outcome)] = []
        for query in declared where databaseChanged || delivered[query] == nil {
            runs += 1
            let outcome: Outcome
            do {
                outcome = .answer(try read(query))
            } catch {
                outcome = .failure("\(error)")
            }
            guard delivered[query] != outcome else { continue }
            delivered[query] = outcome
            changed.append((query, outcome))
        }
        return changed
    }
}

/// Where a database is in its history, as one connection sees it: another
/// connection's commit moves `dataVersion` (SQLite's `PRAGMA
/// data_version`), this connection's own writes move `ownChanges`.
public struct DatabaseVersion: Equatable, Sendable {
    public let dataVersion: Int
    public let ownChanges: Int

    public init(dataVersion: Int, ownChanges: Int) {
        self.dataVersion = dataVersion
        self.ownChanges = ownChanges
    }
}
