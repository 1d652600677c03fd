/// A footnote's mark where a paragraph refers to it, as Gutenberg's texts
/// and HTML editions print them: `[1]`, `[23]`, `[*]`, `[A]`.
public enum NoteMarks {
    public struct Mark: Equatable, Sendable {
        /// UTF-8 offsets of the mark, brackets included, in its text.
        public let range: Range<Int>
        public let label: String
    }

    /// The marks in `text`, in order. A label is one to three digits, one
    /// to four asterisks, or one capital letter: `[Illustration]`, `[sic]`
    /// and a bracketed word are no marks.
    public static func marks(in text: String) -> [Mark] {
        var marks: [Mark] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "["),
                  let close = bytes[(index + 1)...].prefix(6).firstIndex(of: UInt8(ascii: "]"))
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

    private static func isLabel(_ label: ArraySlice<UInt8>) -> Bool {
        guard let first = label.first else { return false }
        if label.allSatisfy({ (0x30...0x39).contains($0) }) { return label.count <= 3 }
        if label.allSatisfy({ $0 == UInt8(ascii: "*") }) { return label.count <= 4 }
        return label.count == 1 && (0x41...0x5A).contains(first)
    }

    /// Whether a note's text opens as the note `label` does: `[1] …`,
    /// `[Footnote 1: …]`, `1. …`.
    static func note(_ text: String, answers label: String) -> Bool {
        let opening = text.drop { $0 == " " }
        return opening.hasPrefix("[\(label)]") || opening.hasPrefix("[Footnote \(label):") || opening.hasPrefix("[Footnote \(label)]")
            || opening.hasPrefix("[Footnote \(label) ") || opening.hasPrefix("\(label). ") || opening.hasPrefix("\(label)) ")
    }
}
