/// An address split into its RFC 3986 parts, each kept as written
/// (percent-encoded): what comics reads of the addresses upstream sends
/// before it follows them. Written here rather than taken from
/// Foundation's `URL`, which brings most of Foundation into the binary,
/// and with it a millisecond to every start of every command.
public struct WebAddress: Equatable, Sendable {
    /// As written (`HTTP`, `https`); nil for a relative reference.
    public var scheme: String?
    /// Percent-encoded, as are all the parts below.
    public var user: String?
    public var password: String?
    /// A name, an IPv4 address, or an IPv6 one without its brackets; nil
    /// when there is no `//` authority.
    public var host: String?
    public var port: Int?
    public var path = ""
    public var query: String?
    public var fragment: String?

    /// Nil for text that is not an RFC 3986 URI reference: a character
    /// outside the URI set (a space, a control, a non-ASCII letter), a `%`
    /// without two hex digits, a malformed scheme, host or port.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy(Self.isURIByte), Self.percentSignsAreEscapes(bytes) else { return nil }
        var rest = bytes[...]
        if let colon = rest.firstIndex(where: { $0 == UInt8(ascii: ":") || Self.isDelimiter($0) }),
           rest[colon] == UInt8(ascii: ":") {
            let name = rest[..<colon]
            guard let first = name.first, Self.isLetter(first),
                  name.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) || "+-.".utf8.contains($0) })
            else { return nil }
            scheme = String(decoding: name, as: UTF8.self)
            rest = rest[(colon + 1)...]
        }
        if let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: rest[(fragmentStart + 1)...], as: UTF8.self)
            rest = rest[..<fragmentStart]
        }
        if let queryStart = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = String(decoding: rest[(queryStart + 1)...], as: UTF8.self)
            rest = rest[..<queryStart]
        }
        guard !(fragment ?? "").utf8.contains(where: { Self.isBracket($0) || $0 == UInt8(ascii: "#") }),
              !(query ?? "").utf8.contains(where: Self.isBracket)
        else { return nil }
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard parseAuthority(rest[..<end]) else { return nil }
            rest = rest[end...]
        }
        guard !rest.contains(where: Self.isBracket) else { return nil }
        path = String(decoding: rest, as: UTF8.self)
    }

    /// The address written out again, each part as it was read or set.
    public var text: String {
        var text = scheme.map { $0 + ":" } ?? ""
        if let host {
            text += "//"
            if let user {
                text += user + (password.map { ":" + $0 } ?? "") + "@"
            }
            text += host.contains(":") ? "[" + host + "]" : host
            if let port { text += ":" + String(port) }
        }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// Carries a user name or a password, which no address comics follows may.
    public var hasCredentials: Bool { user != nil || password != nil }

    /// The path with its escapes decoded, or as written when they do not
    /// decode to UTF-8.
    public var decodedPath: String { Self.percentDecoded(path) ?? path }

    /// The query's `name=value` pairs, decoded (a `+` stays a `+`, as
    /// RFC 3986 has it).
    public var queryItems: [(name: String, value: String?)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (Self.percentDecoded(pair) ?? String(pair), nil) }
            let name = pair[..<equals], value = pair[pair.index(after: equals)...]
            return (Self.percentDecoded(name) ?? String(name), Self.percentDecoded(value) ?? String(value))
        }
    }

    /// The address with the value of the last pair named `name` replaced
    /// by `value` (which must need no escapes), the rest as written; nil
    /// when it has no such pair.
    public func replacingLastQueryValue(of name: String, with value: String) -> WebAddress? {
        guard let query else { return nil }
        var pairs = query.split(separator: "&", omittingEmptySubsequences: false).map(String.init)
        func writtenName(_ pair: String) -> Substring { pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0] }
        guard let index = pairs.lastIndex(where: { (Self.percentDecoded(writtenName($0)) ?? String(writtenName($0))) == name })
        else { return nil }
        pairs[index] = writtenName(pairs[index]) + "=" + value
        var replaced = self
        replaced.query = pairs.joined(separator: "&")
        return replaced
    }

    /// `reference` read against this address as a browser reads a link on
    /// the page at this address (RFC 3986, section 5.2): characters an
    /// address may not hold are escaped first, as browsers do. Nil when
    /// this address has no scheme or the reference cannot be read.
    public func resolving(_ reference: String) -> WebAddress? {
        guard scheme != nil, let relative = WebAddress(Self.escapingInvalidCharacters(reference)) else { return nil }
        var target = relative
        if relative.scheme != nil {
            target.path = Self.removingDotSegments(relative.path)
            return target
        }
        (target.scheme, target.fragment) = (scheme, relative.fragment)
        if relative.host != nil {
            target.path = Self.removingDotSegments(relative.path)
            return target
        }
        (target.user, target.password, target.host, target.port) = (user, password, host, port)
        if relative.path.isEmpty {
            target.path = path
            target.query = relative.query ?? query
        } else if relative.path.hasPrefix("/") {
            target.path = Self.removingDotSegments(relative.path)
        } else {
            let merged: String
            if host != nil, path.isEmpty {
                merged = "/" + relative.path
            } else {
                merged = (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + relative.path
            }
            target.path = Self.removingDotSegments(merged)
        }
        return target
    }

    private mutating func parseAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var rest = authority
        if let at = rest.lastIndex(of: UInt8(ascii: "@")) {
            let userInfo = rest[..<at]
            guard !userInfo.contains(where: Self.isBracket) else { return false }
            if let colon = userInfo.firstIndex(of: UInt8(ascii: ":")) {
                user = String(decoding: userInfo[..<colon], as: UTF8.self)
                password = String(decoding: userInfo[(colon + 1)...], as: UTF8.self)
            } else {
                user = String(decoding: userInfo, as: UTF8.self)
            }
            rest = rest[(at + 1)...]
        }
        var portText = ArraySlice<UInt8>()
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = rest[(rest.startIndex + 1)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ Self.isHexDigit($0) || ":.".utf8.contains($0) }) else { return false }
            host = String(decoding: literal, as: UTF8.self)
            let after = rest[(close + 1)...]
            guard after.isEmpty || after.first == UInt8(ascii: ":") else { return false }
            portText = after.dropFirst()
        } else {
            let colon = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
            let name = rest[..<colon]
            guard !name.contains(where: Self.isBracket) else { return false }
            host = String(decoding: name, as: UTF8.self)
            portText = colon == rest.endIndex ? [] : rest[(colon + 1)...]
        }
        guard !portText.isEmpty else { return true }
        guard portText.count <= 5, portText.allSatisfy(Self.isDigit),
              let number = Int(String(decoding: portText, as: UTF8.self)), number <= 65_535
        else { return false }
        port = number
        return true
    }

    /// RFC 3986, section 5.2.4: `.` and `..` segments taken out.
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        var trailingSlash = false
        let absolute = input.hasPrefix("/")
        if absolute { input = input.dropFirst() }
        let segments = input.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                trailingSlash = last
            case "..":
                if !output.isEmpty { output.removeLast() }
                trailingSlash = last
            default:
                output.append(segment)
                trailingSlash = false
            }
        }
        let joined = output.joined(separator: "/") + (trailingSlash && !output.isEmpty ? "/" : "")
        return absolute ? "/" + joined : joined
    }

    /// `text` with every character an address may not hold as `%XX` of
    /// its UTF-8 bytes: a `%` that starts no escape as `%25`, a `#` after
    /// the one that starts the fragment as `%23`.
    static func escapingInvalidCharacters(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count)
        var inFragment = false
        for (index, byte) in bytes.enumerated() {
            let startsEscape = escapedByte(in: bytes, at: index) != nil
            let startsFragment = byte == UInt8(ascii: "#") && !inFragment
            inFragment = inFragment || startsFragment
            let kept = isURIByte(byte) && !isBracket(byte) && byte != UInt8(ascii: "%") && (byte != UInt8(ascii: "#") || startsFragment)
            if kept || startsEscape {
                escaped.append(byte)
            } else {
                escaped.append(contentsOf: "%".utf8)
                escaped.append(hexDigit(byte >> 4))
                escaped.append(hexDigit(byte & 0xF))
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// `%XX` escapes decoded; nil when the result is not UTF-8.
    static func percentDecoded(_ text: some StringProtocol) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(text) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let byte = escapedByte(in: bytes, at: index) {
                decoded.append(byte)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func percentSignsAreEscapes(_ bytes: [UInt8]) -> Bool {
        bytes.indices.allSatisfy { bytes[$0] != UInt8(ascii: "%") || escapedByte(in: bytes, at: $0) != nil }
    }

    /// The byte a `%XX` at `index` stands for; nil when none starts there.
    private static func escapedByte(in bytes: [UInt8], at index: Int) -> UInt8? {
        guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
              let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        else { return nil }
        return high << 4 | low
    }

    /// Unreserved, reserved and `%`: the bytes an RFC 3986 reference is made of.
    private static func isURIByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool { "/?#".utf8.contains(byte) }
    private static func isBracket(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") }
    private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 48 + value : 55 + value }
}
