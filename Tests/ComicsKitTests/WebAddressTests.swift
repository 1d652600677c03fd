@testable import ComicsKit
import Foundation
import XCTest

/// comics reads addresses with its own RFC 3986 parser; Foundation's
/// `URLComponents` and the RFC's own examples are the oracles.
final class WebAddressTests: XCTestCase {
    func testThePartsAreWhatURLComponentsReadsForGeneratedAddresses() throws {
        var generator = SystemRandomNumberGenerator()
        let schemes = ["http", "https", "HTTP", "git+ssh", "a.b-c"]
        let users = ["", "user@", "u%20v@", "user:pw@", "user:@", ":pw@", "a!$&'()*+,;=@"]
        let hosts = ["example.org", "127.0.0.1", "WWW.Gutenberg.ORG", "h%41st", "[::1]", "[2001:db8::7]", "", "a-b_c~d"]
        let ports = ["", ":", ":80", ":8080", ":65535", ":0"]
        let paths = ["", "/", "/books/", "/a/b/../c", "/%E2%82%AC/x.png", "/a:b@c;d=e", "/x//y", "/~user/"]
        let queries = ["", "?", "?page=2", "?a=b&page=3&c", "?q=%20+x&page=", "?/?:@"]
        let fragments = ["", "#", "#top", "#a/b?c"]
        for _ in 0..<3_000 {
            let text = schemes.randomElement(using: &generator)! + "://" + users.randomElement(using: &generator)!
                + hosts.randomElement(using: &generator)! + ports.randomElement(using: &generator)!
                + paths.randomElement(using: &generator)! + queries.randomElement(using: &generator)!
                + fragments.randomElement(using: &generator)!
            let oracle = try XCTUnwrap(URLComponents(string: text), text)
            let address = try XCTUnwrap(WebAddress(text), text)
            XCTAssertEqual(address.scheme, oracle.scheme, text)
            XCTAssertEqual(address.user, oracle.percentEncodedUser, text)
            XCTAssertEqual(address.password, oracle.percentEncodedPassword, text)
            XCTAssertEqual(address.host, oracle.percentEncodedHost.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }, text)
            XCTAssertEqual(address.port, oracle.port, text)
            XCTAssertEqual(address.path, oracle.percentEncodedPath, text)
            XCTAssertEqual(address.query, oracle.percentEncodedQuery, text)
            XCTAssertEqual(address.fragment, oracle.percentEncodedFragment, text)
            XCTAssertEqual(address.queryItems.map(\.name), oracle.queryItems?.map(\.name) ?? [], text)
            XCTAssertEqual(address.queryItems.map(\.value), oracle.queryItems?.map(\.value) ?? [], text)
            XCTAssertEqual(WebAddress(address.text), address, "written out and read again: \(text)")
        }
    }

    func testTextThatIsNoAddressIsRefused() {
        for text in ["http://exa mple.org/", "http://example.org/\u{1B}[31m", "http://example.org/é", "http://example.org/%zz",
                     "http://example.org/%4", "1http://x/", "ht tp://x/", "http://[::1/", "http://[::1]x/", "http://h:99999/",
                     "http://h:8o/", "http://h/[x]", "http://h/?[", "http://h/#a#b", "http://u[@h/", "http://h\\x/", "http://h/\"", "://x"] {
            XCTAssertNil(WebAddress(text), text)
        }
    }

    func testHostileTextNeverReadsAsAnAddressWithAControlCharacter() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["http:", "//", "/", "@", ":", "[", "]", "?", "#", "%", "%4", "%41", "\u{0}", "\u{1B}", " ", "é", "h", "8080", "..", "\\"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            guard let address = WebAddress(text) else { continue }
            XCTAssertFalse(address.text.unicodeScalars.contains { $0.value < 0x21 || $0.value > 0x7E }, text)
            XCTAssertEqual(WebAddress(address.text), address, text)
        }
    }

    /// RFC 3986, section 5.4: every normal and abnormal example.
    func testReferencesResolveAsRFC3986Says() throws {
        let base = try XCTUnwrap(WebAddress("http://a/b/c/d;p?q"))
        let examples: [(String, String)] = [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
            ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
            ("g;x?y#s", "http://a/b/c/g;x?y#s"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"),
            ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
            ("http:g", "http:g"),
        ]
        for (reference, expected) in examples {
            XCTAssertEqual(base.resolving(reference)?.text, expected, reference)
        }
    }

    func testGeneratedReferencesResolveAsFoundationDoes() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["images/", "../", "./", "/", "x.png", "a;b", "..", ".", "?q=1", "#f", "%41", "~", "-_"]
        let bases = ["https://www.gutenberg.org/cache/epub/1342/pg1342-images.html", "http://h:8080/a/b/", "http://h", "http://h/a?b#c"]
        for _ in 0..<3_000 {
            let reference = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let base = bases.randomElement(using: &generator)!
            // Fragments are left out: comics drops them, and Foundation
            // escapes a whole fragment again (`%41` as `%2541`) once one
            // character of it needs escaping. So are references to another
            // host (`//h/.`), whose dot segments Foundation keeps and
            // RFC 3986 removes (the RFC's examples are tested above).
            guard !reference.hasPrefix("//") else { continue }
            let oracle = try XCTUnwrap(URL(string: reference, relativeTo: URL(string: base))?.absoluteString, reference)
            var resolved = WebAddress(base)?.resolving(reference)
            resolved?.fragment = nil
            XCTAssertEqual(resolved?.text, String(oracle.prefix { $0 != "#" }), "\(reference) against \(base)")
        }
    }

    func testCharactersAnAddressMayNotHoldAreEscapedBeforeResolving() {
        let base = WebAddress("https://www.gutenberg.org/cache/epub/1342/pg1342-images.html")
        XCTAssertEqual(base?.resolving("images/a b.png")?.text, "https://www.gutenberg.org/cache/epub/1342/images/a%20b.png")
        XCTAssertEqual(base?.resolving("images/é 100%.png")?.text, "https://www.gutenberg.org/cache/epub/1342/images/%C3%A9%20100%25.png")
        XCTAssertEqual(base?.resolving("images\\x.png")?.text, "https://www.gutenberg.org/cache/epub/1342/images%5Cx.png")
    }

    func testALastQueryValueIsReplacedAndTheRestKeptAsWritten() {
        let link = WebAddress("http://h/books/?search=a%20b&page=2&topic=x+y")
        XCTAssertEqual(link?.replacingLastQueryValue(of: "page", with: "7")?.text, "http://h/books/?search=a%20b&page=7&topic=x+y")
        XCTAssertEqual(WebAddress("http://h/?page=1&p%61ge=2")?.replacingLastQueryValue(of: "page", with: "9")?.text, "http://h/?page=1&p%61ge=9")
        XCTAssertEqual(WebAddress("http://h/?a&page")?.replacingLastQueryValue(of: "page", with: "2")?.text, "http://h/?a&page=2")
        XCTAssertNil(WebAddress("http://h/?pages=2")?.replacingLastQueryValue(of: "page", with: "3"))
        XCTAssertNil(WebAddress("http://h/")?.replacingLastQueryValue(of: "page", with: "3"))
    }
}
