import ComicsKit
import Foundation

/// The loopback xkcd and Gutendex server of `Tests/Fixtures/server.py`,
/// started on a free port for one test and stopped with it.
public final class FixtureServer {
    public let port: Int
    private let process: ChildProcess
    private let input: TestPipe
    private let http: CurlHTTPClient

    private let scheme: String

    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    /// `tls` serves HTTPS with a self-signed certificate that nothing trusts.
    public init(tls: Bool = false) throws {
        scheme = tls ? "https" : "http"
        input = try TestPipe()
        let output = try TestPipe()
        process = try ChildProcess(
            "python3", [Fixtures.path("server.py"), Fixtures.path("xkcd")] + (tls ? ["--tls"] : []),
            stdin: input.readEnd, stdout: output.writeEnd, stderr: STDERR_FILENO)
        input.closeReadEnd()
        output.closeWriteEnd()
        let line = output.readLine()
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.signal(SIGTERM)
            throw FixtureError("the fixture server did not start (said '\(line)')")
        }
        self.port = port
        var settings = HTTPSettings()
        settings.maxAttempts = 1
        http = CurlHTTPClient(settings: settings)
    }

    deinit {
        stop()
    }

    /// Stops the server; later requests find nothing listening.
    public func stop() {
        guard process.isRunning else { return }
        input.closeWriteEnd()
        process.signal(SIGTERM)
        process.waitForExit()
    }

    /// Sends a control command (see server.py).
    public func control(_ command: JSONValue) throws {
        let body = command.serialized
        let result = try postJSON(body)
        guard result == 200 else { throw FixtureError("control request failed: \(result)") }
    }

    /// How many requests reached comic and book paths, per path, and the distinct User-Agents seen.
    public func stats() throws -> (total: Int, hits: [String: Int], agents: [String]) {
        let document = try statsDocument()
        var hits: [String: Int] = [:]
        if case let .object(members)? = document["hits"] {
            for (path, count) in members { hits[path] = count.intValue ?? 0 }
        }
        let agents = document["agents"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return (document["total"]?.intValue ?? 0, hits, agents)
    }

    /// Every request's path and query, in the order they came.
    public func requests() throws -> [String] {
        try statsDocument()["requests"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The most requests the server was answering at once, and how many
    /// connections were opened to it: how polite a client was.
    /// The hosts of the requests that came through it as a forward proxy.
    public func proxiedHosts() throws -> [String] {
        (try statsDocument()["proxied"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    public func load() throws -> (mostInFlight: Int, connections: Int) {
        let document = try statsDocument()
        return (document["most_in_flight"]?.intValue ?? 0, document["connections"]?.intValue ?? 0)
    }

    private func statsDocument() throws -> JSONValue {
        try JSONValue.parse(try http.get(HTTPRequest(url: "\(baseURL)/__stats")).get().body)
    }

    /// A book shaped as Gutendex serves it.
    /// Serves book `id` with only these formats (type, URL) in its record.
    public func postBook(_ id: Int, formats: [(String, String)]) throws {
        var book = Self.book(id, title: "Book \(id)")
        if case var .object(members) = book {
            members.removeAll { $0.0 == "formats" }
            members.append(("formats", .object(formats.map { ($0.0, .string($0.1)) })))
            book = .object(members)
        }
        try control(.object([("books", .object([(String(id), book)]))]))
    }

    /// A book whose plain text is `text`, between Gutenberg's markers.
    public func serveText(_ id: Int, _ text: String) throws {
        try postBook(id, formats: [("text/plain; charset=us-ascii", "https://www.gutenberg.org/ebooks/\(id).txt.utf-8")])
        let file = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\n" + text + "\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n"
        try control(.object([("texts", .object([(String(id), .string(Self.hex(Array(file.utf8))))]))]))
    }

    /// The HTML edition the server gives book `id` (which must name one).
    public func serveHTML(_ id: Int, _ bytes: [UInt8]) throws {
        try control(.object([("html", .object([(String(id), .string(Self.hex(bytes)))]))]))
    }

    /// Bytes as the control document carries files: hexadecimal.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes { hex += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: hex, as: UTF8.self)
    }

    public static func book(_ id: Int, title: String, author: String = "Doe, Jane", downloads: Int = 10) -> JSONValue {
        .object([
            ("id", .int(id)), ("title", .string(title)),
            ("authors", .array([.object([("name", .string(author)), ("birth_year", .int(1900)), ("death_year", .null)])])),
            ("summaries", .array([])), ("editors", .array([])), ("translators", .array([])),
            ("subjects", .array([.string("Test subjects -- Fiction")])), ("bookshelves", .array([])),
            ("languages", .array([.string("en")])), ("copyright", .bool(false)), ("media_type", .string("Text")),
            ("formats", .object([("text/plain; charset=us-ascii", .string("https://www.gutenberg.org/ebooks/\(id).txt.utf-8"))])),
            ("download_count", .int(downloads)),
        ])
    }

    /// A comic document shaped as xkcd serves it.
    public static func comic(_ number: Int, title: String, alt: String = "alt text", transcript: String = "") -> JSONValue {
        .object([
            ("month", .string("1")), ("num", .int(number)), ("link", .string("")), ("year", .string("2007")),
            ("news", .string("")), ("safe_title", .string(title)), ("transcript", .string(transcript)),
            ("alt", .string(alt)), ("img", .string("https://imgs.xkcd.com/comics/test_\(number).png")),
            ("title", .string(title)), ("day", .string("2")),
        ])
    }

    /// POST through a raw socket: the client under test only speaks GET.
    private func postJSON(_ body: String) throws -> Int {
        let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketHandle >= 0 else { throw FixtureError("socket failed") }
        defer { close(socketHandle) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketHandle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw FixtureError("cannot connect to the fixture server") }
        let request = "POST /__control HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = request.withCString { send(socketHandle, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let received = recv(socketHandle, &buffer, buffer.count, 0)
        let head = String(decoding: buffer.prefix(max(0, received)), as: UTF8.self)
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Paths of the files under Tests/Fixtures.
public enum Fixtures {
    public static var directory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    public static func image(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path("images/\(name)"))))
    }

    /// A real Project Gutenberg file (gutenberg/NAME), byte for byte.
    public static func gutenberg(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path("gutenberg/\(name)"))))
    }

    public static func gutendex(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path("gutendex/\(name)"))))
    }

    /// A real document from further in the archive (xkcd-quirks/N), to hand
    /// to the server as `{"comics": {"N": ...}}`.
    public static func xkcdQuirk(_ number: Int) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path("xkcd-quirks/\(number)/info.0.json")))))
    }

    public static func xkcd(_ number: Int?) throws -> [UInt8] {
        let name = number.map { "xkcd/\($0)/info.0.json" } ?? "xkcd/info.0.json"
        return Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }
}
