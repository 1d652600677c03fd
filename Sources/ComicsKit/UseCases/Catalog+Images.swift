/// What the catalog needs for pictures: where they are kept, and the HTTP
/// client (with its byte cap and timeouts) that fetches them.
public struct ItemImages {
    public let cache: ImageCache
    public let http: HTTPClient

    public init(cache: ImageCache, http: HTTPClient) {
        self.cache = cache
        self.http = http
    }
}

/// An item's picture, or why there is none to draw.
public enum ImageOutcome: Equatable, Sendable {
    case image(ImageFile)
    /// One line saying why nothing can be drawn.
    case unavailable(String)
}

/// Image bytes whose header has been checked, and where they came from.
public struct ImageFile: Equatable, Sendable {
    public let url: String
    public let bytes: [UInt8]
    public let header: ImageHeader
}

extension Catalog {
    /// The item's picture, from the image cache or fetched into it. Never
    /// throws: a missing picture is a notice, and the item's text stands.
    public func image(of cached: CachedItem) -> ImageOutcome {
        let ref = cached.ref
        guard let images, let source = try? source(ref.source), let key = source.imageAttribute,
              let url = cached.item[key]?.stringValue
        else { return .unavailable("\(ref) has no picture") }
        guard source.pictureOrigins.allows(url) else {
            let place = URLOrigin(url).map { "\($0.host):\($0.port)" } ?? "an address comics cannot read"
            return .unavailable("the picture of \(ref) is on \(place), not where \(ref.source.rawValue) keeps pictures; not fetched")
        }
        if let bytes = images.cache.image(for: url), let header = try? ImageHeader.inspect(bytes) {
            return .image(ImageFile(url: url, bytes: bytes, header: header))
        }
        guard mode != .offline else {
            return .unavailable("no picture of \(ref) is cached, and --offline forbids the network")
        }
        let upstream = Upstream(host: URLOrigin(url)?.host ?? url)
        let response: HTTPResponse
        switch images.http.get(HTTPRequest(url: url)) {
        case let .failure(error):
            return .unavailable("cannot fetch the picture of \(ref): \(upstream.failure(error).message)")
        case let .success(answer):
            response = answer
        }
        guard response.status == 200 else {
            return .unavailable("cannot fetch the picture of \(ref): \(upstream.unexpectedStatus(response.status).message)")
        }
        let header: ImageHeader
        do {
            header = try ImageHeader.inspect(response.body)
        } catch {
            return .unavailable("cannot draw the picture of \(ref): \(error)")
        }
        // Failing to keep it costs only a second download next time.
        try? images.cache.save(response.body, for: url)
        return .image(ImageFile(url: url, bytes: response.body, header: header))
    }

    /// Forgets a cached picture that turned out not to decode, so the next
    /// attempt fetches it again rather than failing the same way.
    public func discardImage(_ image: ImageFile) {
        images?.cache.remove(image.url)
    }

    /// Removes cached pictures no cached item refers to any more.
    func removeOrphanedImages() throws -> ImageCacheUsage {
        guard let images else { return ImageCacheUsage() }
        let keys = SourceName.allCases.compactMap { try? source($0).imageAttribute }
        return try images.cache.retainOnly(try store.attributeStrings(forKeys: keys))
    }
}
