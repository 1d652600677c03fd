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
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            header = try png(bytes)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            guard bytes.count >= 10 else { throw .truncated }
            header = ImageHeader(format: .gif, width: littleEndian(bytes, 6), height: littleEndian(bytes, 8))
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            header = try jpeg(bytes)
        } else {
            throw .notAnImage
        }
        guard header.width > 0, header.height > 0 else { throw .zeroSize }
        guard header.width <= maximumSide, header.height <= maximumSide,
              header.width * header.height <= maximumPixels
        else { throw .tooLarge(width: header.width, height: header.height) }
        guard hasEnding(bytes, of: header.format) else { throw .truncated }
        return header
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
    private static func png(_ bytes: [UInt8]) throws(ImageProblem) -> ImageHeader {
        guard bytes.count >= 24 else { throw .truncated }
        guard Array(bytes[12..<16]) == Array("IHDR".utf8) else { throw .notAnImage }
        return ImageHeader(format: .png, width: bigEndian(bytes, 16, count: 4), height: bigEndian(bytes, 20, count: 4))
    }

    /// Walks the marker segments to the first start-of-frame, which holds
    /// the height and width.
    private static func jpeg(_ bytes: [UInt8]) throws(ImageProblem) -> ImageHeader {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { throw .notAnImage }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            let length = bigEndian(bytes, offset + 2, count: 2)
            guard length >= 2 else { throw .notAnImage }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                guard offset + 9 <= bytes.count else { throw .truncated }
                return ImageHeader(
                    format: .jpeg, width: bigEndian(bytes, offset + 7, count: 2), height: bigEndian(bytes, offset + 5, count: 2))
            }
            if marker == 0xDA || marker == 0xD9 { throw .notAnImage }
            offset += 2 + length
        }
        throw .truncated
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
