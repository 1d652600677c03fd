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
