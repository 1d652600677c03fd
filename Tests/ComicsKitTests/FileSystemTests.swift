@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

final class FileSystemTests: XCTestCase {
    func testFoldersAreMadeAllTheWayDownPrivate() throws {
        let directory = try TemporaryDirectory()
        let deep = directory.file("a/b/c")
        XCTAssertTrue(FileSystem.createDirectories(deep, mode: 0o700))
        for folder in ["a", "a/b", "a/b/c"] {
            var status = stat()
            XCTAssertEqual(stat(directory.file(folder), &status), 0, folder)
            XCTAssertEqual(status.st_mode & 0o7777, 0o700, folder)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR, folder)
        }
        XCTAssertTrue(FileSystem.createDirectories(deep, mode: 0o700), "already there")
        XCTAssertTrue(FileManager.default.createFile(atPath: directory.file("file"), contents: Data()))
        XCTAssertFalse(FileSystem.createDirectories(directory.file("file"), mode: 0o700), "a file is no folder")
        XCTAssertFalse(FileSystem.createDirectories(directory.file("file/below"), mode: 0o700), "nor can hold one")
    }

    func testNamesAndExistence() throws {
        let directory = try TemporaryDirectory()
        XCTAssertEqual(FileSystem.names(in: directory.path), [])
        XCTAssertNil(FileSystem.names(in: directory.file("missing")))
        for name in ["x", "y z", "é"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: directory.file(name), contents: Data()))
        }
        XCTAssertEqual(FileSystem.names(in: directory.path)?.sorted(), ["x", "y z", "é"])
        XCTAssertTrue(FileSystem.exists(directory.file("x")))
        XCTAssertEqual(symlink(directory.file("gone"), directory.file("dangling")), 0)
        XCTAssertFalse(FileSystem.exists(directory.file("dangling")), "a link to nothing")
    }
}
