/// Turns what went wrong talking to one upstream into one line a user can
/// act on, always naming the host.
struct Upstream {
    let host: String

    func failure(_ error: HTTPError) -> ComicsError {
        switch error.reason {
        case .cannotConnect: .network("cannot reach \(host): \(error.detail)")
        case .timedOut: ComicsError(.network, "\(host) did not answer in time", endsTheRun: true)
        case .interrupted: .network("the connection to \(host) broke: \(error.detail)")
        case .tooLarge: .network("\(host) sent too much: \(error.detail)")
        case .budgetSpent: ComicsError(.network, "\(error.detail); nothing more is downloaded in this run", endsTheRun: true)
        case .refusedRedirect: .network("\(host): \(error.detail)")
        case .insecure: .network("refused an insecure connection to \(host): \(error.detail)")
        case .other: .network("request to \(host) failed: \(error.detail)")
        }
    }

    func unexpectedStatus(_ status: Int) -> ComicsError {
        switch status {
        case 429: .network("\(host) is rate-limiting requests (HTTP 429); try again later")
        case 500...599: .network("\(host) failed (HTTP \(status)); try again later")
        default: .network("\(host) answered HTTP \(status)")
        }
    }

    func malformed(_ reason: String) -> ComicsError {
        .network("\(host) sent a response comics cannot read: \(reason)")
    }

    /// One item's answer: decoded on 200, unchanged on 304, absent on 404
    /// or 410; any other status, or a body that does not decode, fails.
    func itemFetch(
        _ result: Result<HTTPResponse, HTTPError>, decode: ([UInt8]) throws(DocumentError) -> Item
    ) throws -> ItemFetch {
        let response = try result.mapError(failure).get()
        switch response.status {
        case 200:
            do {
                return .fetched(FetchedItem(item: try decode(response.body), validators: response.validators))
            } catch {
                return .unreadable(malformed(error.reason))
            }
        case 304: return .notModified(response.validators)
        case 404, 410: return .notFound
        default: throw unexpectedStatus(response.status)
        }
    }
}
