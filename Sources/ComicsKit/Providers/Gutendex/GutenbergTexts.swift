/// Where books' texts come from: gutenberg.org, the URL the record names
/// (`/ebooks/N.txt.utf-8`, which redirects to `/cache/epub/N/pgN.txt`, or
/// older `/files/N/N-8.txt`), or a mirror with the same layout
/// (`COMICS_GUTENBERG_URL`) that takes the place of gutenberg.org's scheme
/// and host. No other host is asked, whatever a record says.
public struct GutenbergTexts {
    /// A text larger than this is refused: War and Peace is 3.4 MB.
    public static let maximumBytes = 64 * 1024 * 1024

    public let http: HTTPClient
    /// `scheme://host[:port]` that replaces gutenberg.org's.
    public let mirror: URLOrigin?

    public init(http: HTTPClient, mirror: URLOrigin? = nil) {
        self.http = http
        self.mirror = mirror
    }

    /// The HTTP settings a text needs: one file at a time, up to the cap,
    /// with time for a large file on a slow line (a stalled one still
    /// fails by the low-speed limit).
    public static var httpSettings: HTTPSettings {
        var settings = HTTPSettings()
        settings.maxBodyBytes = maximumBytes
        settings.maxBatchBytes = maximumBytes
        settings.maxTotalBytes = 4 * maximumBytes
        settings.transferTimeout = 600
        settings.batchTimeout = 900
        settings.maxConcurrentRequests = 1
        return settings
    }

    private static let gutenbergHosts: Set<String> = ["gutenberg.org", "www.gutenberg.org"]

    /// The plain-text formats of a record, best first: UTF-8, then any
    /// other plain text; never a zip.
    public static func plainTextURLs(in formats: [(type: String, url: String)]) -> [String] {
        let plain = formats.filter { $0.type.lowercased().hasPrefix("text/plain") && !$0.url.lowercased().hasSuffix(".zip") }
        func rank(_ format: (type: String, url: String)) -> Int {
            let url = format.url.lowercased()
            if url.hasSuffix(".txt.utf-8") || format.type.lowercased().includes("utf-8") { return 0 }
            return url.hasSuffix("-0.txt") ? 1 : 2
        }
        return plain.sorted { rank($0) < rank($1) }.map(\.url)
    }

    /// The HTML editions of a record, best first: today's generated
    /// edition (`N.html.images`, `pgN-images.html`), then any other; never
    /// a zip.
    public static func htmlURLs(in formats: [(type: String, url: String)]) -> [String] {
        let html = formats.filter { $0.type.lowercased().hasPrefix("text/html") && !$0.url.lowercased().hasSuffix(".zip") }
        func rank(_ format: (type: String, url: String)) -> Int {
            let url = format.url.lowercased()
            return url.hasSuffix(".html.images") || url.hasSuffix("-images.html") ? 0 : 1
        }
        return html.sorted { rank($0) < rank($1) }.map(\.url)
    }

    /// The URL to ask, the mirror's when one is set; nil for a URL that is
    /// not on gutenberg.org.
    public func fetchURL(for url: String) -> String? {
        guard var address = WebAddress(url), let origin = URLOrigin(url),
              Self.gutenbergHosts.contains(origin.host), !address.hasCredentials,
              origin.port == (origin.scheme == "https" ? 443 : 80)
        else { return nil }
        if let mirror {
            address.scheme = mirror.scheme
            address.host = mirror.host
            address.port = mirror.port == (mirror.scheme == "https" ? 443 : 80) ? nil : mirror.port
        }
        return address.text
    }

    /// The file's bytes, and the address that answered with them (where
    /// an HTML edition's pictures are, beside it).
    public func download(_ url: String) -> Result<(bytes: [UInt8], answeredFrom: String), ComicsError> {
        guard let asked = fetchURL(for: url) else {
            if let address = WebAddress(url), address.hasCredentials {
                return .failure(.network("the text's address carries a user name or password, which no gutenberg.org address does; not fetched"))
            }
            let place = URLOrigin(url).map { "\($0.host):\($0.port)" } ?? "an address comics cannot read"
            return .failure(.network("the text is on \(place), not on gutenberg.org; not fetched"))
        }
        let upstream = Upstream(host: URLOrigin(asked)?.host ?? "gutenberg.org")
        switch http.get(HTTPRequest(url: asked, headers: ["Accept-Encoding": "identity"])) {
        case let .failure(error):
            if error.reason == .tooLarge {
                return .failure(.network("the text at \(url) is larger than \(Self.maximumBytes / 1024 / 1024) MiB; not kept"))
            }
            return .failure(upstream.failure(error))
        case let .success(response):
            if response.status == 404 || response.status == 410 {
                return .failure(.notFound("gutenberg.org has no file at \(url)"))
            }
            guard response.status == 200 else { return .failure(upstream.unexpectedStatus(response.status)) }
            return .success((response.body, response.url.isEmpty ? asked : response.url))
        }
    }
}
