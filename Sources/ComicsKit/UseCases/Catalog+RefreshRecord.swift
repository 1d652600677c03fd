import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// The last refresh of a source that reached upstream, and the last that
/// failed, with why: a background refresh fails where nobody sees it, so the
/// next command that shows stale data says so, and `info` shows both.
public struct RefreshRecord: Equatable, Sendable {
    public var lastSuccess: Date?
    public var lastFailure: Date?
    public var failureReason: String?

    public init(lastSuccess: Date? = nil, lastFailure: Date? = nil, failureReason: String? = nil) {
        self.lastSuccess = lastSuccess
        self.lastFailure = lastFailure
        self.failureReason = failureReason
    }

    /// A failure with no success since: the cache cannot be kept fresh now.
    public var isFailing: Bool {
        guard let lastFailure else { return false }
        return lastSuccess.map { lastFailure > $0 } ?? true
    }
}

extension Catalog {
    public func refreshRecord(of source: SourceName) throws -> RefreshRecord {
        func date(_ key: String) throws -> Date? {
            try store.setting(key).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
        return RefreshRecord(
            lastSuccess: try date(Self.refreshKey(source, "last_success")),
            lastFailure: try date(Self.refreshKey(source, "last_failure")),
            failureReason: try store.setting(Self.refreshKey(source, "failure_reason")))
    }

    /// Runs a request to upstream for `source`, and records how it went:
    /// a success, or a network failure and its reason (then rethrown), or
    /// a result that `fellShort` finds less than asked for, and why.
    @discardableResult
    func recordingRefresh<T>(of source: SourceName, fellShort: (T) -> String? = { _ in nil }, _ body: () throws -> T) throws -> T {
        let now = String(clock.now.timeIntervalSince1970)
        do {
            let result = try body()
            if let reason = fellShort(result) {
                try store.setSetting(Self.refreshKey(source, "last_failure"), to: now)
                try store.setSetting(Self.refreshKey(source, "failure_reason"), to: reason)
            } else {
                try store.setSetting(Self.refreshKey(source, "last_success"), to: now)
            }
            return result
        } catch let error as ComicsError where error.kind == .network {
            try store.setSetting(Self.refreshKey(source, "last_failure"), to: now)
            try store.setSetting(Self.refreshKey(source, "failure_reason"), to: error.message)
            throw error
        }
    }

    /// One line when data older than its TTL is shown while refreshing it
    /// keeps failing: how old the copy is, and when and why refreshing failed.
    func warnIfStuckStale(_ source: SourceName, cachedAt: Date, ttl: TimeInterval) throws {
        let age = clock.now.timeIntervalSince(cachedAt)
        guard age > ttl else { return }
        let record = try refreshRecord(of: source)
        guard record.isFailing, let failedAt = record.lastFailure else { return }
        let reason = record.failureReason.map { ": \($0)" } ?? ""
        warnings.append("showing the copy cached \(RelativeAge.describe(age)); refreshing failed "
            + "\(RelativeAge.describe(clock.now.timeIntervalSince(failedAt)))\(reason)")
    }

    private static func refreshKey(_ source: SourceName, _ name: String) -> String {
        "refresh.\(source.rawValue).\(name)"
    }
}
