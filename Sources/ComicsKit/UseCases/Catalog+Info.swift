import struct FoundationEssentials.Date

/// Everything `comics info` reports: the database, what it holds per
/// source, its health, the last cleanup, the picture cache and the texts.
public struct CatalogInfo: Sendable {
    public let cache: CacheStatistics
    /// Empty when the quick check found nothing wrong.
    public let integrityProblems: [String]
    public let lastCleanup: Date?
    public let images: ImageCacheUsage
    public let imagesLocation: String?
    public let texts: TextUsage
    /// Per source: the last refresh that reached upstream, and the last that failed.
    public let refreshes: [SourceName: RefreshRecord]
}

extension Catalog {
    public func info() throws -> CatalogInfo {
        let lastCleanup = try store.setting(SettingKey.lastCleanup)
            .flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        return CatalogInfo(
            cache: try store.statistics(), integrityProblems: try store.integrityProblems(),
            lastCleanup: lastCleanup, images: images?.cache.usage() ?? ImageCacheUsage(),
            imagesLocation: images?.cache.location, texts: try textUsage(),
            refreshes: Dictionary(uniqueKeysWithValues: try SourceName.allCases.map { ($0, try refreshRecord(of: $0)) }))
    }
}

extension Catalog {
    /// What the texts cost, and how many are HTML editions.
    func textUsage() throws -> TextUsage {
        var usage = try store.textUsage()
        usage.htmlEditions = try store.textInfos().count { $0.edition == .html }
        return usage
    }
}
