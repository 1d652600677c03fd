import Dispatch
import Glibc
import Synchronization

/// A run of a text's blocks stored, and compressed, together: a section,
/// a page or a search's candidates are read without inflating the book.
struct TextChunk {
    var firstBlock: Int
    /// The words of the text before the chunk's first block.
    var firstWord: Int
    /// The chunk's blocks, serialized (`SQLiteCacheStore.serialized`).
    var body: [UInt8]
}

/// A chunk as it is being read, its bytes borrowed from the inflater.
struct ChunkBytes {
    let firstBlock: Int
    let firstWord: Int
    let body: UnsafeBufferPointer<UInt8>
}

extension SQLiteCacheStore {
    /// About this many bytes of text a chunk: small enough that a section
    /// of a long book costs a fraction of it, large enough that zstd
    /// compresses each nearly as well as the whole text.
    static let chunkBytes = 128 * 1024

    /// The most one chunk's blocks can hold as `chunks(of:)` writes them
    /// (one block may pass `chunkBytes` alone): a row saying more is damaged.
    static let maximumChunkBytes = chunkBytes + BookContent.maximumBlockBytes + 4 * TextBlock.maximumLinkLength + 3

    /// The blocks in chunks; a text without blocks is one empty chunk, so
    /// that a downloaded text always has one.
    static func chunks(of blocks: [TextBlock]) -> [TextChunk] {
        var chunks: [TextChunk] = []
        var start = 0, size = 0, words = 0, wordsAtStart = 0
        for (index, block) in blocks.enumerated() {
            let length = block.text.utf8.count + (block.link.map { $0.utf8.count + 1 } ?? 0) + 2
            if index > start, size + length > chunkBytes {
                chunks.append(TextChunk(firstBlock: start, firstWord: wordsAtStart, body: serialized(Array(blocks[start..<index]))))
                (start, size, wordsAtStart) = (index, 0, words)
            }
            size += length
            words += block.wordCount
        }
        if start < blocks.count || chunks.isEmpty {
            chunks.append(TextChunk(firstBlock: start, firstWord: wordsAtStart, body: serialized(Array(blocks[start...]))))
        }
        return chunks
    }

    /// Each chunk's body compressed, on every core.
    static func compressed(_ chunks: [TextChunk]) -> [[UInt8]] {
        let results = ParallelResults<[UInt8]>(count: chunks.count)
        DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
            results.store(Compression.compress(chunks[index].body), at: index)
        }
        return results.values.map { $0 ?? [] }
    }

    /// Replaces the text's chunks (inside the caller's transaction).
    static func insertChunks(_ chunks: [TextChunk], compressed: [[UInt8]], of key: [SQLiteValue], in database: SQLiteDatabase) throws {
        try database.run("DELETE FROM text_chunks WHERE source = ? AND id = ?", key)
        let insert = try database.prepare("""
            INSERT INTO text_chunks (source, id, chunk, first_block, first_word, body_bytes, body) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (number, chunk) in chunks.enumerated() {
            try insert.bind(key + [
                .integer(Int64(number)), .integer(Int64(chunk.firstBlock)), .integer(Int64(chunk.firstWord)),
                .integer(Int64(chunk.body.count)), .blob(compressed[number]),
            ])
            _ = try insert.allRows()
        }
    }

    /// Where each of the text's chunks begins, in blocks, without reading
    /// any of them.
    func chunkStarts(_ ref: ItemRef) throws -> [Int] {
        try database.query("SELECT first_block FROM text_chunks WHERE source = ? AND id = ? ORDER BY chunk", Self.key(ref)).map { row in
            guard let start = row[0].int(in: 0...BookContent.maximumTextBytes) else { throw damaged(ref) }
            return start
        }
    }

    /// The chunks numbered `numbers` (nil: all), inflated on every core.
    /// Nil when the book has no text.
    func storedChunks(_ ref: ItemRef, numbered numbers: [Int]? = nil) throws -> [Int: TextChunk]? {
        try readChunks(ref, numbered: numbers) { TextChunk(firstBlock: $0.firstBlock, firstWord: $0.firstWord, body: Array($0.body)) }
    }

    /// What `reading` finds in each of the chunks numbered `numbers` (nil:
    /// all), read on the core that inflated the chunk while its bytes are
    /// in that core's cache; the bytes are not kept. Nil when the book has
    /// no text. Rows are checked before anything is inflated: sizes past
    /// what the writer writes, or numbers out of range, make the text
    /// damaged, not a cost.
    func readChunks<Found>(
        _ ref: ItemRef, numbered numbers: [Int]?, reading: @Sendable (ChunkBytes) -> Found
    ) throws -> [Int: Found]? {
        var condition = ""
        if numbers != nil { condition = " AND chunk IN (SELECT value FROM json_each(?3))" }
        let values = Self.key(ref) + (numbers.map { [.text(JSONValue.array($0.map { .int($0) }).serialized)] } ?? [])
        let rows = try database.query("""
            SELECT chunk, first_block, first_word, body_bytes, body FROM text_chunks WHERE source = ?1 AND id = ?2\(condition) ORDER BY chunk
            """, values)
        guard !rows.isEmpty || numbers != nil else {
            let exists = try !database.query("SELECT 1 FROM texts WHERE source = ? AND id = ?", Self.key(ref)).isEmpty
            if exists { throw damaged(ref) }
            return nil
        }
        var total = 0
        for row in rows {
            guard let count = row[3].int, (0...Self.maximumChunkBytes).contains(count),
                  let number = row[0].int, number >= 0, let firstBlock = row[1].int, (0...BookContent.maximumTextBytes).contains(firstBlock),
                  let firstWord = row[2].int, (0...BookContent.maximumTextBytes).contains(firstWord), row[4].bytes != nil
            else { throw damaged(ref) }
            total += count
        }
        guard total <= BookContent.maximumTextBytes else { throw damaged(ref) }
        // A worker a core, each with its own inflater, taking the next
        // chunk left until none is (a worker's thread may start late).
        let workers = min(rows.count, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // Made here: a context that cannot be had (memory) is said as such,
        // not taken for a damaged text.
        let inflaters = (0..<workers).compactMap { _ in Compression.Inflater() }
        guard inflaters.count == workers else { throw ComicsError.unexpected("not enough memory to read the text of \(ref)") }
        let read = ParallelResults<Found>(count: rows.count)
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let inflater = inflaters[worker]
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < rows.count {
                guard let compressed = rows[index][4].bytes, let count = rows[index][3].int,
                      let firstBlock = rows[index][1].int, let firstWord = rows[index][2].int,
                      let found = inflater.inflate(compressed, expectedCount: count, { body in
                          reading(ChunkBytes(firstBlock: firstBlock, firstWord: firstWord, body: body))
                      })
                else { continue }
                read.store(found, at: index)
            }
        }
        var chunks: [Int: Found] = [:]
        for (row, found) in zip(rows, read.values) {
            guard let number = row[0].int, let found else { throw damaged(ref) }
            chunks[number] = found
        }
        return chunks
    }

    private func damaged(_ ref: ItemRef) -> ComicsError {
        ComicsError.database(
            "the text of \(ref) in \(database.path) is damaged; 'comics get --refresh \(ref)' downloads it again")
    }

    /// Migration 16: each text's single compressed body becomes chunks
    /// (migration 17 drops the body).
    static func moveTextsIntoChunks(_ database: SQLiteDatabase) throws {
        for row in try database.query("SELECT source, id, body_bytes, body FROM texts") {
            guard let source = row[0].text, let id = row[1].int, let count = row[2].int, let compressed = row[3].bytes,
                  (0...BookContent.maximumTextBytes).contains(count), let body = Compression.inflateZlib(compressed, expectedCount: count)
            else {
                // A damaged text is dropped whole; the book can be got again.
                try database.run("DELETE FROM text_sections WHERE source = ? AND id = ?", [row[0], row[1]])
                try database.run("DELETE FROM texts WHERE source = ? AND id = ?", [row[0], row[1]])
                continue
            }
            let chunks = chunks(of: blocks(from: body))
            try insertChunks(chunks, compressed: Self.compressed(chunks), of: [.text(source), .integer(Int64(id))], in: database)
        }
    }

    /// Migration 20: the chunks zlib compressed, compressed with zstd, a
    /// text at a time. A chunk zlib does not inflate is left as it is: zstd
    /// already (migration 16 in the same run writes zstd), or damaged,
    /// which `get --refresh` mends.
    static func recompressChunksWithZstd(_ database: SQLiteDatabase) throws {
        let update = try database.prepare("UPDATE text_chunks SET body = ? WHERE source = ? AND id = ? AND chunk = ?")
        for text in try database.query("SELECT DISTINCT source, id FROM text_chunks") {
            for row in try database.query("SELECT chunk, body_bytes, body FROM text_chunks WHERE source = ? AND id = ?", [text[0], text[1]]) {
                guard let count = row[1].int, (0...maximumChunkBytes).contains(count), let stored = row[2].bytes,
                      let body = Compression.inflateZlib(stored, expectedCount: count)
                else { continue }
                try update.bind([.blob(Compression.compress(body)), text[0], text[1], row[0]])
                _ = try update.allRows()
            }
        }
    }
}

/// Results computed on several threads, each written once at its own
/// index before `concurrentPerform` returns, read after.
final class ParallelResults<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func store(_ value: Value, at index: Int) {
        slots[index] = value
    }

    var values: [Value?] { Array(slots) }
}
