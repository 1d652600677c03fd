import CZlib

/// zlib's deflate, as versions before migration 20 stored texts: tests
/// write such rows to see them migrated.
public enum LegacyCompression {
    public static func zlibDeflate(_ bytes: [UInt8]) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let code = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &capacity, source.baseAddress, uLong(source.count), 4)
            }
        }
        precondition(code == Z_OK)
        output.removeLast(output.count - Int(capacity))
        return output
    }
}
