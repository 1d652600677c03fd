/// A footnote's mark where a paragraph refers to it, as Gutenberg's texts
/// print them (`[1]`, `[23]`, `[*]`, `[A]`) and as an HTML edition's links
/// to its notes are written whatever their style (`¹`, `(*)`, `†`: `[1]`,
/// `[*]`, `[†]`).
public enum NoteMarks {
    public struct Mark: Equatable, Sendable {
        /// UTF-8 offsets of the mark, brackets included, in its text.
        public let range: Range<Int>
        public let label: String
    }

    /// The marks in `text`, in order. A label is one to three digits, one
    /// to four signs of one kind (`*`, `†`, `‡`, `§`, `¶`, `‖`, `+`), a
    /// sign and a number (`†12`), or one letter: `[Illustration]`, `[sic]`
    /// and a bracketed word are no marks.
    public static func marks(in text: String) -> [Mark] {
        var marks: [Mark] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "["),
                  let close = bytes[(index + 1)...].prefix(longestLabelBytes + 1).firstIndex(of: UInt8(ascii: "]"))
            else {
                index += 1
                continue
            }
            let label = bytes[(index + 1)..<close]
            if isLabel(label) {
                marks.append(Mark(range: index..<(close + 1), label: String(decoding: label, as: UTF8.self)))
                index = close + 1
            } else {
                index += 1
            }
        }
        return marks
    }

    /// Four signs of three bytes each (`‡‡‡‡`).
    private static let longestLabelBytes = 12
    private static let signs: Set<Unicode.Scalar> = ["*", "†", "‡", "§", "¶", "‖", "+"]

    private static func isLabel(_ label: ArraySlice<UInt8>) -> Bool {
        guard let first = label.first else { return false }
        if label.allSatisfy(isDigit) { return label.count <= 3 }
        if label.count == 1 { return (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") }
        let scalars = String(decoding: label, as: UTF8.self).unicodeScalars
        guard let sign = scalars.first, signs.contains(sign) else { return false }
        let rest = scalars.drop { $0 == sign }
        // `***`, or one sign and a number: `†12`.
        return rest.isEmpty ? scalars.count <= 4 : scalars.count - rest.count == 1 && rest.count <= 3 && rest.allSatisfy { $0.properties.numericType == .decimal && $0.isASCII }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    /// Whether `label` (brackets taken off) is a mark's: an HTML edition's
    /// reference to a note is written `[label]` then, and a note that opens
    /// with it wraps under its words.
    public static func isLabel(_ label: String) -> Bool {
        isLabel(ArraySlice(label.utf8))
    }

    /// The `]` that closes the `[` `text` opens with, brackets inside it
    /// counted (`[ Livy, l. xi. [Suppl.] and xxix.]`); nil when none does.
    static func endOfBracket(in text: Substring) -> Substring.Index? {
        guard text.first == "[" else { return nil }
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// Whether a note's text opens as the note `label` does: `[1] …`,
    /// `[Footnote 1: …]`, `1. …`, `(*) …`.
    static func note(_ text: String, answers label: String) -> Bool {
        let opening = text.drop { $0 == " " }
        return opening.hasPrefix("[\(label)]") || opening.hasPrefix("[Footnote \(label):") || opening.hasPrefix("[Footnote \(label)]")
            || opening.hasPrefix("[Footnote \(label) ") || opening.hasPrefix("\(label). ") || opening.hasPrefix("\(label)) ")
            || opening.hasPrefix("(\(label)) ")
    }
}
