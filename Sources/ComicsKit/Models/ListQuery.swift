/// What a listing asks for. xkcd uses only `limit`; the canonical `key`
/// names the query in the cache so the same query finds the same pages.
public struct ListQuery: Equatable, Hashable, Sendable {
    public static let defaultLimit = 10
    public static let maximumLimit = 200

    public var limit: Int

    public init(limit: Int = ListQuery.defaultLimit) {
        self.limit = limit
    }

    /// `limit=10`: stable, so it can key stored pages and travel to a
    /// background refresh as one argument.
    public var key: String { "limit=\(limit)" }

    public init?(key: String) {
        var query = ListQuery()
        for pair in key.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "limit":
                guard let limit = Int(parts[1]), (1...Self.maximumLimit).contains(limit) else { return nil }
                query.limit = limit
            default:
                return nil
            }
        }
        self = query
    }
}
