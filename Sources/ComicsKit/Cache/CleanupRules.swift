import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// The limits cleanup applies, per source: items not refreshed within
/// `maxAge` go, then the least recently used beyond `maxItems`. Favourites
/// are never candidates.
public struct CleanupRules: Equatable, Sendable {
    /// One source's limits.
    public struct Limits: Equatable, Sendable {
        public var maxAge: TimeInterval
        public var maxItems: Int

        public init(maxAge: TimeInterval = 30 * 86400, maxItems: Int = 500) {
            self.maxAge = maxAge
            self.maxItems = maxItems
        }
    }

    private var limitsBySource: [SourceName: Limits]

    /// The same limits for every source.
    public init(maxAge: TimeInterval = 30 * 86400, maxItems: Int = 500) {
        let limits = Limits(maxAge: maxAge, maxItems: maxItems)
        limitsBySource = Dictionary(uniqueKeysWithValues: SourceName.allCases.map { ($0, limits) })
    }

    public static let standard = CleanupRules()

    /// How often cleanup runs by itself.
    public static let automaticInterval: TimeInterval = 86400

    public subscript(source: SourceName) -> Limits {
        get { limitsBySource[source] ?? Limits() }
        set { limitsBySource[source] = newValue }
    }

    /// Whether every source has the same limits, so one phrase can say them.
    public var uniformLimits: Limits? {
        let all = SourceName.allCases.map { self[$0] }
        return all.allSatisfy { $0 == all[0] } ? all[0] : nil
    }

    /// One non-favourite the cache holds, as cleanup sees it.
    public struct Candidate: Equatable, Sendable {
        public var ref: ItemRef
        public var cachedAt: Date
        /// When it was last shown, listed or found; nil: not since cached.
        public var usedAt: Date?
        /// Held by a query `sync` mirrored: max-age applies, max-items does not.
        public var isMirrored: Bool

        public init(ref: ItemRef, cachedAt: Date, usedAt: Date? = nil, isMirrored: Bool = false) {
            self.ref = ref
            self.cachedAt = cachedAt
            self.usedAt = usedAt
            self.isMirrored = isMirrored
        }
    }

    /// Picks what to remove from the non-favourites: what was not
    /// refreshed within max-age (oldest refresh first), then, beyond
    /// max-items, the least recently used of the rest (an item never used
    /// counts from when it was cached, so one just fetched is not the first
    /// to go; then the lowest number: the oldest published), mirrored items
    /// neither counted nor removed for that. The result names each item once.
    public func selectForRemoval(from candidates: [Candidate], now: Date) -> [Candidate] {
        var removed: [Candidate] = []
        let bySource = Dictionary(grouping: candidates, by: \.ref.source)
        for source in bySource.keys.sorted() {
            let limits = self[source]
            let (tooOld, kept) = bySource[source, default: []].reduce(into: ([Candidate](), [Candidate]())) { parts, candidate in
                if now.timeIntervalSince(candidate.cachedAt) > limits.maxAge { parts.0.append(candidate) } else { parts.1.append(candidate) }
            }
            let counted = kept.filter { !$0.isMirrored }.sorted {
                ($0.usedAt ?? $0.cachedAt, $0.ref.id) < ($1.usedAt ?? $1.cachedAt, $1.ref.id)
            }
            removed += tooOld.sorted { ($0.cachedAt, $0.ref.id) < ($1.cachedAt, $1.ref.id) }
                + counted.prefix(max(0, counted.count - limits.maxItems))
        }
        return removed
    }
}

extension CleanupRules {
    /// Parses durations such as `30d`, `12h`, `90m`, `45s` or `2w`.
    public static func parseDuration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        guard let unit = text.last, let scale = units[unit],
              let amount = Int(text.dropLast()), amount >= 0, amount <= 100_000_000 / Int(scale) + 1
        else { return nil }
        return TimeInterval(amount) * scale
    }

    /// Writes a duration the way `parseDuration` reads it, in the largest whole unit.
    public static func formatDuration(_ interval: TimeInterval) -> String {
        let seconds = Int(interval)
        for (unit, size) in [("w", 604_800), ("d", 86400), ("h", 3600), ("m", 60)] where seconds >= size && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
