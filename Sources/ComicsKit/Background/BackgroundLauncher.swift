import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval
import Glibc

/// Starts deferred work in a detached process after a command has printed,
/// at most one at a time per database. The lock is an exclusive `flock` on
/// a file beside the database, taken here and inherited by the child, so it
/// is held exactly as long as the child runs: a second launch while one is
/// running does nothing.
public struct BackgroundLauncher: Sendable {
    /// The hidden subcommand the child runs.
    public static let command = "__background"

    public let databasePath: String

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// The lock file; tests and scripts may `flock` it to wait for the work.
    public var lockPath: String { databasePath + ".background-lock" }

    /// Returns false when nothing was started: no work, or work already running.
    @discardableResult
    public func launch(_ tasks: [BackgroundTask], executable: String, environment: [String: String]) -> Bool {
        guard !tasks.isEmpty else { return false }
        // Not through a symbolic link, and a FIFO planted there cannot hang
        // it. The child is handed the descriptor, and so the lock; no other
        // child (a browser, a pager) gets it.
        let lock = open(lockPath, O_CREAT | O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return false }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return false }

        var childEnvironment = environment
        childEnvironment["COMICS_DB"] = databasePath
        return spawnDetached([executable, Self.command] + tasks.map(\.argument), environment: childEnvironment, handing: lock) != nil
    }

    /// Waits (up to `timeout`) for a running background job to finish.
    public func waitForIdle(timeout: TimeInterval) -> Bool {
        let lock = open(lockPath, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        // No lock file: no background work ever ran beside this database.
        guard lock >= 0 else { return errno == ENOENT }
        defer { close(lock) }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if flock(lock, LOCK_EX | LOCK_NB) == 0 {
                flock(lock, LOCK_UN)
                return true
            }
            usleep(10_000)
        }
        return false
    }
}
