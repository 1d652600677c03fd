import Glibc

/// Project Gutenberg's bytes as text. The bytes decide, not the label:
/// Gutendex calls most UTF-8 files us-ascii, and 1990s files declare one
/// thing and hold another. A BOM means UTF-8; valid UTF-8 is UTF-8;
/// otherwise the header's `Character set encoding:` line, else Windows-1252
/// (which reads ISO-8859-1 the same, except that its C1 range holds the
/// punctuation such files meant).
public enum TextDecoding {
    public enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case windows1252 = "Windows-1252"
    }

    /// The text with line breaks as LF, without a BOM, escape sequences or
    /// control characters other than newline and tab.
    public static func decode(_ bytes: [UInt8]) -> (text: String, encoding: Encoding) {
        let (raw, encoding) = characters(of: unifyingLineBreaks(bytes), declaresUTF8: declaresUTF8)
        return (normalized(raw), encoding)
    }

    /// An HTML edition: the same rules, with the file's own `<meta>`
    /// charset or XML declaration as what it says of itself.
    static func decodeHTML(_ bytes: [UInt8]) -> (text: String, encoding: Encoding) {
        let (raw, encoding) = characters(of: unifyingLineBreaks(bytes), declaresUTF8: htmlDeclaresUTF8)
        return (normalized(raw), encoding)
    }

    private static func characters(of bytes: [UInt8], declaresUTF8: (ArraySlice<UInt8>) -> Bool) -> (String, Encoding) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (String(decoding: bytes.dropFirst(3), as: UTF8.self), .utf8)
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            return (text, .utf8)
        }
        if declaresUTF8(bytes.prefix(64 * 1024)) && mostlyUTF8(bytes) {
            return (String(decoding: bytes, as: UTF8.self), .utf8)
        }
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte < 0x80 || byte >= 0xA0 {
                scalars.append(Unicode.Scalar(byte))
            } else if let character = Mojibake.windows1252Character[byte] {
                scalars.append(character)
            }
        }
        return (String(scalars), .windows1252)
    }

    /// True when the header's "Character set encoding:" line names UTF-8.
    private static func declaresUTF8(_ header: ArraySlice<UInt8>) -> Bool {
        let label = Array("character set encoding:".utf8)
        var index = header.startIndex
        while index + label.count <= header.endIndex {
            if header[index..<index + label.count].elementsEqual(label, by: { lowercased($0) == $1 }) {
                let rest = header[(index + label.count)...].prefix { $0 != 0x0A && $0 != 0x0D }
                let name = String(decoding: rest, as: UTF8.self).trimmingWhitespace().lowercased()
                return name == "utf-8" || name == "utf8"
            }
            index += 1
        }
        return false
    }

    /// `charset=utf-8` or `encoding="utf-8"` before the body.
    private static func htmlDeclaresUTF8(_ header: ArraySlice<UInt8>) -> Bool {
        let head = String(decoding: header.prefix(8 * 1024), as: UTF8.self).lowercased().filter { $0 != " " }
        return ["charset=utf-8", "charset=\"utf-8", "charset='utf-8", "encoding=\"utf-8", "encoding='utf-8"].contains { head.includes($0) }
    }

    /// A file that says UTF-8 and is not valid UTF-8 is taken at its word
    /// only when its well-formed multi-byte characters outnumber the bytes
    /// that fit none: a damaged UTF-8 file, not a Latin-1 one mislabelled.
    private static func mostlyUTF8(_ bytes: [UInt8]) -> Bool {
        var characters = 0, strays = 0, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >= 0xC2 && byte <= 0xDF ? 2 : byte >= 0xE0 && byte <= 0xEF ? 3 : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0
            if length == 1 {
                index += 1
            } else if length > 1, index + length <= bytes.count,
                      bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                characters += 1
                index += length
            } else {
                strays += 1
                index += 1
            }
        }
        return characters > strays
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Line breaks become LF before decoding (CR is one byte in every
    /// encoding here, never part of a character), then nothing a terminal
    /// would act on is left; tabs stay for the lines to expand.
    private static func normalized(_ text: String) -> String {
        TerminalText.sanitize(text).removingInvisibleMarks()
    }

    static func unifyingLineBreaks(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress, var carriageReturn = memchr(base, 0x0D, source.count) else { return bytes }
            var result: [UInt8] = []
            result.reserveCapacity(source.count)
            var start = 0
            while true {
                let index = base.distance(to: carriageReturn.assumingMemoryBound(to: UInt8.self))
                result.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                result.append(0x0A)
                start = index + 1
                if start < source.count, source[start] == 0x0A { start += 1 }
                guard start < source.count, let next = memchr(base + start, 0x0D, source.count - start) else { break }
                carriageReturn = next
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
            return result
        }
    }
}

extension String {
    /// A BOM in the middle of a file (files joined together) is no
    /// character, and the private characters comics marks search matches
    /// with must not come from a text.
    func removingInvisibleMarks() -> String {
        func isMark(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\u{FEFF}" || scalar == SearchMatch.start.unicodeScalars.first || scalar == SearchMatch.end.unicodeScalars.first
        }
        // Each mark's UTF-8 begins with 0xEE or 0xEF: most texts have neither.
        var text = self
        guard text.withUTF8({ ByteScan.contains(0xEE, in: $0) || ByteScan.contains(0xEF, in: $0) }),
              unicodeScalars.contains(where: isMark) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.filter { !isMark($0) }))
    }
}
