@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// The libcurl client against the loopback server: real HTTP, no mocks.
final class CurlHTTPClientTests: XCTestCase {
    private var server: FixtureServer!

    override func setUpWithError() throws {
        server = try FixtureServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func client(_ adjust: (inout HTTPSettings) -> Void = { _ in }) throws -> CurlHTTPClient {
        var settings = HTTPSettings()
        settings.baseBackoff = 0.01
        adjust(&settings)
        return CurlHTTPClient(settings: settings)
    }

    func testABatchIsAnsweredInOrder() throws {
        let numbers = Array(1...30)
        let results = try client().get(numbers.map { HTTPRequest(url: "\(server.baseURL)/\($0)/info.0.json") })
        XCTAssertEqual(results.count, 30)
        for (number, result) in zip(numbers, results) {
            let response = try result.get()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(try XKCDComicDecoder.decode(response.body).ref.id, number)
            XCTAssertNotNil(response.headers["etag"])
        }
        XCTAssertEqual(try server.stats().total, 30)
    }

    func testUserAgentAndConditionalRequests() throws {
        let http = try client()
        let first = try http.get(HTTPRequest(url: "\(server.baseURL)/5/info.0.json")).get()
        XCTAssertEqual(first.validators.lastModified, "Mon, 01 Jan 2024 00:00:00 GMT")
        let again = try http.get(.conditional(url: "\(server.baseURL)/5/info.0.json", validators: first.validators)).get()
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(again.body, [])
        XCTAssertEqual(again.validators.etag, first.validators.etag)
    }

    func testSameHostRedirectsAreFollowed() throws {
        try server.control(.object([("fault", .string("redirect:/7/info.0.json")), ("count", .int(1))]))
        let response = try client().get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json")).get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try XKCDComicDecoder.decode(response.body).ref.id, 7)
    }

    func testRedirectsOffTheHostOrToFilesOrInLoopsAreRefused() throws {
        let targets = [
            "http://example.invalid/1/info.0.json", "file:///etc/passwd",
            "http://127.0.0.1:\(server.port + 1)/x", "https://127.0.0.1:\(server.port)/x", "/1/info.0.json",
        ]
        for target in targets {
            try server.control(.object([("fault", .string("redirect:\(target)"))]))
            let result = try client().get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json"))
            guard case let .failure(error) = result else { return XCTFail("\(target) was followed") }
            XCTAssertEqual(error.reason, .refusedRedirect, "\(target): \(error)")
        }
    }

    func testAnEndlessBodyIsCutAtTheCap() throws {
        try server.control(.object([("fault", .string("huge"))]))
        let result = try client { $0.maxBodyBytes = 256 * 1024 }.get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json"))
        guard case let .failure(error) = result else { return XCTFail("an endless body was accepted") }
        XCTAssertEqual(error.reason, .tooLarge)
    }

    /// A batch holds its answers until it ends: together they stay under
    /// the batch limit, and the next batch starts afresh.
    func testTheAnswersOfABatchAreBoundedTogether() throws {
        let http = try client { $0.maxBatchBytes = 8 * 1024 }
        let results = http.get((1...40).map { HTTPRequest(url: "\(server.baseURL)/\($0)/info.0.json") })
        let bodies = results.compactMap { try? $0.get().body.count }
        XCTAssertFalse(bodies.isEmpty)
        XCTAssertLessThanOrEqual(bodies.reduce(0, +), 8 * 1024)
        let failures = results.compactMap { result -> HTTPError? in
            guard case let .failure(error) = result else { return nil }
            return error
        }
        XCTAssertFalse(failures.isEmpty, "40 documents are more than 8 KiB")
        XCTAssertEqual(Set(failures.map(\.reason)), [.tooLarge])
        XCTAssertEqual(Set(failures.map(\.detail)), ["the answers to one batch of requests passed 8 KiB together"])
        XCTAssertEqual(try http.get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json")).get().status, 200, "a new batch")
    }

    /// Past the client's total, nothing more is even asked for.
    func testWhatAClientDownloadsInAllIsBounded() throws {
        let http = try client { $0.maxTotalBytes = 4 * 1024 }
        var outcomes: [Result<HTTPResponse, HTTPError>] = []
        for number in 1...20 {
            outcomes.append(http.get(HTTPRequest(url: "\(server.baseURL)/\(number)/info.0.json")))
        }
        let succeeded = outcomes.prefix { (try? $0.get()) != nil }.count
        XCTAssertGreaterThan(succeeded, 0)
        XCTAssertLessThan(succeeded, 20)
        for outcome in outcomes.dropFirst(succeeded) {
            guard case let .failure(error) = outcome else { return XCTFail("a request succeeded past the limit") }
            XCTAssertEqual(error.reason, .budgetSpent)
            XCTAssertEqual(error.detail, "this command has downloaded 4 KiB, its limit")
            let said = Upstream(host: "gutenberg.org").failure(error)
            XCTAssertTrue(said.endsTheRun, "a command going through a list stops here")
            XCTAssertEqual(said.message, "this command has downloaded 4 KiB, its limit; nothing more is downloaded in this run")
        }
        XCTAssertEqual(try server.stats().total, succeeded + 1, "only the request that passed the limit was sent after it")
    }

    func testConnectionRefusedIsRetriedThenReported() throws {
        server.stop()
        let result = try client().get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json"))
        guard case let .failure(error) = result else { return XCTFail("nothing is listening") }
        XCTAssertEqual(error.reason, .cannotConnect)
    }

    func testTransientStatusesAreRetriedAndThenReturned() throws {
        try server.control(.object([("fault", .string("503")), ("count", .int(2))]))
        let recovered = try client().get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json")).get()
        XCTAssertEqual(recovered.status, 200)
        XCTAssertEqual(try server.stats().total, 3)

        try server.control(.object([("fault", .string("429"))]))
        let limited = try client { $0.maxAttempts = 2 }.get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json")).get()
        XCTAssertEqual(limited.status, 429, "after the last attempt the status is the caller's to report")
        XCTAssertEqual(try server.stats().total, 5)
    }

    func testRetryAfterIsWaitedOutUnlessItIsTooLong() throws {
        try server.control(.object([("fault", .string("429")), ("count", .int(1)), ("retry_after", .string("1"))]))
        let started = Date()
        let waited = try client().get(HTTPRequest(url: "\(server.baseURL)/books/1342/")).get()
        XCTAssertEqual(waited.status, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9, "the second attempt came before Retry-After")
        XCTAssertEqual(try server.stats().total, 2)

        try server.control(.object([("fault", .string("429")), ("retry_after", .string("3600"))]))
        let refused = try client().get(HTTPRequest(url: "\(server.baseURL)/books/1342/")).get()
        XCTAssertEqual(refused.status, 429, "an hour is not worth waiting for: the caller reports it")
        XCTAssertEqual(try server.stats().total, 3)
    }

    func testAHangingServerTimesOut() throws {
        try server.control(.object([("fault", .string("hang"))]))
        let result = try client {
            $0.transferTimeout = 0.5
            $0.maxAttempts = 1
        }.get(HTTPRequest(url: "\(server.baseURL)/1/info.0.json"))
        try server.control(.object([("fault", .null)]))
        guard case let .failure(error) = result else { return XCTFail("a hanging server answered") }
        XCTAssertEqual(error.reason, .timedOut)
    }

    func testABatchStopsAtItsDeadlineWhateverTheRetries() throws {
        try server.control(.object([("fault", .string("hang"))]))
        let results = try client {
            $0.transferTimeout = 0.4
            $0.maxAttempts = 100
            $0.batchTimeout = 1.5
        }.get((1...3).map { HTTPRequest(url: "\(server.baseURL)/\($0)/info.0.json") })
        try server.control(.object([("fault", .null)]))
        XCTAssertLessThan(try server.stats().total, 40, "the batch deadline ended the retries long before 3 × 100 attempts")
        for result in results {
            guard case let .failure(error) = result else { return XCTFail("a hanging server answered") }
            XCTAssertEqual(error.reason, .timedOut)
        }
    }

    func testAnUntrustedCertificateFailsClosed() throws {
        let tlsServer = try FixtureServer(tls: true)
        defer { tlsServer.stop() }
        let result = try client().get(HTTPRequest(url: "\(tlsServer.baseURL)/1/info.0.json"))
        guard case let .failure(error) = result else { return XCTFail("a self-signed certificate was trusted") }
        XCTAssertEqual(error.reason, .insecure, "\(error)")
    }

    func testOnlyHTTPAndHTTPSAreFetched() throws {
        let result = try client().get(HTTPRequest(url: "file:///etc/passwd"))
        guard case let .failure(error) = result else { return XCTFail("file:// was fetched") }
        XCTAssertEqual(error.reason, .refusedRedirect)
    }
}

final class RetryAfterTests: XCTestCase {
    func testSecondsDatesAndGarbage() throws {
        let now = try XCTUnwrap(RetryAfter.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT"))
        XCTAssertEqual(RetryAfter.parse("5", now: now), 5)
        XCTAssertEqual(RetryAfter.parse("Sun, 06 Nov 1994 08:50:37 GMT", now: now), 60)
        XCTAssertEqual(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0, "a past date means now")
        for garbage in [nil, "", "soon", "-5", "1e9x", "Sun, 32 Nov 1994 08:49:37 GMT"] {
            XCTAssertNil(RetryAfter.parse(garbage, now: now), "\(garbage ?? "nil")")
        }
    }
}
