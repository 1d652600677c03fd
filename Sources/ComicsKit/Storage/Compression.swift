import CZlib

/// zlib's deflate for the texts the cache keeps: a book's text costs about
/// two fifths of its size. Inflating is bounded by the size recorded beside
/// the data, so a damaged or planted row cannot make it allocate more.
enum Compression {
    /// Level 4: War and Peace in 128 KiB chunks to 0.39 of its size, in
    /// no more time than level 3 takes to reach 0.41 (level 6: 0.38, in
    /// two and a half times as long).
    static let level: Int32 = 4

    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let code = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &capacity, source.baseAddress, uLong(source.count), level)
            }
        }
        precondition(code == Z_OK, "compress2 cannot fail with a buffer of compressBound bytes")
        output.removeLast(output.count - Int(capacity))
        return output
    }

    /// The original bytes, or nil when the data is not what `deflate`
    /// made of exactly `expectedCount` bytes.
    static func inflate(_ bytes: [UInt8], expectedCount: Int) -> [UInt8]? {
        guard expectedCount >= 0, expectedCount <= 256 * 1024 * 1024 else { return nil }
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
