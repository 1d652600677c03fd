import Foundation

/// A directory under /tmp for one test, removed with it.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        var template = Array("/tmp/comics-test-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw FixtureError("mkdtemp failed") }
        path = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }
}
