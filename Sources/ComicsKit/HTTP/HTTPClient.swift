import typealias FoundationEssentials.TimeInterval

/// A GET to send. Only GET exists: comics never changes anything upstream.
public struct HTTPRequest: Equatable, Sendable {
    public var url: String
    public var headers: [String: String]

    public init(url: String, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }

    /// A request that asks the server to answer 304 if nothing changed.
    public static func conditional(url: String, validators: Validators) -> HTTPRequest {
        var headers: [String: String] = [:]
        if let etag = validators.etag { headers["If-None-Match"] = etag }
        if let lastModified = validators.lastModified { headers["If-Modified-Since"] = lastModified }
        return HTTPRequest(url: url, headers: headers)
    }
}

/// What came back: the final status, headers (names lower-cased) and body.
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// The address that answered, after any redirects: what a document's
    /// relative links (an HTML edition's pictures) are read against.
    public var url: String

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], url: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// A validator is sent back in a request header, so one holding a
    /// control character (a bare CR would start a second header) is dropped.
    public var validators: Validators {
        func clean(_ value: String?) -> String? {
            value.flatMap { $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? nil : $0 }
        }
        return Validators(etag: clean(headers["etag"]), lastModified: clean(headers["last-modified"]))
    }
}

/// Why a request produced no response worth reading.
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// Refused, unreachable, or the name did not resolve.
        case cannotConnect
        case timedOut
        /// The connection broke mid-transfer.
        case interrupted
        /// The body passed the size cap.
        case tooLarge
        /// The command has downloaded all it may: every later request fails too.
        case budgetSpent
        /// A redirect to another host or scheme, a loop, or a scheme other than http(s).
        case refusedRedirect
        case insecure
        case other
    }

    public let reason: Reason
    public let url: String
    public let detail: String

    public init(_ reason: Reason, url: String, detail: String) {
        self.reason = reason
        self.url = url
        self.detail = detail
    }

    public var description: String { "\(detail) (\(url))" }
}

/// The network as the sources see it: a batch of GETs, sent concurrently
/// where the implementation can, each answered in the order asked.
public protocol HTTPClient {
    /// `whenEachEnds` is told each answer (with its index) as soon as it is
    /// in, while the others are still on their way, so that work on it
    /// overlaps the wait for the rest.
    func get(
        _ requests: [HTTPRequest], whenEachEnds: (Int, Result<HTTPResponse, HTTPError>) -> Void
    ) -> [Result<HTTPResponse, HTTPError>]
}

extension HTTPClient {
    public func get(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, HTTPError>] {
        get(requests, whenEachEnds: { _, _ in })
    }

    public func get(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        get([request])[0]
    }
}

/// How politely and how patiently comics talks to upstream servers.
/// Told what the client does: each request as it ends (for `-v`), and once
/// a batch when an answer is slow in coming (a person may be waiting).
public protocol HTTPObserver: AnyObject {
    /// `outcome` is the status (`200`, `304`) or what went wrong.
    func requestEnded(url: String, outcome: String, seconds: Double)
    func stillWaiting(for host: String)
    /// A large body on its way: the bytes so far, of the length announced
    /// (every 256 KiB), for a progress bar.
    func bodyArrived(url: String, bytes: Int, of expected: Int?)
    /// True once the person no longer wants what is being fetched (the
    /// reader left while its text downloads): the transfers stop.
    var isCancelled: Bool { get }
}

extension HTTPObserver {
    public func bodyArrived(url: String, bytes: Int, of expected: Int?) {}
    public var isCancelled: Bool { false }
}

public struct HTTPSettings: Equatable, Sendable {
    public var userAgent = "comics/\(ComicsVersion.current)"
    public var connectTimeout: TimeInterval = 10
    /// A transfer slower than `lowSpeedBytes` per second for `lowSpeedTime` is abandoned.
    public var lowSpeedBytes = 16
    public var lowSpeedTime: TimeInterval = 15
    /// The most one attempt may take, start to finish.
    public var transferTimeout: TimeInterval = 30
    /// The most a whole batch may take, retries and waits included: what
    /// is unanswered by then fails as timed out.
    public var batchTimeout: TimeInterval = 45
    public var maxBodyBytes = 8 * 1024 * 1024
    /// The bodies of one batch together, all held until the batch ends:
    /// memory stays flat however many large answers a server sends.
    public var maxBatchBytes = 32 * 1024 * 1024
    /// Everything one client (one command) downloads, across batches,
    /// retries and pictures: a sync of a whole (real) archive needs a
    /// tenth of it.
    public var maxTotalBytes = 256 * 1024 * 1024
    /// As many as a default xkcd page needs (10), so a cold page is
    /// fetched in one round after the newest number.
    public var maxConcurrentRequests = 10
    public var maxRedirects = 5
    /// Attempts per request, counting the first, for transient failures only.
    public var maxAttempts = 3
    public var baseBackoff: TimeInterval = 0.25
    /// A `Retry-After` longer than this is not waited for: the request fails.
    public var maxRetryAfter: TimeInterval = 10
    /// How long a batch may go unanswered before the observer hears of it.
    public var slowAfter: TimeInterval = 3

    public init() {}
}

/// The scheme, host and port of a URL: what a redirect must not leave.
public struct URLOrigin: Equatable, Sendable {
    public let scheme: String
    public let host: String
    public let port: Int

    public init?(_ text: String) {
        guard let address = WebAddress(text),
              let scheme = address.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = address.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = address.port ?? (scheme == "https" ? 443 : 80)
    }
}
