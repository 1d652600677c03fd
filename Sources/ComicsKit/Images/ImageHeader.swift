/// What an image file says about itself in its first bytes: its format and
/// size; and whether it ends as its format ends. Read before anything
/// decodes it, so that only whole PNG, JPEG and GIF files reach the decoder
/// (which would draw a cut-off file half grey), and a small file that would
/// unpack into gigabytes of pixels (a decompression bomb) is refused unopened.
public struct ImageHeader: Equatable, Sendable {
    public enum Format: String, Sendable {
        case png, jpeg, gif
    }

    public let format: Format
    public let width: Int
    public let height: Int

    /// No side longer than this, and no more pixels than `maximumPixels`:
    /// far beyond any comic or cover, well below what would exhaust memory.
    public static let maximumSide = 30_000
    public static let maximumPixels = 50_000_000

    public static func inspect(_ bytes: [UInt8]) throws(ImageProblem) -> ImageHeader {
        guard !bytes.isEmpty else { throw .empty }
        let header: ImageHeader
        // Every size the file declares, beside the one it is drawn at: a
        // GIF frame (or an APNG one, or a second JPEG frame) may be larger
        // than the image, and a decoder makes room for it.
        let declared: [Size]
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            (header, declared) = try png(bytes)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            (header, declared) = try gif(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            (header, declared) = try jpeg(bytes)
        } else {
            throw .notAnImage
        }
        guard header.width > 0, header.height > 0 else { throw .zeroSize }
        for size in [Size(width: header.width, height: header.height)] + declared {
            guard size.width <= maximumSide, size.height <= maximumSide, size.width * size.height <= maximumPixels
            else { throw .tooLarge(width: size.width, height: size.height) }
        }
        guard hasEnding(bytes, of: header.format) else { throw .truncated }
        return header
    }

    private struct Size {
        let width: Int
        let height: Int
    }

    /// PNG ends with its IEND chunk, JPEG with the EOI marker, GIF with the
    /// trailer byte; a few bytes of padding after them are tolerated.
    private static func hasEnding(_ bytes: [UInt8], of format: Format) -> Bool {
        let tail = Array(bytes.suffix(32))
        switch format {
        case .png:
            return tail.indices.dropLast(3).contains { Array(tail[$0..<$0 + 4]) == Array("IEND".utf8) }
        case .jpeg:
            return tail.indices.dropLast().contains { tail[$0] == 0xFF && tail[$0 + 1] == 0xD9 }
        case .gif:
            return tail.last { $0 != 0 } == 0x3B
        }
    }

    /// The IHDR chunk comes first: length, "IHDR", width, height (big-endian).
    /// The chunks after it are walked for APNG's frame controls (`fcTL`:
    /// sequence, width, height, x and y offset), each a size declared.
    private static func png(_ bytes: [UInt8]) throws(ImageProblem) -> (ImageHeader, [Size]) {
        guard bytes.count >= 24 else { throw .truncated }
        guard Array(bytes[12..<16]) == Array("IHDR".utf8) else { throw .notAnImage }
        let header = ImageHeader(format: .png, width: bigEndian(bytes, 16, count: 4), height: bigEndian(bytes, 20, count: 4))
        var declared: [Size] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bigEndian(bytes, offset, count: 4)
            let type = bytes[offset + 4..<offset + 8]
            if type.elementsEqual("IEND".utf8) { break }
            guard length <= bytes.count - offset - 12 else { throw .truncated }
            if type.elementsEqual("fcTL".utf8) {
                guard length >= 20 else { throw .notAnImage }
                let data = offset + 8
                declared.append(Size(
                    width: bigEndian(bytes, data + 4, count: 4) + bigEndian(bytes, data + 12, count: 4),
                    height: bigEndian(bytes, data + 8, count: 4) + bigEndian(bytes, data + 16, count: 4)))
            }
            offset += 12 + length
        }
        return (header, declared)
    }

    /// The logical screen, then every block: each image descriptor's
    /// offset and size (the canvas it needs) is a size declared.
    private static func gif(_ bytes: [UInt8]) throws(ImageProblem) -> (ImageHeader, [Size]) {
        guard bytes.count >= 13 else { throw .truncated }
        let header = ImageHeader(format: .gif, width: littleEndian(bytes, 6), height: littleEndian(bytes, 8))
        var declared: [Size] = []
        var offset = 13 + colorTableSize(bytes[10])
        while true {
            guard offset < bytes.count else { throw .truncated }
            switch bytes[offset] {
            case 0x3B:
                // A trailer before any image: what there was of it is gone.
                guard !declared.isEmpty else { throw .truncated }
                return (header, declared)
            case 0x21:
                offset = try afterSubBlocks(bytes, from: offset + 2)
            case 0x2C:
                guard offset + 10 <= bytes.count else { throw .truncated }
                declared.append(Size(
                    width: littleEndian(bytes, offset + 1) + littleEndian(bytes, offset + 5),
                    height: littleEndian(bytes, offset + 3) + littleEndian(bytes, offset + 7)))
                // The descriptor, its colour table, the LZW code size, the data.
                offset = try afterSubBlocks(bytes, from: offset + 10 + colorTableSize(bytes[offset + 9]) + 1)
            default:
                // gdk-pixbuf steps over a byte that starts no block, so must this.
                offset += 1
            }
        }
    }

    /// The bytes a GIF colour table takes, from the flags that announce it.
    private static func colorTableSize(_ flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }

    /// Where a run of GIF sub-blocks (a length byte, then that many bytes;
    /// a zero length ends the run) ends.
    private static func afterSubBlocks(_ bytes: [UInt8], from start: Int) throws(ImageProblem) -> Int {
        var offset = start
        while true {
            guard offset < bytes.count else { throw .truncated }
            let length = Int(bytes[offset])
            offset += 1 + length
            if length == 0 { return offset }
        }
    }

    /// Walks every marker segment, through the entropy-coded data after
    /// each start-of-scan: the first start-of-frame gives the height and
    /// width, and every one is a size declared.
    private static func jpeg(_ bytes: [UInt8]) throws(ImageProblem) -> (ImageHeader, [Size]) {
        var frames: [Size] = []
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else {
                // libjpeg skips "extraneous bytes before marker", so must this.
                offset = nextMarker(in: bytes, from: offset)
                continue
            }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            if marker == 0xD9 { break }
            let length = bigEndian(bytes, offset + 2, count: 2)
            guard length >= 2 else { throw .notAnImage }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                guard offset + 9 <= bytes.count else { throw .truncated }
                frames.append(Size(width: bigEndian(bytes, offset + 7, count: 2), height: bigEndian(bytes, offset + 5, count: 2)))
            }
            offset += 2 + length
            if marker == 0xDA { offset = nextMarker(in: bytes, from: offset) }
        }
        guard let first = frames.first else { throw offset + 4 > bytes.count ? .truncated : .notAnImage }
        return (ImageHeader(format: .jpeg, width: first.width, height: first.height), Array(frames.dropFirst()))
    }

    /// Where entropy-coded data ends: the first 0xFF that is not a stuffed
    /// zero, a restart marker or fill.
    private static func nextMarker(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = start
            while offset + 1 < buffer.count {
                if buffer[offset] == 0xFF {
                    let next = buffer[offset + 1]
                    if next != 0x00 && !(0xD0...0xD7).contains(next) && next != 0xFF { return offset }
                }
                offset += 1
            }
            return buffer.count
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }
}

/// Why bytes that should be an image cannot be drawn.
public enum ImageProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case notAnImage
    case truncated
    case zeroSize
    case tooLarge(width: Int, height: Int)
    /// The decoder refused it, for the reason given.
    case undecodable(String)

    public var description: String {
        switch self {
        case .empty: "the image is empty"
        case .notAnImage: "it is not a PNG, JPEG or GIF image"
        case .truncated: "the image is cut short"
        case .zeroSize: "the image has no pixels"
        case let .tooLarge(width, height): "the image is too large to draw (\(width)×\(height) pixels)"
        case let .undecodable(reason): "the image cannot be decoded: \(reason)"
        }
    }
}
