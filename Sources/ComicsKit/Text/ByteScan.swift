import Glibc

/// Searches in a text's UTF-8 at memchr's speed, for the rules that read
/// every line of a book.
enum ByteScan {
    static func contains(_ byte: UInt8, in text: Substring) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { contains(byte, in: $0) } ?? text.utf8.contains(byte)
    }

    static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.baseAddress.map { memchr($0, Int32(byte), bytes.count) != nil } ?? false
    }

    /// How many Unicode scalars the text holds: its bytes that do not
    /// continue a scalar.
    static func scalarCount(of text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
    }
}
