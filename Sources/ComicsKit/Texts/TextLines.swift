import Glibc

/// A text's lines, each made a `Substring` only when it is read: the text
/// keeps where each line begins (4 bytes a line; a `Substring` each would
/// be 32), so a file of millions of one-letter lines costs a small
/// multiple of its size.
struct TextLines: RandomAccessCollection {
    let text: String
    /// Where each line begins in the text's bytes, then one past the end.
    private let starts: [UInt32]

    /// `text` split at each line feed (the feeds belong to no line). A text
    /// is at most `BookContent.maximumTextBytes`, well within 32 bits.
    init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        var starts: [UInt32] = [0]
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count, let feed = memchr(base + offset, 0x0A, bytes.count - offset) {
                offset = base.distance(to: feed.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(UInt32(truncatingIfNeeded: offset))
            }
        }
        starts.append(UInt32(truncatingIfNeeded: text.utf8.count + 1))
        self.text = text
        self.starts = starts
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count - 1 }

    subscript(index: Int) -> Substring {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: Int(starts[index]))
        let end = utf8.index(utf8.startIndex, offsetBy: Int(starts[index + 1]) - 1)
        return text[start..<end]
    }
}
