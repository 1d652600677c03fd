import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// How usable a cached thing is right now.
public enum Freshness: Equatable, Sendable {
    case fresh
    case stale(age: TimeInterval)
    case missing
}

/// The cache rules of the spec in one place: how long a list page and an
/// item stay fresh, and how old a copy is.
public struct CachePolicy: Equatable, Sendable {
    /// The newest page of a source (xkcd's latest number, a query's first page).
    public var listTTL: TimeInterval
    /// One comic or book, and every page after the first.
    public var detailTTL: TimeInterval

    public init(listTTL: TimeInterval = 3600, detailTTL: TimeInterval = 86400) {
        self.listTTL = listTTL
        self.detailTTL = detailTTL
    }

    public static let standard = CachePolicy()

    /// A copy stamped in the future (the clock moved back) counts as fresh
    /// rather than never expiring: its age is measured as zero.
    public func freshness(cachedAt: Date?, ttl: TimeInterval, now: Date) -> Freshness {
        guard let cachedAt else { return .missing }
        let age = max(0, now.timeIntervalSince(cachedAt))
        return age < ttl ? .fresh : .stale(age: age)
    }
}

/// Where "now" comes from, so that every rule that depends on time can be
/// tested with a clock that the test controls.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public static let system = WallClock { Date() }

    public static func fixed(_ date: Date) -> WallClock { WallClock { date } }

    public var now: Date { read() }
}
