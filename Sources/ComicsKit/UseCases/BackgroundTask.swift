/// Work that is done after the command has printed, in a detached process,
/// so stale data is refreshed and the cache kept tidy without anyone waiting.
public enum BackgroundTask: Hashable, Sendable {
    case refreshPage(PageKey)
    case refreshItem(ItemRef)
    case cleanup
    /// Favourites imported while offline, fetched once the network is back.
    case fetchFavorites

    /// One command-line argument that `init(argument:)` reads back.
    public var argument: String {
        switch self {
        case let .refreshPage(key):
            ["page", key.source.rawValue, key.query, key.position].joined(separator: "\t")
        case let .refreshItem(ref):
            ["item", ref.source.rawValue, String(ref.id)].joined(separator: "\t")
        case .cleanup:
            "cleanup"
        case .fetchFavorites:
            "favorites"
        }
    }

    /// For `--verbose`: "the first xkcd page (limit=10)", "xkcd:353", "cleanup".
    public var summary: String {
        switch self {
        case let .refreshPage(key):
            (key.isFirst ? "the first \(key.source.rawValue) page" : "the \(key.source.rawValue) page from \(key.position)")
                + (key.query.isEmpty ? "" : " (\(key.query))")
        case let .refreshItem(ref): ref.description
        case .cleanup: "cleanup"
        case .fetchFavorites: "favourites not cached yet"
        }
    }

    public init?(argument: String) {
        let fields = argument.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch fields.first {
        case "page" where fields.count == 4:
            guard let source = SourceName(rawValue: fields[1]) else { return nil }
            self = .refreshPage(PageKey(source: source, query: fields[2], position: fields[3]))
        case "item" where fields.count == 3:
            guard let source = SourceName(rawValue: fields[1]), let id = Int(fields[2]) else { return nil }
            self = .refreshItem(ItemRef(source: source, id: id))
        case "cleanup" where fields.count == 1:
            self = .cleanup
        case "favorites" where fields.count == 1:
            self = .fetchFavorites
        default:
            return nil
        }
    }
}

/// How the catalog reaches the network: normally cache-first, never
/// (`--offline`), or always and waiting for the answer (`--refresh`).
public enum NetworkMode: Sendable {
    case cacheFirst, offline, refresh
}
