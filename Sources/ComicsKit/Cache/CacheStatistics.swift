import struct FoundationEssentials.Date

/// What the cache holds, for `comics info`.
public struct CacheStatistics: Equatable, Sendable {
    /// One source's share of the cache.
    public struct Source: Equatable, Sendable {
        public var items = 0
        public var favorites = 0
        /// Favourites whose item is not cached yet (imported while offline).
        public var pendingFavorites = 0
        public var oldestCachedAt: Date?
        public var newestCachedAt: Date?

        public init() {}
    }

    public var location: String
    /// The database and its write-ahead log, as they take space on disk.
    public var bytesOnDisk: Int
    public var schemaVersion: Int
    public var sources: [SourceName: Source]

    public init(location: String, bytesOnDisk: Int, schemaVersion: Int, sources: [SourceName: Source]) {
        self.location = location
        self.bytesOnDisk = bytesOnDisk
        self.schemaVersion = schemaVersion
        self.sources = sources
    }
}

/// The space a compaction gave back.
public struct Compaction: Equatable, Sendable {
    public var bytesBefore: Int
    public var bytesAfter: Int

    public init(bytesBefore: Int, bytesAfter: Int) {
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
    }
}
