import CZlib
import CZstd

/// zstd for the texts the cache keeps: a book's text costs about two fifths
/// of its size, and inflates several times faster than zlib's at that size
/// (a search inflates every chunk holding a hit). Decompressing is bounded
/// by the size recorded beside the data, and that size by what the writer
/// can write, so a damaged or planted row cannot make it allocate more.
enum Compression {
    /// Level 3 (zstd's default): War and Peace in 128 KiB chunks to 0.37
    /// of its size in a third of the time zlib's level 4 took for 0.39.
    static let level: Int32 = 3

    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        let capacity = ZSTD_compressBound(bytes.count)
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { destination, initialized in
            written = bytes.withUnsafeBufferPointer { source in
                ZSTD_compress(destination.baseAddress, capacity, source.baseAddress, source.count, level)
            }
            precondition(ZSTD_isError(written) == 0, "ZSTD_compress cannot fail with a buffer of ZSTD_compressBound bytes")
            initialized = written
        }
        return output
    }

    /// The original bytes, or nil when the data is not one zstd frame that
    /// says it holds exactly `expectedCount` bytes and does: its header is
    /// read before anything is allocated.
    static func decompress(_ bytes: [UInt8], expectedCount: Int) -> [UInt8]? {
        guard expectedCount >= 0 else { return nil }
        let declared = bytes.withUnsafeBufferPointer { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        guard declared == UInt64(expectedCount) else { return nil }
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: max(1, expectedCount)) { destination, initialized in
            written = bytes.withUnsafeBufferPointer { source in
                ZSTD_decompress(destination.baseAddress, expectedCount, source.baseAddress, source.count)
            }
            initialized = ZSTD_isError(written) == 0 ? min(written, expectedCount) : 0
        }
        guard ZSTD_isError(written) == 0, written == expectedCount else { return nil }
        return output
    }

    /// zlib's inflate, for the texts older versions stored (migrations 16
    /// and 20 read them): nil unless `bytes` inflate to exactly
    /// `expectedCount` bytes.
    static func inflateZlib(_ bytes: [UInt8], expectedCount: Int) -> [UInt8]? {
        guard expectedCount >= 0 else { return nil }
        var length = uLong(expectedCount)
        var code = Z_OK
        // Uninitialized: zlib writes every byte that is kept.
        let output = [UInt8](unsafeUninitializedCapacity: max(1, expectedCount)) { destination, initialized in
            code = bytes.withUnsafeBufferPointer { source in
                uncompress(destination.baseAddress, &length, source.baseAddress, uLong(source.count))
            }
            initialized = code == Z_OK ? min(Int(length), destination.count) : 0
        }
        guard code == Z_OK, Int(length) == expectedCount else { return nil }
        return output
    }
}
