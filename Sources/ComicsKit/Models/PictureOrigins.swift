/// Where a source's pictures may be fetched from. A picture's address
/// comes from upstream's document, and fetching whatever it names would be
/// a request to any host and port (an internal address, a local service)
/// made on the document's word: only the source's own picture hosts, at
/// their usual ports and paths, and the origin comics was configured with
/// (a mirror, or a test's server) are asked.
public struct PictureOrigins: Sendable {
    /// The configured base URL's origin: any path on it.
    let configured: URLOrigin?
    /// Hosts of the real source, over http or https at the default port.
    let hosts: Set<String>
    /// Where on those hosts pictures live (Gutenberg's covers: `/cache/epub/`).
    let pathPrefix: String

    public init(configuredBase: String, hosts: Set<String>, pathPrefix: String = "/") {
        configured = URLOrigin(configuredBase)
        self.hosts = hosts
        self.pathPrefix = pathPrefix
    }

    public func allows(_ url: String) -> Bool {
        guard let address = WebAddress(url), !address.hasCredentials, let origin = URLOrigin(url)
        else { return false }
        if origin == configured { return true }
        let defaultPort = origin.scheme == "https" ? 443 : 80
        return hosts.contains(origin.host) && origin.port == defaultPort && address.decodedPath.hasPrefix(pathPrefix)
    }
}
