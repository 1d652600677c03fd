/// The work's lines as blocks: paragraphs split at blank lines, each kept
/// as prose (to be reflowed) or as lines (verse, tables, indented blocks),
/// illustrations and footnotes told apart. Linear in the text; a block
/// holds at most `maximumLines` lines of at most `maximumLineLength`
/// characters (a longer line is cut in pieces, none of it dropped), so no
/// file makes one block a whole screen cannot hold.
enum TextBlocks {
    static let maximumLines = 400
    static let maximumLineLength = 2_000

    /// Whether `blocks` are a flood for text of `textBytes`: more than a
    /// real book has (one a 64 bytes, past the first 10,000). Past it a
    /// short paragraph joins the one before rather than making a block of
    /// its own: a file of millions of one-letter paragraphs costs memory
    /// and time in proportion to its size, and no word is lost.
    static func isFlood(blocks: Int, textBytes: Int) -> Bool {
        blocks > 10_000 + textBytes / 64
    }

    /// A block with the file's own lines, before headings are decided.
    struct Paragraph: Sendable {
        var kind: TextBlock.Kind
        var lines: [String]
        /// For an illustration: the last line of its caption, which some
        /// editions make the chapter's only heading.
        var captionLastLine: String?
    }

    static func paragraphs(of lines: Slice<TextLines>) -> [Paragraph] {
        let proseWidth = typicalWidth(of: lines)
        var paragraphs: [Paragraph] = []
        var pending: [String] = []
        var illustrationDepth = 0
        var textBytes = 0
        func flush() {
            guard !pending.isEmpty else { return }
            if !isPictureMarker(pending) {
                var made = paragraph(of: pending, proseWidth: proseWidth)
                if made.kind == .footnote, let body = bodyRunOnAfterNote(&made.lines) {
                    paragraphs.append(made)
                    made = Paragraph(kind: .prose, lines: body)
                }
                // No copy of the last paragraph is kept: its lines grow in place.
                let joins = paragraphs.last.map { $0.kind == made.kind && $0.lines.count + made.lines.count <= maximumLines } ?? false
                if joins, made.kind == .prose || made.kind == .lines, isFlood(blocks: paragraphs.count, textBytes: textBytes) {
                    // Prose is reflowed: its words join the last line while
                    // it is short, rather than a String a line.
                    let joined = made.lines.joined(separator: " ")
                    let lastLine = paragraphs[paragraphs.count - 1].lines.count - 1
                    if made.kind == .prose, paragraphs[paragraphs.count - 1].lines[lastLine].utf8.count + joined.utf8.count < maximumLineLength {
                        paragraphs[paragraphs.count - 1].lines[lastLine] += " " + joined
                    } else {
                        paragraphs[paragraphs.count - 1].lines += made.lines
                    }
                } else {
                    paragraphs.append(made)
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
        for line in lines.lazy.flatMap(expanded) {
            textBytes += line.utf8.count + 1
            let blank = line.isEmpty
            if illustrationDepth > 0 {
                pending.append(line)
                illustrationDepth = max(0, illustrationDepth + bracketBalance(line))
                if illustrationDepth == 0 || pending.count >= maximumLines {
                    illustrationDepth = 0
                    flush()
                }
                continue
            }
            if blank {
                flush()
                continue
            }
            if pending.isEmpty, line.utf8.first(where: { $0 != 0x20 }) == UInt8(ascii: "["),
               line.drop(while: { $0 == " " }).hasPrefix("[Illustration") {
                illustrationDepth = bracketBalance(line)
                pending.append(line)
                if illustrationDepth <= 0 {
                    illustrationDepth = 0
                    flush()
                }
                continue
            }
            pending.append(line)
            if pending.count >= maximumLines { flush() }
        }
        flush()
        return paragraphs
    }

    /// What a text made from an HTML edition keeps of its pictures' links:
    /// `0009m 0011m` (the pictures' file names), `Enlarge`, `[Full Size]`.
    /// Words of the book are never all of that.
    static func isPictureMarker(_ lines: [String]) -> Bool {
        guard lines.count <= 3, lines.allSatisfy({ $0.utf8.count <= 40 }) else { return false }
        // Every such word begins with a digit, e, f or s: most paragraphs
        // are told apart by their first byte.
        let opening = lines[0].utf8.first { $0 != 0x20 && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "(") }
        guard let opening, (0x30...0x39).contains(opening) || Array("efsEFS".utf8).contains(opening) else { return false }
        let words = lines.flatMap { $0.split(separator: " ") }
        return !words.isEmpty && words.allSatisfy { word in
            let bare = word.lowercased().filter { $0 != "[" && $0 != "]" && $0 != "(" && $0 != ")" }
            let digits = bare.prefix { $0.isASCII && $0.isNumber }
            return ["enlarge", "full", "size", "fullsize"].contains(bare)
                || (digits.count >= 3 && digits.count <= 5 && bare.count == digits.count + 1 && bare.last?.isLetter == true)
        }
    }

    /// Tabs to the next multiple of eight, trailing spaces off, and a line
    /// longer than `maximumLineLength` (some files hold a paragraph a line)
    /// as several, cut at a space where there is one: prose joins them
    /// again, and nothing is lost.
    private static func expanded(_ line: Substring) -> [String] {
        var text = ByteScan.contains(0x09, in: line) ? expandingTabs(line) : String(line)
        if text.utf8.last == 0x20 {
            text = String(text[..<(text.utf8.lastIndex { $0 != 0x20 }.map { text.utf8.index(after: $0) } ?? text.startIndex)])
        }
        guard text.utf8.count > maximumLineLength, text.count > maximumLineLength else { return [text] }
        var pieces: [String] = []
        var rest = Substring(text)
        // Each step walks at most `maximumLineLength` characters: linear.
        while let limit = rest.index(rest.startIndex, offsetBy: maximumLineLength, limitedBy: rest.endIndex), limit < rest.endIndex {
            let cut = rest[..<limit].lastIndex(of: " ").flatMap { $0 > rest.startIndex ? $0 : nil } ?? limit
            pieces.append(String(rest[..<cut]))
            rest = rest[cut...].drop { $0 == " " }
        }
        if !rest.isEmpty { pieces.append(String(rest)) }
        return pieces
    }

    private static func expandingTabs(_ line: Substring) -> String {
        var result = ""
        var column = 0
        for character in line {
            if character == "\t" {
                let spaces = 8 - column % 8
                result.append(String(repeating: " ", count: spaces))
                column += spaces
            } else {
                result.append(character)
                column += 1
            }
        }
        return result
    }

    private static func bracketBalance(_ line: String) -> Int {
        var balance = 0
        for byte in line.utf8 {
            if byte == UInt8(ascii: "[") { balance += 1 } else if byte == UInt8(ascii: "]") { balance -= 1 }
        }
        return balance
    }

    /// The width the file's prose was wrapped at: most lines of a
    /// paragraph come close to it, verse stays well short of it.
    private static func typicalWidth(of lines: Slice<TextLines>) -> Int {
        var counts = [Int](repeating: 0, count: 201)
        var total = 0
        for line in lines {
            let length = min(200, line.utf8.count)
            if length >= 20 {
                counts[length] += 1
                total += 1
            }
        }
        guard total >= 20 else { return 72 }
        var seen = 0
        for length in stride(from: 200, through: 20, by: -1) {
            seen += counts[length]
            if seen * 10 >= total { return min(length, 100) }
        }
        return 72
    }

    private static func paragraph(of lines: [String], proseWidth: Int) -> Paragraph {
        let first = lines[0].drop { $0 == " " }
        if first.hasPrefix("[Illustration") {
            return Paragraph(kind: .illustration, lines: lines, captionLastLine: captionLastLine(of: lines))
        }
        if isFootnoteOpening(first) {
            return Paragraph(kind: .footnote, lines: lines)
        }
        return Paragraph(kind: isProse(lines, proseWidth: proseWidth) ? .prose : .lines, lines: lines)
    }

    /// Prose: no line indented, and every line but the last reaching near
    /// the width the file wraps at (verse lines end well before it).
    private static func isProse(_ lines: [String], proseWidth: Int) -> Bool {
        if lines.contains(where: { $0.utf8.first == 0x20 }) { return false }
        guard lines.count > 1 else { return true }
        // Scalars, not characters: grapheme breaking every line of a book
        // cost more than the rest of this decision.
        let shortest = lines.dropLast().lazy.map(ByteScan.scalarCount).min() ?? 0
        return shortest * 10 >= proseWidth * 6
    }

    /// A `[Footnote 52: …]` whose paragraph goes on past its bracket with
    /// references to further notes (`] It was once proposed … [53] …`): the
    /// edition ran the book's paragraph on after the note. The note's lines
    /// end at the bracket; the rest, returned, is the book's (each cut to
    /// lines of `maximumLineLength`, as the file's were).
    private static func bodyRunOnAfterNote(_ lines: inout [String]) -> [String]? {
        guard lines[0].drop(while: { $0 == " " }).hasPrefix("[Footnote") else { return nil }
        let text = lines.joined(separator: " ").trimmingWhitespace()
        guard let close = NoteMarks.endOfBracket(in: text[...]) else { return nil }
        let body = text[text.index(after: close)...].trimmingWhitespace()
        guard !NoteMarks.marks(in: body).isEmpty else { return nil }
        lines = expanded(text[...close])
        return expanded(body[...])
    }

    private static func isFootnoteOpening(_ text: Substring) -> Bool {
        if text.hasPrefix("[Footnote") { return true }
        guard text.first == "[" else { return false }
        let inside = text.dropFirst().prefix { $0 != "]" }
        guard !inside.isEmpty, inside.count <= 4, text.dropFirst(inside.count + 1).first == "]" else { return false }
        return inside.allSatisfy { $0.isNumber || ("A"..."Z").contains($0) || $0 == "*" }
    }

    private static func captionLastLine(of lines: [String]) -> String? {
        guard var last = lines.last(where: { !$0.allSatisfy { $0 == " " } })?.trimmingWhitespace() else { return nil }
        while last.hasSuffix("]") { last.removeLast() }
        if last.hasPrefix("[Illustration") { return nil }
        return last.trimmingWhitespace()
    }

    /// The text a block keeps: prose and notes as one line of words,
    /// lines as they are, an illustration's caption without its brackets.
    static func text(of paragraph: Paragraph) -> String {
        switch paragraph.kind {
        case .prose, .footnote:
            return joinedWords(paragraph.lines)
        case .lines, .heading:
            return paragraph.lines.joined(separator: "\n")
        case .illustration:
            var caption = joinedWords(paragraph.lines)
            if caption.hasPrefix("[Illustration") { caption.removeFirst("[Illustration".count) }
            if caption.hasPrefix(":") { caption.removeFirst() }
            if caption.hasSuffix("]") { caption.removeLast() }
            return caption.trimmingWhitespace()
        }
    }

    /// The lines' words one space apart, worked on bytes (a space is one
    /// byte in UTF-8 and never part of another character).
    private static func joinedWords(_ lines: [String]) -> String {
        String(unsafeUninitializedCapacity: lines.reduce(0) { $0 + $1.utf8.count + 1 }) { output in
            var count = 0
            var pendingSpace = false
            for var line in lines {
                line.withUTF8 { utf8 in
                    for byte in utf8 {
                        if byte == 0x20 {
                            pendingSpace = true
                        } else {
                            if pendingSpace && count > 0 {
                                output[count] = 0x20
                                count += 1
                            }
                            pendingSpace = false
                            output[count] = byte
                            count += 1
                        }
                    }
                }
                pendingSpace = true
            }
            return count
        }
    }
}
