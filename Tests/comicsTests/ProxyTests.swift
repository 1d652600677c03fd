import ComicsKit
import Foundation
import TestSupport
import XCTest

/// A team shares one upstream cache through a proxy: comics (libcurl) sends
/// every request through the proxy the environment names.
final class ProxyTests: EndToEndTestCase {
    func testEveryRequestGoesThroughTheProxyTheEnvironmentNames() throws {
        comics.environment["COMICS_XKCD_URL"] = "http://xkcd.test"
        comics.environment["COMICS_GUTENDEX_URL"] = "http://gutendex.test"
        comics.environment["http_proxy"] = server.baseURL
        XCTAssertEqual(try comics.run(["list", "-n", "3"]).status, 0)
        XCTAssertEqual(try comics.run(["show", "150"]).status, 0)
        XCTAssertEqual(try comics.run(["-s", "books", "list"]).status, 0)
        let more = try comics.run(["-s", "books", "more"])
        XCTAssertEqual(more.status, 0, "the next link names the host asked for: \(more)")
        let hosts = try server.proxiedHosts()
        XCTAssertEqual(hosts.filter { $0 == "xkcd.test" }.count, 4, "info.0.json, 199, 198 and 150: \(hosts)")
        XCTAssertEqual(hosts.filter { $0 == "gutendex.test" }.count, 2, "two pages: \(hosts)")
        XCTAssertEqual(hosts.count, try server.requests().count, "nothing went around the proxy")
    }
}
