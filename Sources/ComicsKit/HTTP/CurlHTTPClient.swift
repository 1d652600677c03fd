import CCurl
import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval
import Glibc

/// The HTTP client comics uses: libcurl's multi interface drives a batch of
/// GETs at once over reused (HTTP/2 where offered) connections, with
/// timeouts, a body size cap, same-origin redirects only, and retries with
/// backoff for transient failures. Not thread-safe: one per thread.
public final class CurlHTTPClient: HTTPClient {
    private let settings: HTTPSettings
    /// Created with the first request: libcurl is loaded only when needed.
    private var multi: UnsafeMutableRawPointer?
    private weak var observer: HTTPObserver?
    private let meter: DownloadMeter

    public init(settings: HTTPSettings = HTTPSettings(), observer: HTTPObserver? = nil) {
        self.settings = settings
        self.observer = observer
        meter = DownloadMeter(batchLimit: settings.maxBatchBytes, totalLimit: settings.maxTotalBytes)
    }

    deinit {
        if let multi { comics_curl_multi_cleanup(multi) }
    }

    /// Loads libcurl and makes the multi handle, once.
    private func multiHandle() -> UnsafeMutableRawPointer? {
        if let multi { return multi }
        guard comics_curl_load() == 0, let created = comics_curl_multi_init() else { return nil }
        _ = comics_curl_multi_setopt_long(created, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = comics_curl_multi_setopt_long(created, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maxConcurrentRequests)
        multi = created
        return created
    }

    public func get(
        _ requests: [HTTPRequest], whenEachEnds: (Int, Result<HTTPResponse, HTTPError>) -> Void
    ) -> [Result<HTTPResponse, HTTPError>] {
        guard let multi = multiHandle() else {
            let reason = "cannot use libcurl (\(String(cString: comics_curl_load_error()))); install the libcurl4 package"
            return requests.map { .failure(HTTPError(.other, url: $0.url, detail: reason)) }
        }
        var results = [Result<HTTPResponse, HTTPError>?](repeating: nil, count: requests.count)
        // Answers are handed on once the transfers that take their places
        // are under way, so the caller's work on them never holds a slot idle.
        var unannounced: [Int] = []
        func end(_ index: Int, _ result: Result<HTTPResponse, HTTPError>) {
            results[index] = result
            unannounced.append(index)
        }
        func announce() {
            for index in unannounced { results[index].map { whenEachEnds(index, $0) } }
            unannounced.removeAll()
        }
        var waiting = requests.enumerated().map { index, request in
            PendingRequest(index: index, request: request, origin: URLOrigin(request.url), attempt: 1, notBefore: .distantPast)
        }
        var active: [UnsafeMutableRawPointer: Attempt] = [:]
        meter.startBatch()

        let started = Date()
        let deadline = started.addingTimeInterval(settings.batchTimeout)
        var saidWaiting = false
        while !waiting.isEmpty || !active.isEmpty {
            let now = Date()
            if !saidWaiting, now.timeIntervalSince(started) >= settings.slowAfter,
               let host = (active.values.first?.pending.origin ?? waiting.first?.origin)?.host {
                saidWaiting = true
                observer?.stillWaiting(for: host)
            }
            let cancelled = observer?.isCancelled == true
            if now >= deadline || cancelled {
                let (reason, detail): (HTTPError.Reason, String) = cancelled ? (.other, "cancelled") : (.timedOut, "timed out")
                for (handle, attempt) in active {
                    comics_curl_multi_remove_handle(multi, handle)
                    end(attempt.pending.index, .failure(HTTPError(reason, url: attempt.pending.request.url, detail: detail)))
                }
                for pending in waiting {
                    end(pending.index, .failure(HTTPError(reason, url: pending.request.url, detail: detail)))
                }
                break
            }
            waiting.sort { $0.notBefore < $1.notBefore }
            while active.count < settings.maxConcurrentRequests, let next = waiting.first, next.notBefore <= now {
                waiting.removeFirst()
                switch start(next, on: multi) {
                case let .success(attempt): active[attempt.handle] = attempt
                case let .failure(error): end(next.index, .failure(error))
                }
            }
            if active.isEmpty {
                if let next = waiting.first {
                    usleep(UInt32(max(0, min(next.notBefore, deadline).timeIntervalSinceNow) * 1_000_000))
                }
                continue
            }
            var running: Int32 = 0
            comics_curl_multi_perform(multi, &running)
            announce()
            var queued: Int32 = 0
            while let message = comics_curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let attempt = active.removeValue(forKey: handle)
                else { continue }
                comics_curl_multi_remove_handle(multi, handle)
                let ended = outcome(of: attempt, code: message.pointee.data.result)
                if let observer {
                    let said = switch ended {
                    case let .done(.success(response)): String(response.status)
                    case let .done(.failure(error)): error.detail
                    case .retry: "to be tried again"
                    }
                    observer.requestEnded(url: attempt.pending.request.url, outcome: said, seconds: Date().timeIntervalSince(attempt.startedAt))
                }
                switch ended {
                case let .done(result): end(attempt.pending.index, result)
                case let .retry(pending): waiting.append(pending)
                }
            }
            if !active.isEmpty {
                // With every slot taken, only a finished transfer (which
                // ends the poll) lets another start: no reason to wake sooner.
                let slotFree = active.count < settings.maxConcurrentRequests
                let untilNextStart = waiting.first.flatMap { slotFree ? max(0, $0.notBefore.timeIntervalSinceNow) : nil } ?? 1
                let untilDeadline = max(0, deadline.timeIntervalSinceNow)
                comics_curl_multi_poll(multi, Int32(min(1000, untilNextStart * 1000, untilDeadline * 1000)))
            }
        }
        announce()
        return results.map { $0 ?? .failure(HTTPError(.other, url: "", detail: "request was never sent")) }
    }

    // MARK: - One attempt

    fileprivate struct PendingRequest {
        var index: Int
        var request: HTTPRequest
        /// The origin of the URL first asked for; redirects must stay on it.
        var origin: URLOrigin?
        var attempt: Int
        var redirects = 0
        var notBefore: Date
    }

    private enum Outcome {
        case done(Result<HTTPResponse, HTTPError>)
        case retry(PendingRequest)
    }

    private func start(_ pending: PendingRequest, on multi: UnsafeMutableRawPointer) -> Result<Attempt, HTTPError> {
        guard let origin = pending.origin, URLOrigin(pending.request.url) == origin else {
            return .failure(HTTPError(.refusedRedirect, url: pending.request.url, detail: "only http and https URLs on the configured host are fetched"))
        }
        if let limit = meter.exhausted {
            return .failure(HTTPError(limit.reason, url: pending.request.url, detail: limit.detail))
        }
        let url = pending.request.url
        let progress: ((Int, Int?) -> Void)? = observer.map { observer in { observer.bodyArrived(url: url, bytes: $0, of: $1) } }
        guard let attempt = Attempt(pending: pending, settings: settings, meter: meter, progress: progress) else {
            return .failure(HTTPError(.other, url: pending.request.url, detail: "libcurl could not create a request"))
        }
        comics_curl_multi_add_handle(multi, attempt.handle)
        return .success(attempt)
    }

    private func outcome(of attempt: Attempt, code: CURLcode) -> Outcome {
        var pending = attempt.pending
        let url = pending.request.url
        guard code == CURLE_OK else {
            let error = attempt.error(for: code)
            if error.isTransient, pending.attempt < settings.maxAttempts {
                return .retry(retried(pending, after: backoff(for: pending.attempt)))
            }
            return .done(.failure(error))
        }
        let response = HTTPResponse(status: attempt.status, headers: attempt.headers, body: attempt.body, url: url)
        switch response.status {
        case 301, 302, 303, 307, 308:
            guard let location = attempt.redirectURL else { return .done(.success(response)) }
            guard pending.redirects < settings.maxRedirects else {
                return .done(.failure(HTTPError(.refusedRedirect, url: url, detail: "too many redirects")))
            }
            guard URLOrigin(location) == pending.origin else {
                return .done(.failure(HTTPError(.refusedRedirect, url: url, detail: "refused a redirect to \(location)")))
            }
            pending.redirects += 1
            pending.request.url = location
            pending.notBefore = .distantPast
            return .retry(pending)
        case 429, 503:
            let wait = RetryAfter.parse(response.headers["retry-after"], now: Date()) ?? backoff(for: pending.attempt)
            guard pending.attempt < settings.maxAttempts, wait <= settings.maxRetryAfter else {
                return .done(.success(response))
            }
            return .retry(retried(pending, after: wait))
        case 500, 502, 504:
            guard pending.attempt < settings.maxAttempts else { return .done(.success(response)) }
            return .retry(retried(pending, after: backoff(for: pending.attempt)))
        default:
            return .done(.success(response))
        }
    }

    private func retried(_ pending: PendingRequest, after delay: TimeInterval) -> PendingRequest {
        var next = pending
        next.attempt += 1
        next.notBefore = Date().addingTimeInterval(delay)
        return next
    }

    /// Exponential backoff with up to 50% jitter, so that many clients
    /// failing together do not come back together.
    private func backoff(for attempt: Int) -> TimeInterval {
        let base = settings.baseBackoff * pow(2, Double(attempt - 1))
        return base + Double.random(in: 0...(base / 2))
    }

    /// One easy handle and what it has received so far. Owned by `get` for
    /// as long as libcurl may call back into it.
    fileprivate final class Attempt {
        let pending: PendingRequest
        let handle: UnsafeMutableRawPointer
        let startedAt = Date()
        private let maxBodyBytes: Int
        private let meter: DownloadMeter
        private var headerList: UnsafeMutablePointer<curl_slist>?
        private(set) var body: [UInt8] = []
        private(set) var headers: [String: String] = [:]
        private(set) var bodyTooLarge = false
        private(set) var passedLimit: DownloadMeter.Limit?

        /// Told the bytes so far (and the length announced) as a body arrives.
        private let progress: ((Int, Int?) -> Void)?
        private var progressReportedAt = 0

        init?(pending: PendingRequest, settings: HTTPSettings, meter: DownloadMeter, progress: ((Int, Int?) -> Void)? = nil) {
            guard let handle = comics_curl_easy_init() else { return nil }
            self.pending = pending
            self.handle = handle
            self.progress = progress
            self.meter = meter
            maxBodyBytes = settings.maxBodyBytes
            configure(settings)
        }

        deinit {
            comics_curl_easy_cleanup(handle)
            comics_curl_slist_free_all(headerList)
        }

        private func configure(_ settings: HTTPSettings) {
            _ = comics_curl_setopt_string(handle, CURLOPT_URL, pending.request.url)
            _ = comics_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
            _ = comics_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = comics_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            _ = comics_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            _ = comics_curl_setopt_long(handle, CURLOPT_MAXREDIRS, settings.maxRedirects)
            _ = comics_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
            _ = comics_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
            _ = comics_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
            _ = comics_curl_setopt_long(handle, CURLOPT_PIPEWAIT, 1)
            _ = comics_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = comics_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
            _ = comics_curl_setopt_string(handle, CURLOPT_USERAGENT, settings.userAgent)
            _ = comics_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout * 1000))
            _ = comics_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.transferTimeout * 1000))
            _ = comics_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, settings.lowSpeedBytes)
            _ = comics_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, Int(settings.lowSpeedTime))
            for (name, value) in pending.request.headers.sorted(by: { $0.key < $1.key }) {
                headerList = comics_curl_slist_append(headerList, "\(name): \(value)")
            }
            if let headerList {
                _ = comics_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList))
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            _ = comics_curl_setopt_write_function(handle, receiveBody)
            _ = comics_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            _ = comics_curl_setopt_header_function(handle, receiveHeader)
            _ = comics_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        }

        /// Appends a chunk unless it would pass the body cap or the meter's
        /// limits; returning less than was given makes libcurl abort the transfer.
        fileprivate func appendBody(_ chunk: UnsafeRawBufferPointer) -> Int {
            guard body.count + chunk.count <= maxBodyBytes else {
                bodyTooLarge = true
                return 0
            }
            if let limit = meter.charge(chunk.count) {
                passedLimit = limit
                return 0
            }
            body.append(contentsOf: chunk)
            if let progress, body.count - progressReportedAt >= 256 * 1024 {
                progressReportedAt = body.count
                progress(body.count, headers["content-length"].flatMap(Int.init))
            }
            return chunk.count
        }

        fileprivate func appendHeaderLine(_ line: String) {
            if line.hasPrefix("HTTP/") {
                headers = [:]
                return
            }
            guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return }
            let name = line[..<colon].trimmingWhitespace().lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            headers[name] = value
        }

        var status: Int {
            var code = 0
            _ = comics_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
            return code
        }

        var redirectURL: String? {
            var location: UnsafeMutablePointer<CChar>?
            guard comics_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location) == CURLE_OK,
                  let location
            else { return nil }
            return String(cString: location)
        }

        func error(for code: CURLcode) -> HTTPError {
            let url = pending.request.url
            let detail = String(cString: comics_curl_easy_strerror(code)).lowercased()
            if bodyTooLarge {
                return HTTPError(.tooLarge, url: url, detail: "a response larger than \(maxBodyBytes / 1_048_576) MiB")
            }
            if let passedLimit {
                return HTTPError(passedLimit.reason, url: url, detail: passedLimit.detail)
            }
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                return HTTPError(.cannotConnect, url: url, detail: detail)
            case CURLE_OPERATION_TIMEDOUT:
                return HTTPError(.timedOut, url: url, detail: "timed out")
            case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
                 CURLE_HTTP2, CURLE_HTTP2_STREAM:
                return HTTPError(.interrupted, url: url, detail: detail)
            case CURLE_UNSUPPORTED_PROTOCOL:
                return HTTPError(.refusedRedirect, url: url, detail: detail)
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
                 CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR:
                return HTTPError(.insecure, url: url, detail: detail)
            default:
                return HTTPError(.other, url: url, detail: detail)
            }
        }
    }
}

/// Counts what a client downloads, in one batch and in all, against its
/// limits: once one is passed, what is still arriving is abandoned.
fileprivate final class DownloadMeter {
    enum Limit {
        case batch(Int), total(Int)

        var detail: String {
            switch self {
            case let .batch(bytes): "the answers to one batch of requests passed \(Self.size(bytes)) together"
            case let .total(bytes): "this command has downloaded \(Self.size(bytes)), its limit"
            }
        }

        var reason: HTTPError.Reason {
            switch self {
            case .batch: .tooLarge
            case .total: .budgetSpent
            }
        }

        private static func size(_ bytes: Int) -> String {
            bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
        }
    }

    private let batchLimit: Int
    private let totalLimit: Int
    private var batch = 0
    private var total = 0

    init(batchLimit: Int, totalLimit: Int) {
        self.batchLimit = batchLimit
        self.totalLimit = totalLimit
    }

    func startBatch() { batch = 0 }

    /// The total limit once it has been reached: no request starts after it.
    var exhausted: Limit? { total >= totalLimit ? .total(totalLimit) : nil }

    /// Counts `bytes` unless they would pass a limit; then says which.
    func charge(_ bytes: Int) -> Limit? {
        if total + bytes > totalLimit {
            total = totalLimit
            return .total(totalLimit)
        }
        if batch + bytes > batchLimit { return .batch(batchLimit) }
        batch += bytes
        total += bytes
        return nil
    }
}

extension HTTPError {
    /// Failures worth another try: the network may come back, a body cap or
    /// a refused redirect will not change.
    var isTransient: Bool {
        switch reason {
        case .cannotConnect, .timedOut, .interrupted: true
        case .tooLarge, .budgetSpent, .refusedRedirect, .insecure, .other: false
        }
    }
}

private let receiveBody: comics_curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let attempt = Unmanaged<CurlHTTPClient.Attempt>.fromOpaque(context).takeUnretainedValue()
    return attempt.appendBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let receiveHeader: comics_curl_write_callback = { data, size, count, context in
    guard let context, let data else { return 0 }
    let attempt = Unmanaged<CurlHTTPClient.Attempt>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    attempt.appendHeaderLine(String(decoding: bytes, as: UTF8.self))
    return size * count
}
