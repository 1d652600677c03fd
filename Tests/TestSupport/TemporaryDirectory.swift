import Foundation
import XCTest

/// A directory under /tmp for one test, removed with it: when the object
/// goes, and in any case when the test that made it ends (XCTest keeps every
/// test case object, and what it holds, until the whole run ends, and a
/// process that exits runs no deinit).
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        var template = Array("/tmp/comics-test-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw FixtureError("mkdtemp failed") }
        path = String(cString: created)
        TemporaryDirectoryJanitor.shared.track(path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }
}

/// Removes the directories made during each test when it finishes.
final class TemporaryDirectoryJanitor: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: TemporaryDirectoryJanitor = {
        let janitor = TemporaryDirectoryJanitor()
        XCTestObservationCenter.shared.addTestObserver(janitor)
        return janitor
    }()

    private let lock = NSLock()
    private var paths: [String] = []

    func track(_ path: String) {
        lock.withLock { paths.append(path) }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        removeAll()
    }

    func testBundleDidFinish(_ testBundle: Bundle) {
        removeAll()
    }

    private func removeAll() {
        let made = lock.withLock {
            defer { paths.removeAll() }
            return paths
        }
        // Files a test made read-only (or its folders unwritable) must go too.
        for path in made where FileManager.default.fileExists(atPath: path) {
            guard (try? FileManager.default.removeItem(atPath: path)) == nil else { continue }
            _ = try? ChildProcess("/bin/chmod", ["-R", "u+rwx", path]).waitForExit()
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
