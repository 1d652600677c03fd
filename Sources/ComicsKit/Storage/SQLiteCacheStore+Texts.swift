import CSQLite
import Dispatch
import Glibc

/// A text finished on another thread, with its chunks compressed; read
/// once that thread is done.
private final class FinishedChunks: @unchecked Sendable {
    var text: FinishedText?
    var chunks: [TextChunk] = []
    var compressed: [[UInt8]] = []
}

/// `finish` gave nothing to store: the transaction is rolled back.
private struct NothingToStore: Error {}

/// Books' texts: the blocks in compressed chunks (`text_chunks`), the
/// outline in rows of its own (so `toc` reads no text), positions apart.
extension SQLiteCacheStore: TextStore {
    /// Between blocks: a record separator, a character no cleaned text holds.
    private static let blockSeparator: UInt8 = 0x1E
    /// Between a block's text and its link: a unit separator, likewise.
    private static let linkSeparator: UInt8 = 0x1F

    /// A serialized block's text: after its kind, before its link if any.
    static func textBytes(of record: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let text = UnsafeBufferPointer(rebasing: record.dropFirst())
        guard let base = text.baseAddress, let separator = memchr(base, Int32(linkSeparator), text.count) else { return text }
        return UnsafeBufferPointer(start: base, count: base.distance(to: separator.assumingMemoryBound(to: UInt8.self)))
    }

    public func saveText(_ draft: [TextBlock], of ref: ItemRef, finishing finish: @escaping @Sendable () -> FinishedText?) throws -> FinishedText? {
        // The outline is found and the chunks compressed on the other cores,
        // side by side with indexing the words on this one.
        let finished = FinishedChunks()
        let finishing = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: finishing) {
            guard let text = finish() else { return }
            finished.chunks = Self.chunks(of: text.content.blocks)
            finished.compressed = Self.compressed(finished.chunks)
            finished.text = text
        }
        defer { finishing.wait() }
        do {
            return try guarded {
                try database.writeTransaction {
                    try unindexText(ref)
                    try index(draft, of: ref)
                    finishing.wait()
                    guard let text = finished.text else { throw NothingToStore() }
                    try store(text, chunks: finished.chunks, compressed: finished.compressed, indexed: draft)
                    return text
                }
            }
        } catch is NothingToStore {
            return nil
        }
    }

    /// The rows of a text whose words are in the index as `indexed`.
    private func store(_ text: FinishedText, chunks: [TextChunk], compressed: [[UInt8]], indexed: [TextBlock]) throws {
        let ref = text.info.ref, info = text.info
        // Only a block cut in pieces (`BookContent.maximumBlockBytes`)
        // makes the finished text differ from the draft.
        if text.content.blocks.count != indexed.count || zip(text.content.blocks, indexed).contains(where: { $0.text != $1.text }) {
            try unindex(indexed, of: ref)
            try index(text.content.blocks, of: ref)
        }
        try database.run("DELETE FROM text_sections WHERE source = ? AND id = ?", Self.key(ref))
        try database.run("""
            INSERT OR REPLACE INTO texts (source, id, url, encoding, rules_version, fetched_at, read_at,
                original_bytes, body_bytes, word_count, section_count, outline_origin, passed_over)
            VALUES (?, ?, ?, ?, ?, ?, (SELECT read_at FROM texts WHERE source = ?1 AND id = ?2), ?, ?, ?, ?, ?, ?)
            """, Self.key(ref) + [
                .text(info.url), .text(info.encoding), .integer(Int64(GutenbergText.rulesVersion)), .date(info.fetchedAt),
                .integer(Int64(info.originalBytes)), .integer(Int64(chunks.reduce(0) { $0 + $1.body.count })),
                .integer(Int64(info.wordCount)), .integer(Int64(text.outline.count)),
                info.outlineOrigin.map { .text($0.rawValue) } ?? .null, info.passedOver.map { .text($0.rawValue) } ?? .null,
            ])
        try Self.insertChunks(chunks, compressed: compressed, of: Self.key(ref), in: database)
        let insert = try database.prepare("""
            INSERT INTO text_sections (source, id, number, level, title, first_block, start_word, words)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for entry in text.outline {
            try insert.bind(Self.key(ref) + [
                .integer(Int64(entry.number)), .integer(Int64(entry.section.level)), .text(entry.section.title),
                .integer(Int64(entry.section.firstBlock)), .integer(Int64(entry.startWord)), .integer(Int64(entry.words)),
            ])
            _ = try insert.allRows()
        }
    }

    /// The blocks' words in the search index.
    private func index(_ blocks: [TextBlock], of ref: ItemRef) throws {
        let insert = try database.prepare("INSERT INTO text_search (rowid, body) VALUES (?, ?)")
        for (index, block) in blocks.prefix(TextSearchIndex.blocksPerText).enumerated() {
            try insert.bind([.integer(TextSearchIndex.rowID(book: ref.id, block: index)), .text(block.text)])
            _ = try insert.allRows()
        }
    }

    /// Takes the blocks' words out of the index: a contentless index
    /// forgets a row only when told its text again.
    private func unindex(_ blocks: [TextBlock], of ref: ItemRef) throws {
        let delete = try database.prepare("INSERT INTO text_search (text_search, rowid, body) VALUES ('delete', ?, ?)")
        for (index, block) in blocks.prefix(TextSearchIndex.blocksPerText).enumerated() {
            try delete.bind([.integer(TextSearchIndex.rowID(book: ref.id, block: index)), .text(block.text)])
            _ = try delete.allRows()
        }
    }

    /// The stored text's words out of the index. A damaged text cannot be
    /// told again: its rows stay, and find at worst a block that no longer
    /// holds the word (hits are read from the text).
    private func unindexText(_ ref: ItemRef) throws {
        let stored: [TextBlock]?
        do { stored = try storedBlocks(ref) } catch is ComicsError { return }
        guard let blocks = stored else { return }
        try unindex(blocks, of: ref)
    }

    private func storedBlocks(_ ref: ItemRef) throws -> [TextBlock]? {
        try storedChunks(ref).map { chunks in chunks.keys.sorted().flatMap { Self.blocks(from: chunks[$0]!.body) } }
    }

    /// Each wanted block's text in a chunk and how many words of the text
    /// come before it, in one pass over the bytes.
    static func forEachCandidate(_ wanted: Set<Int>, in chunk: ChunkBytes, _ body: (_ block: Int, _ text: UnsafeBufferPointer<UInt8>, _ wordsBefore: Int) -> Void) {
        var words = chunk.firstWord
        forEachBlock(in: chunk.body) { index, record in
            let text = textBytes(of: record)
            let block = chunk.firstBlock + index
            if wanted.contains(block), !text.isEmpty { body(block, text, words) }
            words += TextBlock.wordCount(in: text)
            return true
        }
    }

    /// Each serialized block's bytes (its kind, then its text) with its
    /// index, until `body` returns false.
    static func forEachBlock(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Bool) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0, index = 0
        while start <= bytes.count {
            var end = bytes.count
            if start < bytes.count, let separator = memchr(base + start, Int32(blockSeparator), bytes.count - start) {
                end = base.distance(to: separator.assumingMemoryBound(to: UInt8.self))
            }
            guard body(index, UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return }
            index += 1
            start = end + 1
        }
    }

    public func textInfo(_ ref: ItemRef) throws -> TextInfo? {
        try textInfos(where: "source = ? AND id = ?", Self.key(ref)).first
    }

    public func textInfos() throws -> [TextInfo] {
        try textInfos(where: "1", [])
    }

    public func textInfos(_ refs: [ItemRef]) throws -> [TextInfo] {
        guard !refs.isEmpty else { return [] }
        let keys = JSONValue.array(refs.map { .array([.string($0.source.rawValue), .int($0.id)]) })
        return try textInfos(where: "(source, id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))", [.text(keys.serialized)])
    }

    private func textInfos(where condition: String, _ values: [SQLiteValue]) throws -> [TextInfo] {
        try guarded {
            try database.query("""
                SELECT source, id, url, encoding, fetched_at, read_at, original_bytes,
                       (SELECT total(length(body)) FROM text_chunks c WHERE c.source = texts.source AND c.id = texts.id),
                       section_count, word_count, p.kept, p.bytes, p.skipped, p.missing, outline_origin, passed_over
                FROM texts LEFT JOIN (
                    SELECT source, id, count(*) FILTER (WHERE state = 'kept') AS kept, total(length(body)) AS bytes,
                           count(*) FILTER (WHERE state = 'skipped') AS skipped, count(*) FILTER (WHERE state = 'wanted') AS missing
                    FROM text_pictures GROUP BY source, id
                ) p USING (source, id) WHERE \(condition) ORDER BY source, id
                """, values).compactMap { (row: [SQLiteValue]) -> TextInfo? in
                guard let source = row[0].text.flatMap(SourceName.init(rawValue:)), let id = row[1].int,
                      let ref = try? ItemRef(source: source, checking: id)
                else { return nil }
                let pictureBytes = row[11].int(in: Self.byteRange) ?? 0
                let pictures = TextPictureCount(
                    kept: row[10].int ?? 0, bytes: pictureBytes, skipped: row[12].int ?? 0, missing: row[13].int ?? 0)
                return TextInfo(
                    ref: ref, url: row[2].text ?? "", encoding: row[3].text ?? "",
                    fetchedAt: row[4].timeOrEpoch, readAt: row[5].time,
                    originalBytes: row[6].int(in: Self.byteRange) ?? 0, storedBytes: (row[7].int(in: Self.byteRange) ?? 0) + pictureBytes,
                    sectionCount: row[8].int(in: 0...SectionOutline.maximumSections) ?? 0, wordCount: row[9].int(in: Self.byteRange) ?? 0,
                    pictures: pictures, outlineOrigin: row[14].text.flatMap(OutlineOrigin.init(rawValue:)),
                    passedOver: row[15].text.flatMap(TextEdition.init(rawValue:)))
            }
        }
    }

    public func textContent(_ ref: ItemRef) throws -> BookContent? {
        guard let blocks = try guarded({ try database.readTransaction { try storedBlocks(ref) } }) else { return nil }
        let sections = try outline(ref).map(\.section).filter { $0.firstBlock < blocks.count }
        return BookContent(blocks: blocks, sections: sections)
    }

    public func textPassage(_ ref: ItemRef, from first: Int, upTo end: Int?) throws -> TextPassage? {
        try guarded {
            try database.readTransaction {
                let starts = try chunkStarts(ref)
                let first = max(0, first)
                guard !starts.isEmpty else { return try storedChunks(ref).map { _ in TextPassage(firstBlock: first, blocks: [], wordsBefore: 0) } }
                let end = end ?? Int.max
                let wanted = starts.indices.filter { number in
                    let chunkEnd = number + 1 < starts.count ? starts[number + 1] : Int.max
                    return starts[number] < end && chunkEnd > first
                }
                guard let chunks = try storedChunks(ref, numbered: wanted) else { return nil }
                var blocks: [TextBlock] = []
                var wordsBefore = 0
                for number in wanted {
                    guard let chunk = chunks[number] else { continue }
                    if blocks.isEmpty { wordsBefore = chunk.firstWord }
                    chunk.body.withUnsafeBufferPointer { body in
                        Self.forEachBlock(in: body) { index, record in
                            let block = chunk.firstBlock + index
                            guard block < end else { return false }
                            if block >= first {
                                blocks.append(Self.block(from: record))
                            } else {
                                wordsBefore += TextBlock.wordCount(in: Self.textBytes(of: record))
                            }
                            return true
                        }
                    }
                }
                return TextPassage(firstBlock: first, blocks: blocks, wordsBefore: wordsBefore)
            }
        }
    }

    public func textBlock(_ ref: ItemRef, atWord word: Int) throws -> Int? {
        try guarded {
            try database.readTransaction {
                let row = try database.query("""
                    SELECT chunk FROM text_chunks WHERE source = ? AND id = ? AND first_word <= ? ORDER BY chunk DESC LIMIT 1
                    """, Self.key(ref) + [.integer(Int64(max(0, word)))]).first
                guard let number = row?[0].int, let chunk = try storedChunks(ref, numbered: [number])?[number] else { return nil }
                var words = chunk.firstWord
                var found: Int?
                var last = chunk.firstBlock
                chunk.body.withUnsafeBufferPointer { body in
                    Self.forEachBlock(in: body) { index, record in
                        last = chunk.firstBlock + index
                        if words >= word {
                            found = last
                            return false
                        }
                        words += TextBlock.wordCount(in: Self.textBytes(of: record))
                        return true
                    }
                }
                if let found { return found }
                // Past this chunk's blocks: the next chunk's first, if any.
                let next = try database.query(
                    "SELECT first_block FROM text_chunks WHERE source = ? AND id = ? AND chunk > ? ORDER BY chunk LIMIT 1",
                    Self.key(ref) + [.integer(Int64(number))]).first?[0].int(in: Self.byteRange)
                return next ?? last
            }
        }
    }

    public func textBlockCount(_ ref: ItemRef) throws -> Int? {
        try guarded {
            try database.readTransaction {
                let starts = try chunkStarts(ref)
                guard let last = starts.last else { return try storedChunks(ref).map { _ in 0 } }
                guard let chunk = try storedChunks(ref, numbered: [starts.count - 1])?[starts.count - 1] else { return nil }
                var count = 0
                chunk.body.withUnsafeBufferPointer { body in Self.forEachBlock(in: body) { _, _ in count += 1; return true } }
                return last + count
            }
        }
    }

    /// The outline as comics writes it: numbered from 1, each section
    /// opening at or after the one before, at most `maximumSections`; a
    /// tampered file's outline ends at its first row that is not so.
    public func outline(_ ref: ItemRef) throws -> [OutlineEntry] {
        try guarded {
            var entries: [OutlineEntry] = []
            for row in try database.query("""
                SELECT number, level, substr(title, 1, 1000), first_block, start_word, words FROM text_sections
                WHERE source = ? AND id = ? ORDER BY number LIMIT \(SectionOutline.maximumSections)
                """, Self.key(ref)) {
                guard row[0].int == entries.count + 1,
                      let firstBlock = row[3].int(in: (entries.last?.section.firstBlock ?? 0)...Self.byteRange.upperBound)
                else { break }
                entries.append(OutlineEntry(
                    number: entries.count + 1,
                    section: TextSection(level: row[1].int(in: 0...Self.deepestLevel) ?? Self.deepestLevel, title: row[2].text ?? "", firstBlock: firstBlock),
                    startWord: row[4].int(in: Self.byteRange) ?? 0, words: row[5].int(in: Self.byteRange) ?? 0))
            }
            return entries
        }
    }

    /// What a count of blocks, words or bytes in a text can be: no more
    /// than its bytes.
    static let byteRange = 0...BookContent.maximumTextBytes

    /// A percentage read back: finite, 0 to 100.
    static func percent(_ value: SQLiteValue) -> Double {
        value.double.map { $0.isFinite ? min(100, max(0, $0)) : 0 } ?? 0
    }

    /// Levels run from 0 (the outermost) to this, at most.
    static let deepestLevel = 15

    /// Where a place in a text can be: a block of it, an offset in one.
    static func place(_ block: SQLiteValue, _ offset: SQLiteValue) -> TextPosition? {
        guard let block = block.int(in: byteRange), let offset = offset.int(in: 0...BookContent.maximumBlockBytes) else { return nil }
        return TextPosition(block: block, offset: offset)
    }

    public func textUsage() throws -> TextUsage {
        try guarded {
            let row = try database.query("""
                SELECT (SELECT count(*) FROM texts), (SELECT total(original_bytes) FROM texts), (SELECT total(length(body)) FROM text_chunks) + (SELECT total(length(body)) FROM text_pictures),
                       (SELECT count(*) FROM reading_positions)
                """)[0]
            var usage = TextUsage()
            usage.texts = row[0].int ?? 0
            usage.bytes = row[1].int ?? 0
            usage.storedBytes = row[2].int ?? 0
            usage.positions = row[3].int ?? 0
            return usage
        }
    }

    public func removeTexts(_ refs: [ItemRef]) throws {
        guard !refs.isEmpty else { return }
        try guarded {
            try database.writeTransaction {
                for ref in refs {
                    try unindexText(ref)
                    try database.run("DELETE FROM text_sections WHERE source = ? AND id = ?", Self.key(ref))
                    try database.run("DELETE FROM text_chunks WHERE source = ? AND id = ?", Self.key(ref))
                    try database.run("DELETE FROM text_pictures WHERE source = ? AND id = ?", Self.key(ref))
                    try database.run("DELETE FROM texts WHERE source = ? AND id = ?", Self.key(ref))
                }
            }
        }
    }

    public func readingPosition(_ ref: ItemRef) throws -> ReadingPosition? {
        try readingPositions([ref])[ref]
    }

    public func readingPositions(_ refs: [ItemRef]) throws -> [ItemRef: ReadingPosition] {
        guard !refs.isEmpty else { return [:] }
        let keys = JSONValue.array(refs.map { .array([.string($0.source.rawValue), .int($0.id)]) })
        return try readingPositions(where: "(source, id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))", [.text(keys.serialized)])
    }

    public func allReadingPositions() throws -> [ItemRef: ReadingPosition] {
        try readingPositions(where: "1", [])
    }

    private func readingPositions(where condition: String, _ values: [SQLiteValue]) throws -> [ItemRef: ReadingPosition] {
        try guarded {
            var positions: [ItemRef: ReadingPosition] = [:]
            for row in try database.query("""
                SELECT source, id, block, block_offset, anchor, percent, section, at FROM reading_positions WHERE \(condition)
                """, values) {
                guard let source = row[0].text.flatMap(SourceName.init(rawValue:)), let id = row[1].int,
                      let ref = try? ItemRef(source: source, checking: id), let place = Self.place(row[2], row[3])
                else { continue }
                positions[ref] = ReadingPosition(
                    position: place, anchor: row[4].text ?? "", percent: Self.percent(row[5]),
                    section: row[6].int(in: 1...SectionOutline.maximumSections), at: row[7].timeOrEpoch)
            }
            return positions
        }
    }

    public func bookmarks(_ ref: ItemRef) throws -> [Bookmark] {
        try guarded {
            try database.query("""
                SELECT number, block, block_offset, anchor, name, at, percent, note FROM bookmarks
                WHERE source = ? AND id = ? AND number BETWEEN 1 AND \(Bookmark.highestNumber) ORDER BY number LIMIT \(Bookmark.limit)
                """, Self.key(ref)).compactMap(Self.bookmark)
        }
    }

    /// A row of `number, block, block_offset, anchor, name, at, percent, note`.
    private static func bookmark(_ row: [SQLiteValue]) -> Bookmark? {
        guard let number = row[0].int, let place = place(row[1], row[2]) else { return nil }
        return Bookmark(
            number: number, position: place, anchor: row[3].text ?? "", percent: percent(row[6]), name: row[4].text ?? "",
            at: row[5].timeOrEpoch, note: row[7].text.map { UpstreamText.capped($0, Bookmark.maximumNoteLength) })
    }

    public func allNotes() throws -> [(ref: ItemRef, note: Bookmark)] {
        try guarded {
            try database.query("""
                SELECT number, block, block_offset, anchor, name, at, percent, note, source, id FROM bookmarks
                WHERE note IS NOT NULL AND number BETWEEN 1 AND \(Bookmark.highestNumber) ORDER BY source, id, number LIMIT 100000
                """).compactMap { row in
                guard let source = row[8].text.flatMap(SourceName.init(rawValue:)), let id = row[9].int,
                      let ref = try? ItemRef(source: source, checking: id), let note = Self.bookmark(row)
                else { return nil }
                return (ref, note)
            }
        }
    }

    public func setNote(_ ref: ItemRef, number: Int, to note: String) throws {
        try guarded {
            try database.run(
                "UPDATE bookmarks SET note = ? WHERE source = ? AND id = ? AND number = ?",
                [.text(UpstreamText.capped(note, Bookmark.maximumNoteLength))] + Self.key(ref) + [.integer(Int64(number))])
        }
    }

    public func addBookmark(_ ref: ItemRef, _ bookmark: Bookmark) throws -> Bookmark {
        try guarded {
            try database.writeTransaction {
                let highest = try database.query(
                    "SELECT max(number) FROM bookmarks WHERE source = ? AND id = ? AND number BETWEEN 1 AND \(Bookmark.highestNumber - 1)", Self.key(ref))
                let next = (highest.first?[0].int ?? 0) + 1
                try database.run("""
                    INSERT OR REPLACE INTO bookmarks (source, id, number, block, block_offset, anchor, name, at, percent, note)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, Self.key(ref) + [
                        .integer(Int64(next)), .integer(Int64(bookmark.position.block)), .integer(Int64(bookmark.position.offset)),
                        .text(bookmark.anchor), .text(bookmark.name), .date(bookmark.at), .real(bookmark.percent),
                        .optionalText(bookmark.note.map { UpstreamText.capped($0, Bookmark.maximumNoteLength) }),
                    ])
                var added = bookmark
                added.number = next
                return added
            }
        }
    }

    public func renameBookmark(_ ref: ItemRef, number: Int, to name: String) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("UPDATE bookmarks SET name = ? WHERE source = ? AND id = ? AND number = ?", [.text(name)] + Self.key(ref) + [.integer(Int64(number))])
            }
        }
    }

    public func removeBookmark(_ ref: ItemRef, number: Int) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("DELETE FROM bookmarks WHERE source = ? AND id = ? AND number = ?", Self.key(ref) + [.integer(Int64(number))])
            }
        }
    }

    public func moveBookmark(_ ref: ItemRef, number: Int, to position: TextPosition) throws {
        try guarded {
            try database.writeTransaction {
                try database.run(
                    "UPDATE bookmarks SET block = ?, block_offset = ? WHERE source = ? AND id = ? AND number = ?",
                    [.integer(Int64(position.block)), .integer(Int64(position.offset))] + Self.key(ref) + [.integer(Int64(number))])
            }
        }
    }

    public func setReadingPosition(_ ref: ItemRef, _ position: ReadingPosition) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("""
                    INSERT OR REPLACE INTO reading_positions (source, id, block, block_offset, anchor, percent, section, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, Self.key(ref) + [
                        .integer(Int64(position.position.block)), .integer(Int64(position.position.offset)), .text(position.anchor),
                        .real(position.percent), position.section.map { .integer(Int64($0)) } ?? .null, .date(position.at),
                    ])
                try database.run("UPDATE texts SET read_at = ? WHERE source = ? AND id = ?", [.date(position.at)] + Self.key(ref))
            }
        }
    }

    /// Candidates from the index, then the query itself over them alone.
    public func searchTexts(_ query: String, in ref: ItemRef?, limit: Int) throws -> (hits: [TextHit], total: Int) {
        try searching(query, in: ref) { expression, range in try rankedHits(expression, rowIDs: range, limit: limit) }
    }

    public func textMatches(_ query: String, in ref: ItemRef) throws -> [Int] {
        try searching(query, in: ref) { expression, range in
            guard PassageRanking(expression: expression) == nil else {
                return try candidateRowIDs(expression, exact: true, rowIDs: range).map { TextSearchIndex.block(of: $0).block }
            }
            // A phrase: the candidates indexed with positions, in memory.
            return try withCandidatesIndexed(try candidates(expression, exact: false, rowIDs: range).map { ($0.rowID, $0.text) }) {
                try database.query("SELECT rowid FROM temp.text_candidates WHERE text_candidates MATCH ? ORDER BY rowid", [.text(expression)])
                    .compactMap { row -> Int? in
                        if case let .integer(rowID) = row[0] { return TextSearchIndex.block(of: rowID).block }
                        return nil
                    }
            }
        }
    }

    /// `body` with `temp.text_candidates` holding `rows` (a row id and its
    /// text each), emptied again after: FTS5 over a few paragraphs in
    /// memory, for what needs positions (phrases, snippets).
    private func withCandidatesIndexed<Result>(_ rows: [(rowID: Int64, text: String)], _ body: () throws -> Result) throws -> Result {
        try database.execute("DELETE FROM temp.text_candidates")
        defer { try? database.execute("DELETE FROM temp.text_candidates") }
        let insert = try database.prepare("INSERT INTO temp.text_candidates (rowid, body) VALUES (?, ?)")
        for row in rows {
            try insert.bind([.integer(row.rowID), .text(row.text)])
            _ = try insert.allRows()
        }
        return try body()
    }

    /// Runs a text search in one snapshot, a mistake in the query made a
    /// usage error.
    private func searching<Result>(_ query: String, in ref: ItemRef?, _ body: (String, [SQLiteValue]) throws -> Result) throws -> Result {
        let expression = SearchExpression(query).expression
        do {
            // The candidates' index lives in memory, never in a temporary file.
            try database.execute("PRAGMA temp_store = MEMORY")
            try database.execute(TextSearchIndex.candidatesDefinition)
            // One transaction: one snapshot of the texts, and the candidates
            // indexed at once (one insert a transaction costs a segment each).
            var range: [SQLiteValue] = [.integer(0), .integer(Int64.max)]
            if let ref { range = [.integer(TextSearchIndex.rowID(book: ref.id, block: 0)), .integer(TextSearchIndex.rowID(book: ref.id + 1, block: 0) - 1)] }
            return try database.readTransaction { try body(expression, range) }
        } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
            throw ComicsError.usage(
                "cannot search for \(query): \(Self.explainQueryError(error.message))",
                hint: "words match anywhere; \"a phrase\" in double quotes, word* for a prefix, AND, OR, NOT and ( ) between them")
        } catch let error as SQLiteError {
            throw Self.describe(error, path: database.path)
        }
    }

    /// The rows of the word index that hold the query's words (all of
    /// them, when `exact`; else its phrases' words anywhere in the row).
    private func candidateRowIDs(_ expression: String, exact: Bool, rowIDs range: [SQLiteValue]) throws -> [Int64] {
        try database.query("""
            SELECT rowid FROM text_search WHERE text_search MATCH ?1 AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid LIMIT ?4
            """, [.text(exact ? expression : TextSearchIndex.loosened(expression))] + range + [.integer(Int64(Self.candidateLimit))])
            .compactMap { row -> Int64? in
                if case let .integer(rowID) = row[0] { return rowID }
                return nil
            }
    }

    /// A block the index found, its text, and what ranking needs of it
    /// (counted beside its chunk's inflation).
    private typealias Candidate = (rowID: Int64, text: String, percent: Double, counted: PassageRanking.Counted?)

    /// The candidates' texts (only the chunks holding candidates are read
    /// and inflated), in reading order; each counted for `ranking` on the
    /// core that inflated its chunk.
    private func candidates(_ expression: String, exact: Bool, rowIDs range: [SQLiteValue], ranking: PassageRanking? = nil) throws -> [Candidate] {
        var byBook: [Int: [Int]] = [:]
        for rowID in try candidateRowIDs(expression, exact: exact, rowIDs: range) {
            let (book, block) = TextSearchIndex.block(of: rowID)
            byBook[book, default: []].append(block)
        }
        var found: [Candidate] = []
        for (book, blocks) in byBook.sorted(by: { $0.key < $1.key }) {
            let ref = ItemRef(source: .books, id: book)
            let starts = try chunkStarts(ref)
            let numbers = Set(blocks.map { block in max(0, (starts.lastIndex { $0 <= block }) ?? 0) })
            let words = Double(max(1, try textInfos(where: "source = ? AND id = ?", Self.key(ref)).first?.wordCount ?? 0))
            let wanted = Set(blocks)
            let stored = try readChunks(ref, numbered: numbers.sorted()) { chunk -> [Candidate] in
                var inChunk: [Candidate] = []
                Self.forEachCandidate(wanted, in: chunk) { block, text, wordsBefore in
                    inChunk.append((
                        TextSearchIndex.rowID(book: book, block: block), String(decoding: text, as: UTF8.self),
                        Double(wordsBefore) * 100 / words, ranking?.counted(text)))
                }
                return inChunk
            } ?? [:]
            found += stored.values.joined()
        }
        return found.sorted { $0.rowID < $1.rowID }
    }

    /// The candidates in the rowid range, ranked: by `PassageRanking` when
    /// the index alone decides what matches (the words as asked, one after
    /// another, first; then near each other; then bm25), else indexed again
    /// in memory with positions (phrases). Snippets are cut for the best alone.
    private func rankedHits(_ expression: String, rowIDs range: [SQLiteValue], limit: Int) throws -> (hits: [TextHit], total: Int) {
        let ranking = PassageRanking(expression: expression)
        let found = try candidates(expression, exact: ranking != nil, rowIDs: range, ranking: ranking)
        // Ranked here, only the best need FTS5 (for their snippets); a
        // phrase needs it to match and rank every candidate.
        let indexed: [Int] = ranking.map { ranking in
            let counted = found.compactMap(\.counted)
            let scores = ranking.scores(of: counted)
            let tiers = counted.map(ranking.tier)
            // Compared by these alone: a candidate is too large to copy at every comparison.
            let rowIDs = found.map(\.rowID)
            return Array(found.indices.sorted {
                (tiers[$0], scores[$0], rowIDs[$0]) < (tiers[$1], scores[$1], rowIDs[$1])
            }.prefix(limit))
        } ?? Array(found.indices)
        return try withCandidatesIndexed(indexed.map { (found[$0].rowID, found[$0].text) }) {
            let best: [Int]
            let total: Int
            if ranking != nil {
                best = indexed
                total = found.count
            } else {
                let position = Dictionary(uniqueKeysWithValues: found.enumerated().map { ($1.rowID, $0) })
                best = try database.query("""
                    SELECT rowid FROM temp.text_candidates WHERE text_candidates MATCH ?1 ORDER BY rank LIMIT ?2
                    """, [.text(expression), .integer(Int64(limit))]).compactMap { row -> Int? in
                    if case let .integer(rowID) = row[0] { return position[rowID] }
                    return nil
                }
                total = best.count < limit ? best.count
                    : try database.query("SELECT count(*) FROM temp.text_candidates WHERE text_candidates MATCH ?", [.text(expression)]).first?[0].int ?? best.count
            }
            var snippets: [Int64: String] = [:]
            for row in try database.query("""
                SELECT rowid, comics_snippet(text_candidates, ?2, ?3, '…', 16) FROM temp.text_candidates
                WHERE text_candidates MATCH ?1 AND rowid IN (SELECT value FROM json_each(?4))
                """, [.text(expression), .text(String(SearchMatch.start)), .text(String(SearchMatch.end)),
                      .text(JSONValue.array(best.map { .int(Int(found[$0].rowID)) }).serialized)]) {
                if case let .integer(rowID) = row[0] { snippets[rowID] = SearchMatch.capped(row[1].text ?? "") }
            }
            let hits: [TextHit] = best.map { index in
                let (book, block) = TextSearchIndex.block(of: found[index].rowID)
                return TextHit(
                    ref: ItemRef(source: .books, id: book), block: block, snippet: snippets[found[index].rowID] ?? "", percent: found[index].percent)
            }
            return (hits, total)
        }
    }

    /// The most blocks one search looks at closely: a word in every
    /// paragraph of fifty books is not read through whole.
    static let candidateLimit = 20_000

    static func key(_ ref: ItemRef) -> [SQLiteValue] {
        [.text(ref.source.rawValue), .integer(Int64(ref.id))]
    }

    static func serialized(_ blocks: [TextBlock]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(blocks.reduce(0) { $0 + $1.text.utf8.count + 2 })
        for (index, block) in blocks.enumerated() {
            if index > 0 { bytes.append(blockSeparator) }
            bytes.append(contentsOf: String(block.kind.rawValue).utf8)
            for (number, part) in [block.text, block.link].enumerated() {
                guard let part else { continue }
                if number > 0 { bytes.append(linkSeparator) }
                let utf8 = part.utf8
                if utf8.contains(where: { $0 == blockSeparator || $0 == linkSeparator }) {
                    bytes.append(contentsOf: utf8.lazy.filter { $0 != blockSeparator && $0 != linkSeparator })
                } else {
                    bytes.append(contentsOf: utf8)
                }
            }
        }
        return bytes
    }

    /// Blocks of an unknown kind (a damaged row) read as prose; the text
    /// passes the terminal sanitizer again when it is shown.
    static func blocks(from bytes: [UInt8]) -> [TextBlock] {
        bytes.withUnsafeBufferPointer { buffer in
            var blocks: [TextBlock] = []
            forEachBlock(in: buffer) { _, record in
                blocks.append(block(from: record))
                return true
            }
            return blocks
        }
    }

    private static func block(from record: UnsafeBufferPointer<UInt8>) -> TextBlock {
        guard let first = record.first else { return TextBlock(.prose, "") }
        let kind = TextBlock.Kind(rawValue: Character(Unicode.Scalar(first))) ?? .prose
        let text = textBytes(of: record)
        let linkStart = 1 + text.count + 1
        let link = linkStart <= record.count
            ? String(decoding: UnsafeBufferPointer(rebasing: record[linkStart...]).prefix(4 * TextBlock.maximumLinkLength), as: UTF8.self)
            : nil
        return TextBlock(kind, String(decoding: text, as: UTF8.self), link: link.map { UpstreamText.capped($0, TextBlock.maximumLinkLength) })
    }
}
