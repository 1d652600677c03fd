@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

final class ImageHeaderTests: XCTestCase {
    func testRealImagesAreRecognised() throws {
        XCTAssertEqual(try ImageHeader.inspect(try Fixtures.image("comic.png")), ImageHeader(format: .png, width: 400, height: 300))
        XCTAssertEqual(try ImageHeader.inspect(try Fixtures.image("cover.jpg")), ImageHeader(format: .jpeg, width: 200, height: 300))
        XCTAssertEqual(try ImageHeader.inspect(try Fixtures.image("animated.gif")), ImageHeader(format: .gif, width: 120, height: 80))
    }

    func testWhatIsNotADrawableImageIsNamed() throws {
        let png = try Fixtures.image("comic.png")
        let jpeg = try Fixtures.image("cover.jpg")
        var zeroWidth = png
        zeroWidth.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        var bomb = png
        bomb.replaceSubrange(16..<24, with: [0, 0x01, 0x86, 0xA0, 0, 0x01, 0x86, 0xA0])
        let cases: [([UInt8], ImageProblem)] = [
            ([], .empty),
            (Array("<!doctype html><title>404</title>".utf8), .notAnImage),
            (Array("GIF89a".utf8), .truncated),
            (Array(png.prefix(20)), .truncated),
            (Array(jpeg.prefix(30)), .truncated),
            (Array(png.prefix(png.count / 2)), .truncated),
            (Array(jpeg.prefix(jpeg.count - 40)), .truncated),
            (Array(try Fixtures.image("animated.gif").dropLast()), .truncated),
            (zeroWidth, .zeroSize),
            (bomb, .tooLarge(width: 100_000, height: 100_000)),
        ]
        for (bytes, problem) in cases {
            XCTAssertThrowsError(try ImageHeader.inspect(bytes)) { error in
                XCTAssertEqual(error as? ImageProblem, problem, "\(bytes.prefix(12))")
            }
        }
    }
}

/// Every size an image file declares is held to the limits, not only the
/// first: generated GIFs, APNGs and JPEGs of several frames, each of any
/// size and offset, are accepted exactly when every frame's canvas fits.
final class DeclaredImageSizeTests: XCTestCase {
    private struct Frame {
        let left, top, width, height: Int
        var extent: (Int, Int) { (left + width, top + height) }
    }

    private var generator = SystemRandomNumberGenerator()

    private func randomFrames(_ count: Int) -> [Frame] {
        (0..<count).map { _ in
            let large = Bool.random(using: &generator)
            let side = { large ? Int.random(in: 1...40_000, using: &self.generator) : Int.random(in: 1...200, using: &self.generator) }
            return Frame(left: Int.random(in: 0...100), top: Int.random(in: 0...100), width: side(), height: side())
        }
    }

    private func little(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private func big(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) } }

    private func gif(screen: (Int, Int), frames: [Frame]) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + little(screen.0) + little(screen.1) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in frames {
            bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            bytes += [0x2C] + little(frame.left) + little(frame.top) + little(frame.width) + little(frame.height) + [0x80, 1, 2, 3, 4, 5, 6]
            bytes += [2, 2, 0x44, 0x01, 0]
        }
        return bytes + [0x3B]
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        big(data.count, 4) + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    private func apng(screen: (Int, Int), frames: [Frame]) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", big(screen.0, 4) + big(screen.1, 4) + [8, 2, 0, 0, 0])
        bytes += chunk("acTL", big(frames.count, 4) + big(0, 4))
        for (index, frame) in frames.enumerated() {
            bytes += chunk("fcTL", big(index, 4) + big(frame.width, 4) + big(frame.height, 4)
                + big(frame.left, 4) + big(frame.top, 4) + [0, 1, 0, 10, 0, 0])
            bytes += chunk(index == 0 ? "IDAT" : "fdAT", [0x78, 0x9C, 0xFF, 0x00])
        }
        return bytes + chunk("IEND", [])
    }

    private func jpeg(frames: [Frame]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + big(16, 2) + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        for frame in frames {
            bytes += [0xFF, 0xC0] + big(11, 2) + [8] + big(frame.height, 2) + big(frame.width, 2) + [1, 1, 0x11, 0]
            bytes += [0xFF, 0xDA] + big(8, 2) + [1, 1, 0, 0, 63, 0]
            // Entropy-coded data: any bytes, an 0xFF stuffed with a zero, restarts.
            for _ in 0..<Int.random(in: 0...64, using: &generator) {
                let byte = UInt8.random(in: 0...255, using: &generator)
                bytes += byte == 0xFF ? [0xFF, Bool.random(using: &generator) ? 0x00 : 0xD3] : [byte]
            }
        }
        return bytes + [0xFF, 0xD9]
    }

    /// What the header check must say: the first size past a limit, or the drawn size.
    private func expected(_ sizes: [(Int, Int)], format: ImageHeader.Format) -> Result<ImageHeader, ImageProblem> {
        for (width, height) in sizes where width > ImageHeader.maximumSide || height > ImageHeader.maximumSide
            || width * height > ImageHeader.maximumPixels {
            return .failure(.tooLarge(width: width, height: height))
        }
        return .success(ImageHeader(format: format, width: sizes[0].0, height: sizes[0].1))
    }

    private func check(_ bytes: [UInt8], _ expected: Result<ImageHeader, ImageProblem>, _ label: String) {
        let found = Result { () throws(ImageProblem) -> ImageHeader in try ImageHeader.inspect(bytes) }
        XCTAssertEqual(found, expected, label)
    }

    func testEveryFrameOfAGIFIsHeldToTheLimits() {
        check(gif(screen: (16, 16), frames: [Frame(left: 0, top: 0, width: 65535, height: 8190)]),
              .failure(.tooLarge(width: 65535, height: 8190)), "the frame of the report")
        for _ in 0..<300 {
            let screen = (Int.random(in: 1...300, using: &generator), Int.random(in: 1...300, using: &generator))
            let frames = randomFrames(Int.random(in: 1...4, using: &generator))
            check(gif(screen: screen, frames: frames), expected([screen] + frames.map(\.extent), format: .gif), "\(frames)")
        }
    }

    func testEveryFrameOfAnAPNGIsHeldToTheLimits() {
        for _ in 0..<300 {
            let screen = (Int.random(in: 1...300, using: &generator), Int.random(in: 1...300, using: &generator))
            let frames = randomFrames(Int.random(in: 1...4, using: &generator))
            check(apng(screen: screen, frames: frames), expected([screen] + frames.map(\.extent), format: .png), "\(frames)")
        }
    }

    func testEveryFrameOfAJPEGIsHeldToTheLimits() {
        for _ in 0..<300 {
            let frames = randomFrames(Int.random(in: 1...3, using: &generator)).map {
                Frame(left: 0, top: 0, width: min($0.width, 65535), height: min($0.height, 65535))
            }
            check(jpeg(frames: frames), expected(frames.map(\.extent), format: .jpeg), "\(frames)")
        }
    }

    func testACutOffFrameIsTruncated() {
        let whole = gif(screen: (16, 16), frames: [Frame(left: 0, top: 0, width: 16, height: 16)])
        for length in 13..<whole.count - 1 {
            var cut = Array(whole.prefix(length))
            cut.append(0x3B)
            XCTAssertThrowsError(try ImageHeader.inspect(cut), "\(length)")
        }
    }
}

final class SHA256Tests: XCTestCase {
    func testKnownDigests() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "two blocks")
        XCTAssertEqual(
            SHA256.hex(String(repeating: "a", count: 1000)),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}

final class FileImageCacheTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cache: FileImageCache!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        cache = FileImageCache(directory: directory.file("images"))
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    func testImagesAreKeptPrivatelyUnderTheirURLsHash() throws {
        let url = "https://imgs.xkcd.com/comics/../../etc/passwd.png"
        XCTAssertNil(cache.image(for: url))
        try cache.save([1, 2, 3], for: url)
        XCTAssertEqual(cache.image(for: url), [1, 2, 3])
        let file = directory.file("images/\(SHA256.hex(url))")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file))
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try mode(directory.file("images")), 0o700)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.file("images")), [SHA256.hex(url)])

        try cache.save([4], for: url)
        XCTAssertEqual(cache.image(for: url), [4], "replaced whole")
        cache.remove(url)
        XCTAssertNil(cache.image(for: url))
    }

    func testRetainingKeepsOnlyTheNamedImagesAndSweepsOldTemporaryFiles() throws {
        try cache.save([1], for: "a")
        try cache.save([2, 2], for: "b")
        try cache.save([3, 3, 3], for: "c")
        let images = directory.file("images")
        FileManager.default.createFile(atPath: images + "/README", contents: Data("not ours".utf8))
        FileManager.default.createFile(atPath: images + "/.tmp-1-1", contents: Data([9]))
        FileManager.default.createFile(atPath: images + "/.tmp-1-2", contents: Data([9]))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: images + "/.tmp-1-1")

        let removed = try cache.retainOnly(["b"])
        XCTAssertEqual(removed, ImageCacheUsage(files: 2, bytes: 4))
        XCTAssertNil(cache.image(for: "a"))
        XCTAssertEqual(cache.image(for: "b"), [2, 2])
        XCTAssertEqual(
            Set(try FileManager.default.contentsOfDirectory(atPath: images)),
            [SHA256.hex("b"), "README", ".tmp-1-2"], "a writer's fresh temporary file is left alone")
    }

    func testAMissingDirectoryIsAnEmptyCache() throws {
        XCTAssertEqual(try cache.retainOnly([]), ImageCacheUsage())
        XCTAssertNil(cache.image(for: "x"))
    }
}
