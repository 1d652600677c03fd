@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

final class SQLiteCacheStoreTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func comic(_ id: Int, _ title: String = "Title") -> FetchedItem {
        FetchedItem(
            item: Item(ref: ItemRef(source: .xkcd, id: id), title: title, url: "https://xkcd.com/\(id)/",
                       attributes: [Attribute("alt", .string("alt \(id)")), Attribute("tags", .array([.string("a")]))]),
            validators: Validators(etag: "\"e\(id)\"", lastModified: nil))
    }

    /// The same checks against an on-disk file and SQLite's in-memory database.
    private func eachStore(_ body: (SQLiteCacheStore) throws -> Void) throws {
        try body(try SQLiteCacheStore(path: directory.file("nested/dir/comics.db"), now: now))
        try body(try SQLiteCacheStore(path: ":memory:", now: now))
    }

    func testItemsRoundTripAndUpsertKeepsFavourites() throws {
        try eachStore { store in
            try store.save([comic(1), comic(2)], at: now)
            XCTAssertTrue(try store.changeFavorite(ItemRef(source: .xkcd, id: 1), .add, at: now, keepingAtMost: 10))
            try store.save([comic(1, "Renamed")], at: now.addingTimeInterval(10))
            let cached = try XCTUnwrap(try store.cachedItem(ItemRef(source: .xkcd, id: 1)))
            XCTAssertEqual(cached.item.title, "Renamed")
            XCTAssertEqual(cached.item, comic(1, "Renamed").item)
            XCTAssertTrue(cached.isFavorite)
            XCTAssertEqual(cached.cachedAt, now.addingTimeInterval(10))
            XCTAssertEqual(cached.validators.etag, "\"e1\"")
            XCTAssertEqual(try store.favorites(source: nil).map(\.ref.id), [1])
            XCTAssertEqual(try store.favorites(source: .xkcd).count, 1)
        }
    }

    func testFavouriteChanges() throws {
        try eachStore { store in
            try store.save([comic(5)], at: now)
            let ref = ItemRef(source: .xkcd, id: 5)
            XCTAssertTrue(try store.changeFavorite(ref, .toggle, at: now, keepingAtMost: 10))
            XCTAssertFalse(try store.changeFavorite(ref, .toggle, at: now, keepingAtMost: 10))
            XCTAssertFalse(try store.changeFavorite(ref, .remove, at: now, keepingAtMost: 10))
            XCTAssertTrue(try store.changeFavorite(ref, .add, at: now, keepingAtMost: 10))
            XCTAssertTrue(try store.changeFavorite(ref, .add, at: now, keepingAtMost: 10))
        }
    }

    func testPagesAndCursors() throws {
        try eachStore { store in
            let key = PageKey(source: .xkcd, query: "limit=2", position: "")
            XCTAssertNil(try store.page(key))
            let page = StoredPage(key: key, itemIDs: [2, 1], nextPosition: nil, fetchedAt: now, validators: .none)
            XCTAssertEqual(try store.save(page, items: [comic(1), comic(2)])?.map(\.ref.id), [2, 1], "read back in page order")
            XCTAssertEqual(try store.page(key), page)
            let naming3 = StoredPage(key: key, itemIDs: [3, 2], nextPosition: nil, fetchedAt: now, validators: .none)
            XCTAssertNil(try store.save(naming3, items: []), "an item the page names is not cached")
            XCTAssertEqual(try store.cachedItems([ItemRef(source: .xkcd, id: 1), ItemRef(source: .xkcd, id: 2)]).count, 2)

            XCTAssertNil(try store.cursor(source: .xkcd, query: ""))
            try store.setCursor(.next(position: "190"), source: .xkcd, query: "", at: now)
            XCTAssertEqual(try store.cursor(source: .xkcd, query: ""), .next(position: "190"))
            try store.setCursor(.endOfArchive, source: .xkcd, query: "", at: now)
            XCTAssertEqual(try store.cursor(source: .xkcd, query: ""), .endOfArchive)
        }
    }

    func testCleanupRemovesOnlyWhatIsSelectedAndNeverFavourites() throws {
        try eachStore { store in
            try store.save([comic(1), comic(2), comic(3)], at: now)
            _ = try store.changeFavorite(ItemRef(source: .xkcd, id: 2), .add, at: now, keepingAtMost: 10)
            var seen: [Int] = []
            let dry = try store.removeItems(dryRun: true) { candidates in
                seen = candidates.map(\.ref.id).sorted()
                return candidates
            }
            XCTAssertEqual(seen, [1, 3], "favourites are never candidates")
            XCTAssertEqual(dry.count, 2)
            XCTAssertEqual(try store.cachedItems((1...3).map { ItemRef(source: .xkcd, id: $0) }).count, 3, "a dry run removes nothing")
            let removed = try store.removeItems(dryRun: false) { $0.filter { $0.ref.id == 1 } }
            XCTAssertEqual(removed.map(\.ref.id), [1])
            XCTAssertEqual(try store.cachedItems((1...3).map { ItemRef(source: .xkcd, id: $0) }).keys.map(\.id).sorted(), [2, 3])
        }
    }

    func testSettings() throws {
        try eachStore { store in
            XCTAssertNil(try store.setting("k"))
            try store.setSetting("k", to: "v")
            try store.setSetting("k", to: "w")
            XCTAssertEqual(try store.setting("k"), "w")
        }
    }

    func testFilesArePrivateAndMigrationsRecorded() throws {
        let path = directory.file("private/comics.db")
        _ = try SQLiteCacheStore(path: path, now: now)
        let file = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((file[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.file("private"))
        XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let probe = try DatabaseProbe(path: path)
        XCTAssertEqual(try probe.rows("SELECT name FROM schema_migrations ORDER BY name").map { $0[0] }, Migrations.all.map(\.name).sorted())
        XCTAssertEqual(try probe.count("PRAGMA user_version"), Migrations.all.count)
        XCTAssertEqual(try probe.scalar("PRAGMA journal_mode"), "wal")
        _ = try SQLiteCacheStore(path: path, now: now)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM schema_migrations"), Migrations.all.count, "reopening runs nothing again")
    }

    func testRevalidationRenewsFreshnessWithoutReindexing() throws {
        let path = directory.file("comics.db")
        let store = try SQLiteCacheStore(path: path, now: now)
        try store.save([comic(1, "Barrel"), comic(2, "Petit Trees")], at: now)
        let probe = try DatabaseProbe(path: path)
        let indexChanges = "SELECT count(*) FROM item_search_data"
        let segmentsBefore = try probe.count(indexChanges)
        let later = now.addingTimeInterval(3600)
        try store.markRevalidated([ItemRef(source: .xkcd, id: 1): Validators(etag: "\"new\"", lastModified: nil)], at: later)
        let renewed = try XCTUnwrap(store.cachedItems([ItemRef(source: .xkcd, id: 1)]).values.first)
        XCTAssertEqual(renewed.cachedAt, later)
        XCTAssertEqual(renewed.validators.etag, "\"new\"")
        XCTAssertEqual(try probe.count(indexChanges), segmentsBefore, "the search index was not touched")
        XCTAssertEqual(try store.search("barrel", source: nil, limit: 5).matches.map(\.ref.id), [1])
    }

    /// A file as the first three migrations left it, with one favourite.
    private func schema3File(_ path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try database.writeTransaction {
            for migration in Migrations.all.prefix(3) {
                try database.execute(migration.sql)
                try database.run("INSERT INTO schema_migrations (name, applied_at) VALUES (?, 0)", [.text(migration.name)])
            }
            try database.execute("""
                INSERT INTO favorites (source, id, added_at) VALUES ('xkcd', 1, 0);
                PRAGMA user_version = 3; PRAGMA application_id = \(Migrations.applicationID)
                """)
        }
    }

    /// Schema 3 had triggers keep the index; today the store does, and
    /// what the file held is still found.
    func testADatabaseOfSchema3IsMigratedAndItsItemsStayFound() throws {
        let path = directory.file("comics.db")
        try schema3File(path)
        try DatabaseProbe.execute(on: path, """
            INSERT INTO items (source, id, title, url, attributes, cached_at) VALUES ('xkcd', 5, 'Barrel', 'u', '{}', 0)
            """)
        let store = try SQLiteCacheStore(path: path, now: now)
        let probe = try DatabaseProbe(path: path)
        XCTAssertEqual(try probe.count("PRAGMA user_version"), Migrations.all.count)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), 0)
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 1)
        XCTAssertEqual(try store.search("barrel", source: nil, limit: 5).matches.map(\.ref.id), [5])
        try store.save([comic(5, "Renamed")], at: now)
        XCTAssertEqual(try store.search("barrel", source: nil, limit: 5).matches.map(\.ref.id), [], "the old words are gone")
        XCTAssertEqual(try store.search("renamed", source: nil, limit: 5).matches.map(\.ref.id), [5])
        XCTAssertEqual(try store.database.query("PRAGMA trusted_schema")[0][0].int, 0, "the schema is not trusted once migrated")
    }

    /// A text kept whole by migration 15 is moved into chunks: the same
    /// blocks, outline and words found, a section read alone.
    func testAVersion15TextIsMovedIntoChunksAndReadsTheSame() throws {
        let path = directory.file("comics.db")
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg11.txt"))
        let body = SQLiteCacheStore.serialized(content.blocks)
        let database = try SQLiteDatabase(path: path)
        try database.writeTransaction {
            for migration in Migrations.all.prefix(15) {
                try database.execute(migration.sql)
                try migration.transform?(database)
                try database.run("INSERT INTO schema_migrations (name, applied_at) VALUES (?, 0)", [.text(migration.name)])
            }
            try database.execute("PRAGMA user_version = 15; PRAGMA application_id = \(Migrations.applicationID)")
            try database.run("""
                INSERT INTO texts (source, id, url, encoding, rules_version, fetched_at, original_bytes, body_bytes, word_count, section_count, body)
                VALUES ('books', 11, 'u', 'utf-8', 1, 0, 1, ?, ?, ?, ?)
                """, [.integer(Int64(body.count)), .integer(Int64(content.wordCount)), .integer(Int64(content.sections.count)),
                      .blob(LegacyCompression.zlibDeflate(body))])
            for entry in content.outline() {
                try database.run("INSERT INTO text_sections VALUES ('books', 11, ?, ?, ?, ?, ?, ?)", [
                    .integer(Int64(entry.number)), .integer(Int64(entry.section.level)), .text(entry.section.title),
                    .integer(Int64(entry.section.firstBlock)), .integer(Int64(entry.startWord)), .integer(Int64(entry.words)),
                ])
            }
            for (index, block) in content.blocks.enumerated() {
                try database.run("INSERT INTO text_search (rowid, body) VALUES (?, ?)", [.integer(TextSearchIndex.rowID(book: 11, block: index)), .text(block.text)])
            }
        }
        let store = try SQLiteCacheStore(path: path, now: now)
        let ref = ItemRef(source: .books, id: 11)
        XCTAssertEqual(try store.textContent(ref), content)
        XCTAssertEqual(try store.outline(ref), content.outline())
        let chapter = content.blockRange(ofSection: 4)
        let passage = try XCTUnwrap(try store.textPassage(ref, from: chapter.lowerBound, upTo: chapter.upperBound))
        XCTAssertEqual(passage.blocks, Array(content.blocks[chapter]))
        XCTAssertEqual(passage.wordsBefore, content.blocks.prefix(chapter.lowerBound).reduce(0) { $0 + $1.wordCount })
        XCTAssertEqual(try store.textBlockCount(ref), content.blocks.count)
        XCTAssertEqual(try store.searchTexts("caterpillar", in: ref, limit: 50).hits.first.map { content.sectionIndex(containing: $0.block) }, 4)
        XCTAssertGreaterThan(try store.textInfo(ref)?.storedBytes ?? 0, 0)
        try store.removeTexts([ref])
        XCTAssertEqual(try DatabaseProbe(path: path).count("SELECT count(*) FROM text_chunks"), 0)
    }

    /// Chunks a version-19 file keeps in zlib are compressed with zstd by
    /// migration 20, and read the same.
    func testZlibChunksOfAVersion19FileAreRecompressedWithZstd() throws {
        let path = directory.file("comics.db")
        let ref = ItemRef(source: .books, id: 11)
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg11.txt"))
        do {
            let store = try SQLiteCacheStore(path: path, now: now)
            let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: now, originalBytes: 1, sectionCount: 0, wordCount: content.wordCount)
            try store.saveText(content, outline: content.outline(), info: info)
        }
        let chunks = SQLiteCacheStore.chunks(of: content.blocks)
        XCTAssertGreaterThan(chunks.count, 1)
        try DatabaseProbe.execute(on: path, """
            DELETE FROM schema_migrations WHERE name IN ('texts-in-zstd', 'cursors-inside-a-page', 'search-index-keeps-lists-apart', 'items-absent-upstream', 'text-pictures', 'bookmarks-carry-notes', 'texts-say-their-outline');
            ALTER TABLE cursors DROP COLUMN shown_rows; DROP TABLE absences; DROP TABLE text_pictures; ALTER TABLE bookmarks DROP COLUMN note;
            ALTER TABLE texts DROP COLUMN outline_origin; ALTER TABLE texts DROP COLUMN passed_over; PRAGMA user_version = 19;
            """)
        let database = try SQLiteDatabase(path: path)
        for (number, chunk) in chunks.enumerated() {
            try database.run("UPDATE text_chunks SET body = ? WHERE id = 11 AND chunk = ?", [.blob(LegacyCompression.zlibDeflate(chunk.body)), .integer(Int64(number))])
        }
        let store = try SQLiteCacheStore(path: path, now: now)
        XCTAssertEqual(try store.textContent(ref), content)
        let magic = try DatabaseProbe(path: path).count("SELECT count(*) FROM text_chunks WHERE hex(substr(body, 1, 4)) = '28B52FFD'")
        XCTAssertEqual(magic, chunks.count, "every chunk is a zstd frame")
    }

    /// Chunks are cut between blocks, each about `chunkBytes`; together
    /// they are the text, and each knows the words before it.
    func testChunksAreTheTextInRunsOfBlocks() throws {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg2600.txt"))
        let chunks = SQLiteCacheStore.chunks(of: content.blocks)
        XCTAssertGreaterThan(chunks.count, 20)
        XCTAssertEqual(chunks.flatMap { SQLiteCacheStore.blocks(from: $0.body) }, content.blocks)
        var words = 0, block = 0
        for chunk in chunks {
            XCTAssertEqual(chunk.firstBlock, block)
            XCTAssertEqual(chunk.firstWord, words)
            let blocks = SQLiteCacheStore.blocks(from: chunk.body)
            XCTAssertLessThanOrEqual(chunk.body.count, SQLiteCacheStore.chunkBytes + (blocks.last?.text.utf8.count ?? 0) + 2)
            block += blocks.count
            words += blocks.reduce(0) { $0 + $1.wordCount }
        }
        XCTAssertEqual(SQLiteCacheStore.chunks(of: []).map(\.body), [[]], "an empty text is one empty chunk")
    }

    /// War and Peace stored, and the words before each of its blocks (and
    /// after the last).
    private func storedWarAndPeace() throws -> (SQLiteCacheStore, ItemRef, BookContent, before: [Int]) {
        let (content, _) = GutenbergText.content(of: try Fixtures.gutenberg("pg2600.txt"))
        let store = try SQLiteCacheStore(path: directory.file("comics.db"), now: now)
        let ref = ItemRef(source: .books, id: 2600)
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: now, originalBytes: 1, sectionCount: 0, wordCount: content.wordCount)
        try store.saveText(content, outline: content.outline(), info: info)
        var before = [0]
        for block in content.blocks { before.append(before[before.count - 1] + block.wordCount) }
        return (store, ref, content, before)
    }

    /// `:40%` in the reader: the first block with at least that many words
    /// before it, in whichever chunk it falls (every chunk's edges too).
    func testTheBlockAtAWordIsTheFirstWithAtLeastThatManyBefore() throws {
        let (store, ref, content, before) = try storedWarAndPeace()
        let edges = SQLiteCacheStore.chunks(of: content.blocks).flatMap { [$0.firstWord - 1, $0.firstWord, $0.firstWord + 1] }
        var generator = SystemRandomNumberGenerator()
        let words = edges + (0..<40).map { _ in Int.random(in: 0...content.wordCount, using: &generator) } + [0, content.wordCount, content.wordCount + 5]
        for word in words where word >= 0 {
            let expected = before.dropLast().firstIndex { $0 >= word } ?? content.blocks.count - 1
            XCTAssertEqual(try store.textBlock(ref, atWord: word), expected, "word \(word)")
        }
    }

    /// A search reads the chunks holding hits on every core: every block
    /// that holds the word is found, in whichever chunk, each placed at the
    /// words before it in the whole book.
    func testEveryHitIsFoundAndPlacedByTheWordsBeforeIt() throws {
        let (store, ref, content, before) = try storedWarAndPeace()
        let holding = content.blocks.indices.filter { index in
            PassageRanking.words(in: Array(content.blocks[index].text.utf8)).contains { PassageRanking.stem($0) == Array("natasha".utf8) }
        }
        let chunkStarts = SQLiteCacheStore.chunks(of: content.blocks).map(\.firstBlock)
        XCTAssertGreaterThan(Set(holding.map { index in chunkStarts.lastIndex { $0 <= index } }).count, 10, "hits in many chunks")
        let (hits, total) = try store.searchTexts("natasha", in: ref, limit: 5_000)
        XCTAssertEqual(total, holding.count)
        XCTAssertEqual(hits.map(\.block).sorted(), holding)
        for hit in hits {
            XCTAssertEqual(hit.percent, Double(before[hit.block]) * 100 / Double(content.wordCount), accuracy: 1e-9, "block \(hit.block)")
            XCTAssertTrue(hit.snippet.lowercased().contains("nat"), hit.snippet)
        }
    }

    /// An older file is compared with its own version's schema before any
    /// migration runs in it: a trigger planted there never fires.
    func testAnOlderFileWithAPlantedTriggerIsRefusedBeforeMigrating() throws {
        let path = directory.file("comics.db")
        try schema3File(path)
        try DatabaseProbe.execute(on: path, "CREATE TRIGGER planted AFTER INSERT ON schema_migrations BEGIN DELETE FROM favorites; END")
        XCTAssertThrowsError(try SQLiteCacheStore(path: path, now: now)) { error in
            XCTAssertEqual((error as? ComicsError)?.exitCode, 5)
            XCTAssertTrue("\(error)".contains("has a schema comics did not make"), "\(error)")
        }
        let probe = try DatabaseProbe(path: path)
        XCTAssertEqual(try probe.count("PRAGMA user_version"), 3, "nothing migrated")
        XCTAssertEqual(try probe.count("SELECT count(*) FROM favorites"), 1, "the trigger never fired")
    }

    /// Two stores of one file in one process (browse has three): opening
    /// the second must not drop the locks SQLite holds for the first, or
    /// another process takes the database for unused, checkpoints it and
    /// deletes the WAL both still use.
    func testASecondStoreKeepsTheFirstsLocks() throws {
        let path = directory.file("comics.db")
        let first = try SQLiteCacheStore(path: path, now: now)
        let second = try SQLiteCacheStore(path: path, now: now)
        try first.save([comic(1)], at: now)
        try DatabaseProbe.execute(on: path, "SELECT count(*) FROM items")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "another process saw the database in use")
        try DatabaseProbe.execute(on: path, "INSERT INTO favorites (source, id, added_at) VALUES ('xkcd', 1, 0)")
        XCTAssertEqual(try second.favorites(source: nil).map(\.ref.id), [1], "and what it writes is seen")
        withExtendedLifetime(first) {}
    }

    func testANewerSchemaIsRefused() throws {
        let path = directory.file("comics.db")
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA application_id = \(Migrations.applicationID); PRAGMA user_version = 999; CREATE TABLE future (x)")
        XCTAssertThrowsError(try SQLiteCacheStore(path: path, now: now)) { error in
            XCTAssertEqual((error as? ComicsError)?.kind, .database)
            XCTAssertTrue("\(error)".contains("schema version 999"), "\(error)")
        }
        XCTAssertEqual(try DatabaseProbe(path: path).count("SELECT count(*) FROM sqlite_master WHERE name = 'items'"), 0)
    }

    func testAnotherProgramsDatabaseIsRefusedUntouched() throws {
        let path = directory.file("other.db")
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        XCTAssertThrowsError(try SQLiteCacheStore(path: path, now: now)) { error in
            XCTAssertTrue("\(error)".contains("is not a comics database"), "\(error)")
        }
        XCTAssertEqual(try DatabaseProbe(path: path).rows("SELECT name FROM sqlite_master").map { $0[0] }, ["notes"])
    }

    func testGarbageAndTruncatedFilesAreDatabaseErrors() throws {
        let garbage = directory.file("garbage.db")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: garbage))
        XCTAssertThrowsError(try SQLiteCacheStore(path: garbage, now: now)) { error in
            XCTAssertEqual((error as? ComicsError)?.exitCode, 5)
        }

        let truncated = directory.file("truncated.db")
        do {
            // Closing the last connection checkpoints the WAL into the file.
            let store = try SQLiteCacheStore(path: truncated, now: now)
            try store.save((1...200).map { comic($0) }, at: now)
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: truncated)[.size] as? NSNumber).intValue
        let copy = directory.file("copy.db")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: truncated))
        try bytes.prefix(size / 3).write(to: URL(fileURLWithPath: copy))
        XCTAssertThrowsError(try SQLiteCacheStore(path: copy, now: now).cachedItems((1...200).map { ItemRef(source: .xkcd, id: $0) })) { error in
            XCTAssertEqual((error as? ComicsError)?.exitCode, 5, "\(error)")
        }
    }
}

final class SchemaDigestTests: XCTestCase {
    /// The digests comics compares each file with are the ones the
    /// migrations make, version by version.
    func testTheExpectedDigestsAreTheMigratedSchemas() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        var digests: [String] = []
        try database.writeTransaction {
            for migration in Migrations.all {
                try database.execute(migration.sql)
                digests.append(try Migrations.schemaDigest(database))
            }
        }
        XCTAssertEqual(digests, Migrations.schemaDigests)
    }

    /// A file the release before (schema 4) wrote holds exactly the schema
    /// the first four migrations make.
    func testARealOlderFileMatchesTheDigestOfItsVersion() throws {
        // A copy: opening a WAL file, even to read, writes its -shm beside it.
        let directory = try TemporaryDirectory()
        let copy = directory.file("schema-4.db")
        try FileManager.default.copyItem(atPath: Fixtures.path("databases/schema-4.db"), toPath: copy)
        let database = try SQLiteDatabase(path: copy, readOnly: true)
        XCTAssertEqual(try database.query("PRAGMA user_version")[0][0].int, 4)
        XCTAssertEqual(try Migrations.schemaDigest(database), Migrations.schemaDigests.dropFirst(3).first)
    }
}
