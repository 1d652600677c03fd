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

    /// A zstd context and the buffer it writes into, kept from one frame
    /// to the next: a context created and pages first touched for every
    /// chunk made a third of what inflating a book's chunks cost. Used by
    /// one thread at a time (each worker has its own).
    final class Inflater: @unchecked Sendable {
        private let context: OpaquePointer
        private var buffer: [UInt8] = []

        init?() {
            guard let context = ZSTD_createDCtx() else { return nil }
            self.context = context
        }

        deinit {
            ZSTD_freeDCtx(context)
        }

        /// `body` given the original bytes, or nil when the data is not
        /// one zstd frame that says it holds exactly `expectedCount` bytes
        /// and does: its header is read before anything is allocated.
        /// The bytes are only valid inside `body`.
        func inflate<Result>(_ bytes: [UInt8], expectedCount: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
            guard expectedCount >= 0 else { return nil }
            let declared = bytes.withUnsafeBufferPointer { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
            guard declared == UInt64(expectedCount) else { return nil }
            if buffer.count < max(1, expectedCount) { buffer = [UInt8](repeating: 0, count: max(1, expectedCount)) }
            let written = buffer.withUnsafeMutableBufferPointer { destination in
                bytes.withUnsafeBufferPointer { source in
                    ZSTD_decompressDCtx(context, destination.baseAddress, expectedCount, source.baseAddress, source.count)
                }
            }
            guard ZSTD_isError(written) == 0, written == expectedCount else { return nil }
            return buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<expectedCount])) }
        }
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
