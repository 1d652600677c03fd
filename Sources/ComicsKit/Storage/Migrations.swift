import CSQLite
import struct FoundationEssentials.Date
import Glibc

/// One named schema change. Applied ones are recorded in the database, and
/// `PRAGMA user_version` holds how many have run.
struct Migration: Sendable {
    let name: String
    let sql: String
    /// Work SQL cannot do (text rules written in Swift), run after `sql`
    /// in the same transaction.
    var transform: (@Sendable (SQLiteDatabase) throws -> Void)? = nil
}

enum Migrations {
    /// `PRAGMA application_id` of a comics database ("comx"), so that
    /// another program's SQLite file is refused rather than written into.
    static let applicationID: Int32 = 0x636F_6D78

    /// Append only: never edit or reorder a migration that has shipped.
    static let all: [Migration] = [
        Migration(name: "create-cache", sql: """
            CREATE TABLE schema_migrations (
                name TEXT PRIMARY KEY,
                applied_at REAL NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE items (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                title TEXT NOT NULL,
                url TEXT NOT NULL,
                attributes TEXT NOT NULL,
                cached_at REAL NOT NULL,
                etag TEXT,
                last_modified TEXT,
                PRIMARY KEY (source, id)
            ) WITHOUT ROWID;
            CREATE INDEX items_by_age ON items (source, cached_at);
            CREATE TABLE favorites (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                added_at REAL NOT NULL,
                PRIMARY KEY (source, id)
            ) WITHOUT ROWID;
            CREATE TABLE pages (
                source TEXT NOT NULL,
                query TEXT NOT NULL,
                position TEXT NOT NULL,
                item_ids TEXT NOT NULL,
                next_position TEXT,
                fetched_at REAL NOT NULL,
                etag TEXT,
                last_modified TEXT,
                PRIMARY KEY (source, query, position)
            ) WITHOUT ROWID;
            CREATE TABLE cursors (
                source TEXT NOT NULL,
                query TEXT NOT NULL,
                next_position TEXT,
                updated_at REAL NOT NULL,
                PRIMARY KEY (source, query)
            ) WITHOUT ROWID;
            CREATE TABLE settings (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;
            """),
        Migration(name: "cleanup-limits-become-settings", sql: """
            UPDATE settings SET key = 'config.max-age' WHERE key = 'cleanup.max_age';
            UPDATE settings SET key = 'config.max-items' WHERE key = 'cleanup.max_items';
            """),
        // Full-text search over every item: the title, and every text
        // attribute that is not a link (alt text, transcript, authors,
        // subjects, bookshelves, summaries), as the view item_search_rows
        // says once. Triggers keep it in step with every insert, update and
        // delete, whoever makes them. The FTS rowid is derived from
        // (source, id), so a delete finds its row at once.
        Migration(name: "full-text-search", sql: """
            CREATE VIRTUAL TABLE item_search USING fts5(
                title, body, source UNINDEXED, id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
            );
            CREATE VIEW item_search_rows AS
            SELECT id * 4 + CASE source WHEN 'xkcd' THEN 1 WHEN 'books' THEN 2 ELSE 3 END AS search_rowid,
                   title,
                   (SELECT group_concat(value, ' ') FROM json_tree(items.attributes)
                    WHERE type = 'text' AND value NOT LIKE 'http%') AS body,
                   source, id
            FROM items;
            CREATE TRIGGER item_search_insert AFTER INSERT ON items BEGIN
                INSERT INTO item_search (rowid, title, body, source, id)
                SELECT search_rowid, title, body, source, id FROM item_search_rows WHERE source = new.source AND id = new.id;
            END;
            CREATE TRIGGER item_search_delete AFTER DELETE ON items BEGIN
                DELETE FROM item_search
                WHERE rowid = old.id * 4 + CASE old.source WHEN 'xkcd' THEN 1 WHEN 'books' THEN 2 ELSE 3 END;
            END;
            CREATE TRIGGER item_search_update AFTER UPDATE ON items BEGIN
                DELETE FROM item_search
                WHERE rowid = old.id * 4 + CASE old.source WHEN 'xkcd' THEN 1 WHEN 'books' THEN 2 ELSE 3 END;
                INSERT INTO item_search (rowid, title, body, source, id)
                SELECT search_rowid, title, body, source, id FROM item_search_rows WHERE source = new.source AND id = new.id;
            END;
            \(indexEveryItem);
            """),
        // A revalidated item (304) changes only its freshness: re-indexing
        // its text for that made a `sync --refresh` of the archive twice
        // as slow as fetching it.
        Migration(name: "search-index-follows-text-changes-only", sql: """
            DROP TRIGGER item_search_update;
            CREATE TRIGGER item_search_update AFTER UPDATE OF title, attributes ON items BEGIN
                DELETE FROM item_search
                WHERE rowid = old.id * 4 + CASE old.source WHEN 'xkcd' THEN 1 WHEN 'books' THEN 2 ELSE 3 END;
                INSERT INTO item_search (rowid, title, body, source, id)
                SELECT search_rowid, title, body, source, id FROM item_search_rows WHERE source = new.source AND id = new.id;
            END;
            """),
        // Stemmed search: "velociraptor" finds "velociraptors", "run" finds
        // "running" (the porter stemmer over unicode61). `+` and `#` are
        // part of words, so "c++", "c#" and "f#" are indexed whole instead
        // of as "c" and "f". The triggers name the table, so they carry on.
        Migration(name: "stemmed-search-keeps-programming-names", sql: """
            DROP TABLE item_search;
            \(searchIndex);
            \(indexEveryItem);
            """),
        // Comics cached by an older comics get today's text rules (titles
        // without markup, mis-encoded runs repaired); the triggers re-index
        // what changes. Validators are forgotten so that the next refresh
        // of each item and page fetches it whole: a 304 would keep text
        // decoded by the old rules, and books without their translators
        // and editors, which older versions did not keep.
        Migration(name: "exact-text-and-translators", sql: """
            UPDATE items SET etag = NULL, last_modified = NULL;
            UPDATE pages SET etag = NULL, last_modified = NULL;
            """, transform: applyTodaysXKCDTextRules),
        // `more` continues with the page size of the `list` it follows.
        Migration(name: "cursors-keep-page-size", sql: """
            ALTER TABLE cursors ADD COLUMN page_size INTEGER;
            """),
        // A books sync mirrors one query, not the whole source: cleanup
        // spares the books that query's pages hold. The old whole-source
        // mark cannot say which query it came from, so it goes; the next
        // sync of each query marks it again. A page remembers how many
        // items its query matches, so a sync can refuse a query too large
        // to mirror before walking it.
        Migration(name: "books-mirror-per-query", sql: """
            CREATE TABLE mirrors (
                source TEXT NOT NULL,
                query TEXT NOT NULL,
                synced_at REAL NOT NULL,
                PRIMARY KEY (source, query)
            ) WITHOUT ROWID;
            ALTER TABLE pages ADD COLUMN total INTEGER;
            DELETE FROM settings WHERE key = 'config.books.mirror';
            """),
        // Search marks matches with U+E000 and U+E001; text cached before
        // decoders dropped them from upstream text loses them here, and a
        // title longer than the decoders now keep is cut the same way
        // (highlighting a field costs time that grows faster than its size).
        Migration(name: "no-highlight-markers-in-data", sql: """
            UPDATE items SET title = replace(replace(title, char(57344), ''), char(57345), ''),
                attributes = replace(replace(attributes, char(57344), ''), char(57345), '')
            WHERE instr(title || attributes, char(57344)) > 0 OR instr(title || attributes, char(57345)) > 0;
            UPDATE items SET title = substr(title, 1, 999) || '…' WHERE length(title) > 1000;
            """),
        // The store keeps the search index in step with its own statements,
        // not triggers: without them connections run with
        // `PRAGMA trusted_schema = OFF` (under which SQLite refuses a
        // virtual table inside a trigger), so no trigger or view a file
        // holds can call a function with side effects.
        Migration(name: "search-index-kept-by-the-store", sql: """
            DROP TRIGGER item_search_insert;
            DROP TRIGGER item_search_update;
            DROP TRIGGER item_search_delete;
            """),
        // A lone C1 control in cached text becomes the Windows-1252
        // punctuation it stands for, in every field of both sources, as the
        // decoders now read it. The next migration indexes every row again.
        Migration(name: "windows-1252-for-lone-c1-controls", sql: "", transform: replaceLoneC1Controls),
        // The index holds text as it is shown, names in a column of their
        // own (they rank with the title), and no languages, links or dates
        // (`SearchIndex`); the store computes each row, so the view goes.
        Migration(name: "search-index-as-shown", sql: """
            DROP TABLE item_search;
            DROP VIEW item_search_rows;
            \(SearchIndex.definition);
            """, transform: SearchIndex.indexEveryItem),
        // When an item was last shown, listed or found (to the day), so that
        // max-items removes the least recently used first, not the oldest
        // refresh: a sync gives the whole archive one second.
        Migration(name: "items-remember-their-last-use", sql: """
            ALTER TABLE items ADD COLUMN used_at REAL;
            """),
        // When upstream last said a favourite not cached does not exist, so
        // the background fetch leaves it for a day instead of asking again.
        Migration(name: "favorites-remember-not-found", sql: """
            ALTER TABLE favorites ADD COLUMN not_found_at REAL;
            """),
        Migration(name: "texts", sql: """
            CREATE TABLE texts (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                url TEXT NOT NULL,
                encoding TEXT NOT NULL,
                rules_version INTEGER NOT NULL,
                fetched_at REAL NOT NULL,
                read_at REAL,
                original_bytes INTEGER NOT NULL,
                body_bytes INTEGER NOT NULL,
                word_count INTEGER NOT NULL,
                section_count INTEGER NOT NULL,
                body BLOB NOT NULL,
                PRIMARY KEY (source, id)
            );
            CREATE TABLE text_sections (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                number INTEGER NOT NULL,
                level INTEGER NOT NULL,
                title TEXT NOT NULL,
                first_block INTEGER NOT NULL,
                start_word INTEGER NOT NULL,
                words INTEGER NOT NULL,
                PRIMARY KEY (source, id, number)
            ) WITHOUT ROWID;
            CREATE TABLE reading_positions (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                block INTEGER NOT NULL,
                block_offset INTEGER NOT NULL,
                anchor TEXT NOT NULL,
                percent REAL NOT NULL,
                section INTEGER,
                at REAL NOT NULL,
                PRIMARY KEY (source, id)
            ) WITHOUT ROWID;
            \(TextSearchIndex.definition);
            """),
        // A text's blocks in runs of about 128 KiB, each compressed on its
        // own with the words before it: a section, a page or a search's
        // candidates are read without inflating the whole book.
        Migration(name: "texts-in-chunks", sql: """
            CREATE TABLE text_chunks (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                chunk INTEGER NOT NULL,
                first_block INTEGER NOT NULL,
                first_word INTEGER NOT NULL,
                body_bytes INTEGER NOT NULL,
                body BLOB NOT NULL,
                PRIMARY KEY (source, id, chunk)
            );
            """, transform: SQLiteCacheStore.moveTextsIntoChunks),
        Migration(name: "texts-lose-their-single-body", sql: """
            ALTER TABLE texts DROP COLUMN body;
            """),
        // The reader's bookmarks: like the place where reading stopped, a
        // block, an offset and the block's first words, kept apart from
        // the text (they outlive it, and a new edition finds them again).
        Migration(name: "bookmarks", sql: """
            CREATE TABLE bookmarks (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                number INTEGER NOT NULL,
                block INTEGER NOT NULL,
                block_offset INTEGER NOT NULL,
                anchor TEXT NOT NULL,
                name TEXT NOT NULL,
                at REAL NOT NULL,
                PRIMARY KEY (source, id, number)
            ) WITHOUT ROWID;
            """),
        // How far into the book each bookmark is, for a new edition in
        // which its paragraph is not found again.
        Migration(name: "bookmark percent", sql: """
            ALTER TABLE bookmarks ADD COLUMN percent REAL NOT NULL DEFAULT 0;
            """),
        // Texts' chunks in zstd rather than zlib: as small, and inflated
        // several times faster (a search inflates every chunk with a hit).
        Migration(name: "texts-in-zstd", sql: "", transform: SQLiteCacheStore.recompressChunksWithZstd),
        // `more` after `-s books list -n 3` shows the rest of that page
        // before the next: a cursor may point inside a page.
        Migration(name: "cursors-inside-a-page", sql: """
            ALTER TABLE cursors ADD COLUMN shown_rows INTEGER;
            """),
        // A list's entries (subjects, bookshelves) are indexed apart, so a
        // snippet cut from them shows where one ends: every row again.
        Migration(name: "search-index-keeps-lists-apart", sql: "DELETE FROM item_search;", transform: SearchIndex.indexEveryItem),
        // An item upstream has not (a 404) or sent unreadable is a fact,
        // kept as a detail is: a screen says so, and upstream is asked
        // again no sooner.
        Migration(name: "items-absent-upstream", sql: """
            CREATE TABLE absences (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                reason TEXT NOT NULL,
                checked_at REAL NOT NULL,
                PRIMARY KEY (source, id)
            ) WITHOUT ROWID;
            """),
        // The pictures of a text's HTML edition, kept with it: the reader
        // shows them offline, and they go when the text goes.
        Migration(name: "text-pictures", sql: """
            CREATE TABLE text_pictures (
                source TEXT NOT NULL,
                id INTEGER NOT NULL,
                path TEXT NOT NULL,
                ordinal INTEGER NOT NULL,
                url TEXT NOT NULL,
                state TEXT NOT NULL,
                reason TEXT,
                width INTEGER,
                height INTEGER,
                body BLOB,
                PRIMARY KEY (source, id, path)
            );
            """),
        // A note a person wrote on a paragraph is a bookmark with its
        // text: kept, found again in a new edition and salvaged as they are.
        Migration(name: "bookmarks-carry-notes", sql: """
            ALTER TABLE bookmarks ADD COLUMN note TEXT;
            """),
        // Where a text's sections were found (its contents, its headings)
        // and the edition passed over for it: `show` says both.
        Migration(name: "texts-say-their-outline", sql: """
            ALTER TABLE texts ADD COLUMN outline_origin TEXT;
            ALTER TABLE texts ADD COLUMN passed_over TEXT;
            """),
    ]

    private static func replaceLoneC1Controls(_ database: SQLiteDatabase) throws {
        func replaced(_ value: JSONValue) -> JSONValue {
            switch value {
            case let .string(text): .string(Mojibake.replacingLoneC1Controls(text))
            case let .array(values): .array(values.map(replaced))
            case let .object(members): .object(members.map { ($0, replaced($1)) })
            default: value
            }
        }
        let update = try database.prepare("UPDATE items SET title = ?, attributes = ? WHERE source = ? AND id = ?")
        for row in try database.query("SELECT source, id, title, attributes FROM items") {
            guard let source = row[0].text, let id = row[1].int, let title = row[2].text, let attributesText = row[3].text,
                  let attributes = try? JSONValue.parse(attributesText)
            else { continue }
            let (newTitle, newAttributes) = (Mojibake.replacingLoneC1Controls(title), replaced(attributes))
            guard newTitle != title || newAttributes != attributes else { continue }
            try update.bind([.text(newTitle.isEmpty ? title : newTitle), .text(newAttributes.serialized), .text(source), .integer(Int64(id))])
            _ = try update.allRows()
        }
    }

    private static func applyTodaysXKCDTextRules(_ database: SQLiteDatabase) throws {
        let update = try database.prepare("UPDATE items SET title = ?, attributes = ? WHERE source = 'xkcd' AND id = ?")
        for row in try database.query("SELECT id, title, attributes FROM items WHERE source = 'xkcd'") {
            guard let id = row[0].int, let title = row[1].text, let attributesText = row[2].text,
                  case let .object(members)? = try? JSONValue.parse(attributesText)
            else { continue }
            let cleanedTitle = XKCDComicDecoder.cleaned("title", title)
            let attributes = JSONValue.object(members.map { key, value in
                (key, value.stringValue.map { JSONValue.string(XKCDComicDecoder.cleaned(key, $0)) } ?? value)
            })
            guard cleanedTitle != title || attributes != .object(members) else { continue }
            try update.bind([.text(cleanedTitle.isEmpty ? title : cleanedTitle), .text(attributes.serialized), .integer(Int64(id))])
            _ = try update.allRows()
        }
    }

    /// The search index as migration 5 made it (today's: `SearchIndex`).
    static let searchIndex = """
        CREATE VIRTUAL TABLE item_search USING fts5(
            title, body, source UNINDEXED, id UNINDEXED,
            tokenize = 'porter unicode61 remove_diacritics 2 tokenchars ''+#'''
        )
        """

    /// Fills migration 5's (empty) search index from every cached item.
    static let indexEveryItem = """
        INSERT INTO item_search (rowid, title, body, source, id)
        SELECT search_rowid, title, body, source, id FROM item_search_rows
        """

    /// Brings the schema up to date, or refuses a file that is not ours or
    /// is newer than this build. Each run is one transaction. Older
    /// migrations count on the triggers the last one drops, so they run
    /// with a trusted schema, once the file's schema is known to be ours.
    /// WAL mode is switched on only once the file is known to be ours:
    /// switching it writes to the file.
    static func migrate(_ database: SQLiteDatabase, now: Date) throws {
        let state = try currentState(database)
        if state == .empty {
            // Only possible before the first table exists: lets cleanup
            // give space back cheaply for the life of the file.
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
        }
        try switchToWAL(database)
        if state == .upToDate { return try refuseEditedSchema(database) }
        try database.writeTransaction {
            guard try currentState(database) != .upToDate else { return }
            let applied = try database.query("PRAGMA user_version")[0][0].int ?? 0
            // An older file is checked before anything runs in it: its
            // triggers would fire during the migrations.
            if applied > 0 { try refuseEditedSchema(database, version: applied) }
            for migration in all[applied...] {
                try database.execute(migration.sql)
                try migration.transform?(database)
                try database.run(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                    [.text(migration.name), .date(now)])
            }
            try database.execute("PRAGMA user_version = \(all.count)")
            try database.execute("PRAGMA application_id = \(applicationID)")
        }
        try refuseEditedSchema(database)
    }

    /// The digest of the schema (`schemaDigest`) after each migration, the
    /// first after the first: what a file of that version must hold. A unit
    /// test recomputes them, so a new migration appends its own.
    static let schemaDigests = [
        "0c72aba4fba42ac446ee2a8dd6aba840df66db5a0ec55d5e6dfb54f04fa3473a",
        "0c72aba4fba42ac446ee2a8dd6aba840df66db5a0ec55d5e6dfb54f04fa3473a",
        "6517973eeecd732a92c6874d85143480f1963b0d1f48db0978beb3f86a0c8ed1",
        "8512f42a5b4c3d4c27b042ac65cc41c27eafe92d4f11f2aa94aebedec72d654b",
        "6cecd54f3bfd428e752d93de1c30fbfd409d2e73a229a41aec434780f30078f6",
        "6cecd54f3bfd428e752d93de1c30fbfd409d2e73a229a41aec434780f30078f6",
        "6a6d9eefa03f188c93159b2c4e3dee1959e3b7902a63efd558eae5b52c59212b",
        "df700cca9a8a0f355e0cbe3c083befa520c8794b442688d5373aa42c5051c303",
        "df700cca9a8a0f355e0cbe3c083befa520c8794b442688d5373aa42c5051c303",
        "3dcb5dcd692dc023b72bb8a64f493642ff51c77ce5af901097cb822790052a12",
        "3dcb5dcd692dc023b72bb8a64f493642ff51c77ce5af901097cb822790052a12",
        "8e0bc4122a5d62c730904205eff2f3e71f4b537e6cea4cc95b9cd4d3b0136663",
        "61d650898d708059214c2cbff234c31e96691ec26681a9dd7f3a558f821913dd",
        "278ad9a7fb0d7fa017fda8c829de2cf7ee489bb1ceb0044dc6612dcb59e32a2d",
        "b120cb00f298ea0b824b852952476b48a1a000800f4fbc83ec197ec3bc5911d2",
        "e38c7e67b632b8e24a942886683540106cb98a724d9c7bbcee5bdc3265618d66",
        "9896a0bbb3765c6c4432f2b9da62c87f47fa8e891b4af167644f72533a903f5b",
        "286a675ed822c81c973a01d27140ff40e348e1e1b1990e920ded93c544989fa3",
        "cd9ce580efdc6736fb46b77863db444b565d9eb8b06cf8f71f1fa43d0b08b3f4",
        "cd9ce580efdc6736fb46b77863db444b565d9eb8b06cf8f71f1fa43d0b08b3f4",
        "ce9afcb154f80534abf5e9059d0b4dbbb92536a13b29e0ca87dd8d97fb5f1eea",
        "ce9afcb154f80534abf5e9059d0b4dbbb92536a13b29e0ca87dd8d97fb5f1eea",
        "362caa0d10f7b2db2d1384afdc5dfeacf13b889b8bf06ee57a31d4225fdbebea",
        "ccd565b5133ed5305380759c72631efbe6c9a7145f94a640810148386a564616",
        "084e5117c58545c8f0a0ac35e8dd39e3a3aa3600b0ba8734a25599f1bdd4bada",
        "610462938e768f3f192d7250f4ffde65baf93eb72cdc6ed3bbb404940c88bcd9",
    ]

    /// A file whose schema differs from the one the migrations make for its
    /// version was edited by hand, and its triggers and views are code
    /// comics would run: it is refused, and `rebuild` (which reads rows
    /// only) is the way out.
    private static func refuseEditedSchema(_ database: SQLiteDatabase, version: Int = all.count) throws {
        guard schemaDigests.indices.contains(version - 1), try schemaDigest(database) == schemaDigests[version - 1] else {
            throw ComicsError.database(
                "\(database.path) has a schema comics did not make (edited by hand?); "
                    + "'comics rebuild' moves it aside and keeps your favourites")
        }
    }

    /// Every definition in sqlite_master, one line each (type, name, table
    /// and SQL joined by "|"), runs of whitespace collapsed into one space
    /// and none at either end (a definition recreated from the code may be
    /// indented otherwise), as one digest. It runs at every open, so it
    /// works on bytes: only ASCII whitespace counts, which is all the SQL
    /// comics writes holds (and anything else stays, to differ).
    static func schemaDigest(_ database: SQLiteDatabase) throws -> String {
        let rows = try database.query(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
        var text: [UInt8] = []
        text.reserveCapacity(8_192)
        for (index, row) in rows.enumerated() {
            if index > 0 { text.append(0x0A) }
            var pendingSpace = false, lineIsEmpty = true
            for (column, value) in row.enumerated() {
                let field = column > 0 ? "|" + (value.text ?? "") : value.text ?? ""
                for byte in field.utf8 {
                    if byte == 0x20 || (0x09...0x0D).contains(byte) {
                        pendingSpace = !lineIsEmpty
                        continue
                    }
                    if pendingSpace { text.append(0x20) }
                    (pendingSpace, lineIsEmpty) = (false, false)
                    text.append(byte)
                }
            }
        }
        return SHA256.hex(text)
    }

    /// Switching to WAL needs the file to itself, and SQLite answers
    /// "locked" at once instead of waiting in its busy handler when another
    /// process has it open, as six commands started together on a new file
    /// all do. A file already in WAL mode needs nothing; otherwise the switch
    /// is retried for as long as any other lock would be waited for.
    private static func switchToWAL(_ database: SQLiteDatabase) throws {
        let deadline = Date().addingTimeInterval(Double(SQLiteDatabase.busyTimeoutMilliseconds) / 1000)
        while true {
            do {
                if try database.query("PRAGMA journal_mode")[0][0].text == "wal" { return }
                try database.execute("PRAGMA journal_mode = WAL")
                return
            } catch {
                guard error.primaryCode == SQLITE_BUSY, Date() < deadline else { throw error }
                usleep(UInt32.random(in: 2_000...20_000))
            }
        }
    }

    /// `empty`: a new file, not a table in it yet.
    private enum State { case upToDate, needsMigration, empty }

    /// The three facts are read in one statement, so from one snapshot:
    /// read one by one, a file another process was creating could show its
    /// tables without yet its application id, and be taken for a foreign one.
    private static func currentState(_ database: SQLiteDatabase) throws -> State {
        let row = try database.query("""
            SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id),
                   (SELECT count(*) FROM sqlite_master)
            """)[0]
        let (version, application, tableCount) = (row[0].int ?? 0, row[1].int ?? 0, row[2].int ?? 0)
        let isOurs = application == Int(applicationID) || (application == 0 && version == 0 && tableCount == 0)
        guard isOurs else {
            throw ComicsError.database("\(database.path) is not a comics database; give another path with --db or move the file aside")
        }
        guard version <= all.count else {
            throw ComicsError.database("\(database.path) has schema version \(version), newer than this comics understands (\(all.count)); upgrade comics")
        }
        if tableCount == 0 { return .empty }
        return version == all.count ? .upToDate : .needsMigration
    }
}
