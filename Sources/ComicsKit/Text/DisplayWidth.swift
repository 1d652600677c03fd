/// How many terminal columns text takes: wide East Asian characters and
/// emoji take two, combining marks none.
public enum DisplayWidth {
    public static func of(_ text: some StringProtocol) -> Int {
        var width = 0
        for byte in text.utf8 {
            guard byte >= 0x20 && byte < 0x7F else { return text.unicodeScalars.reduce(0) { $0 + of($1) } }
            width += 1
        }
        return width
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        // Printable ASCII, nearly every scalar comics prints, needs no table.
        if (0x20..<0x7F).contains(scalar.value) { return 1 }
        let properties = scalar.properties
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
            || scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
            || scalar == SearchMatch.start.unicodeScalars.first || scalar == SearchMatch.end.unicodeScalars.first {
            return 0
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Cuts text to `width` columns, ending with "…" when it had to cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = of(String(character))
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    public static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// Breaks text into lines of at most `width` columns at spaces. A word
    /// wider than the line is cut into pieces that fit, except a URL, which
    /// goes whole on a line of its own (so that it can still be copied).
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        // On the byte unless a CR could make "\r\n" one Character: splitting
        // on the Character walks grapheme boundaries through the whole text.
        let paragraphs = text.utf8.contains(0x0D)
            ? text.split(separator: "\n", omittingEmptySubsequences: false)
            : text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) }
        for paragraph in paragraphs {
            if let fast = wrapSingleSpaced(paragraph, width: width) {
                lines += fast
                continue
            }
            var line = ""
            var used = 0
            func place(_ word: Substring, _ wordWidth: Int) {
                if line.isEmpty {
                    line.append(contentsOf: word)
                    used = wordWidth
                } else if used + 1 + wordWidth > width {
                    lines.append(line)
                    line = String(word)
                    used = wordWidth
                } else {
                    line.append(" ")
                    line.append(contentsOf: word)
                    used += 1 + wordWidth
                }
            }
            for word in paragraph.split(separator: " ") {
                let wordWidth = of(word)
                if wordWidth > width, !isURL(String(word)) {
                    for piece in pieces(of: String(word), width: width) { place(piece[...], of(piece)) }
                } else {
                    place(word, wordWidth)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// The common case of `wrap`, a book's paragraph: words one space apart
    /// and none wider than the line, so each line is a slice of the text.
    /// Nil when the paragraph is not like that.
    private static func wrapSingleSpaced(_ paragraph: Substring, width: Int) -> [String]? {
        let utf8 = paragraph.utf8
        guard let first = utf8.first, first != 0x20, utf8.last != 0x20 else { return paragraph.isEmpty ? [""] : nil }
        var lines: [String] = []
        var lineStart = utf8.startIndex, lineEnd = utf8.startIndex, used = 0
        var wordStart = utf8.startIndex
        while wordStart < utf8.endIndex {
            var wordEnd = wordStart, wordWidth = 0, isASCII = true
            while wordEnd < utf8.endIndex, utf8[wordEnd] != 0x20 {
                let byte = utf8[wordEnd]
                if byte < 0x20 || byte >= 0x7F { isASCII = false }
                wordWidth += 1
                utf8.formIndex(after: &wordEnd)
            }
            if wordEnd == wordStart { return nil }
            if !isASCII { wordWidth = of(paragraph[wordStart..<wordEnd]) }
            if wordWidth > width { return nil }
            if lineEnd == lineStart {
                (lineEnd, used) = (wordEnd, wordWidth)
            } else if used + 1 + wordWidth > width {
                lines.append(String(paragraph[lineStart..<lineEnd]))
                (lineStart, lineEnd, used) = (wordStart, wordEnd, wordWidth)
            } else {
                (lineEnd, used) = (wordEnd, used + 1 + wordWidth)
            }
            wordStart = wordEnd < utf8.endIndex ? utf8.index(after: wordEnd) : wordEnd
        }
        lines.append(String(paragraph[lineStart..<lineEnd]))
        return lines
    }

    public static func isURL(_ word: String) -> Bool {
        word.hasPrefix("https://") || word.hasPrefix("http://")
    }

    /// The word, or pieces of it at most `width` columns wide when it is
    /// wider and no URL.
    private static func pieces(of word: String, width: Int) -> [String] {
        guard of(word) > width, !isURL(word) else { return [word] }
        var pieces: [String] = [], piece = "", used = 0
        for character in word {
            let characterWidth = of(String(character))
            if used + characterWidth > width, !piece.isEmpty {
                pieces.append(piece)
                (piece, used) = ("", 0)
            }
            piece.append(character)
            used += characterWidth
        }
        return pieces + [piece]
    }

    /// Words wrapped into lines at most `width` columns wide (a word
    /// wider than that alone on its line).
    public static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if DisplayWidth.of(candidate) > width, !line.isEmpty {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        return lines + (line.isEmpty ? [] : [line])
    }

}
