/// A JSON document that keeps the order of object members, so what comics
/// stores and prints reads in the same order every time.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    public var intValue: Int? {
        if case let .int(number) = self { return number }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case let .array(values) = self { return values }
        return nil
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self {
            return members.first { $0.0 == key }?.1
        }
        return nil
    }
}

// MARK: - Writing

extension JSONValue {
    /// Compact JSON text; every control character is escaped, so the text
    /// is safe to print on one line.
    public var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Indented JSON for people reading a terminal; same content as `serialized`.
    public var prettySerialized: String {
        var output = ""
        writePretty(to: &output, indent: "")
        return output
    }

    private func writePretty(to output: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case let .array(values) where !values.isEmpty:
            output += "[\n"
            for (index, value) in values.enumerated() {
                output += inner
                value.writePretty(to: &output, indent: inner)
                output += index == values.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case let .object(members) where !members.isEmpty:
            output += "{\n"
            for (index, (key, value)) in members.enumerated() {
                output += inner
                JSONValue.writeString(key, to: &output)
                output += ": "
                value.writePretty(to: &output, indent: inner)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        default:
            write(to: &output)
        }
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case let .bool(flag): output += flag ? "true" : "false"
        case let .int(number): output += String(number)
        case let .double(number):
            output += number.isFinite ? String(number) : "null"
        case let .string(text): JSONValue.writeString(text, to: &output)
        case let .array(values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case let .object(members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Copies the text between escapes in runs, not scalar by scalar; text
    /// of printable ASCII with no quote or backslash (most of it) whole.
    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            output += text
            output += "\""
            return
        }
        let scalars = text.unicodeScalars
        var runStart = scalars.startIndex
        var index = runStart
        while index < scalars.endIndex {
            let next = scalars.index(after: index)
            if let escape = escape(for: scalars[index]) {
                output += Substring(scalars[runStart..<index])
                output += escape
                runStart = next
            }
            index = next
        }
        output += Substring(scalars[runStart...])
        output += "\""
    }

    private static func escape(for scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case " "..."~": return nil
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || TerminalText.isBidiControl(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029:
            return "\\u" + hex4(scalar.value)
        default: return nil
        }
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

// MARK: - Parsing

extension JSONValue {
    /// Nesting deeper than this is refused rather than risking the stack.
    public static let maximumDepth = 256

    /// Parses JSON text, keeping member order. Throws on anything that is
    /// not one complete JSON value.
    public static func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        return try parser.parseDocument()
    }

    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

/// Why a JSON document was refused, with the byte offset where it went wrong.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public let offset: Int
    public var description: String { "\(reason) at byte \(offset)" }
}

private struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected text after the document") }
        return value
    }

    private func failure(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard position < bytes.count else { throw failure("unexpected end of document") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try nested { try $0.parseObject() }
        case UInt8(ascii: "["): return try nested { try $0.parseArray() }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try parseNumber()
        }
    }

    private mutating func nested(_ body: (inout JSONParser) throws -> JSONValue) throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONValue.maximumDepth else { throw failure("nesting too deep") }
        return try body(&self)
    }

    private mutating func expect(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count,
              Array(bytes[position..<position + expected.count]) == expected
        else { throw failure("invalid literal") }
        position += expected.count
    }

    private mutating func parseObject() throws -> JSONValue {
        position += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure("expected a member name")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':'")
            }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of document") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        position += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of document") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(values)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws -> String {
        position += 1
        let start = position
        // Most strings hold no escape: they become text straight from the input.
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return try text(of: bytes[start..<position - 1])
            case UInt8(ascii: "\\"):
                return try parseEscapedString(startingWith: bytes[start..<position])
            case 0..<0x20:
                throw failure("unescaped control character in a string")
            default:
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    private func text(of raw: ArraySlice<UInt8>) throws -> String {
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw failure("invalid UTF-8 in a string")
        }
        return text
    }

    /// Copies the text between escapes in runs, not byte by byte.
    private mutating func parseEscapedString(startingWith prefix: ArraySlice<UInt8>) throws -> String {
        var raw = Array(prefix)
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                raw.append(contentsOf: bytes[runStart..<position])
                position += 1
                return try text(of: raw[...])
            case UInt8(ascii: "\\"):
                raw.append(contentsOf: bytes[runStart..<position])
                position += 1
                try parseEscape(into: &raw)
                runStart = position
            case 0..<0x20:
                position += 1
                throw failure("unescaped control character in a string")
            default:
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func parseEscape(into raw: inout [UInt8]) throws {
        guard position < bytes.count else { throw failure("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): raw.append(byte); return
        case UInt8(ascii: "b"): raw.append(0x08); return
        case UInt8(ascii: "f"): raw.append(0x0C); return
        case UInt8(ascii: "n"): raw.append(0x0A); return
        case UInt8(ascii: "r"): raw.append(0x0D); return
        case UInt8(ascii: "t"): raw.append(0x09); return
        case UInt8(ascii: "u"): break
        default: throw failure("invalid escape")
        }
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code),
           position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
            let saved = position
            position += 2
            let low = try parseHex4()
            if (0xDC00...0xDFFF).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                position = saved
            }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        raw.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard bytes.count - position >= 4,
              let text = String(validating: bytes[position..<position + 4], as: UTF8.self),
              let value = UInt32(text, radix: 16)
        else { throw failure("invalid \\u escape") }
        position += 4
        return value
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = position
        numberBytes: while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default:
                break numberBytes
            }
        }
        guard position > start, let text = String(validating: bytes[start..<position], as: UTF8.self) else {
            throw failure("unexpected character")
        }
        if let integer = Int(text) { return .int(integer) }
        if let number = Double(text), number.isFinite, text.first != "+", !text.hasPrefix(".") { return .double(number) }
        position = start
        throw failure("invalid number")
    }
}
