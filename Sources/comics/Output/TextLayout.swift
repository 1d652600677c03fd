import ComicsKit

/// A book's blocks as lines of a given width: prose and notes reflowed,
/// verse and indented blocks line by line with their indentation (a line
/// wider than the column goes on under itself), headings set apart by a
/// second blank line before them (a heading that opens no section right
/// under another, `THE TITLE` under `CHAPTER I`, follows it with none), illustrations marked. On a terminal `_italics_` are drawn
/// in italics; elsewhere they stay as written. One blank line between blocks.
struct TextLayout {
    let width: Int
    let terminal: Terminal

    /// The default column: the terminal's width up to 80, 80 off one.
    static func defaultWidth(for terminal: Terminal) -> Int {
        guard terminal.isTerminal, let width = terminal.width else { return 80 }
        return max(20, min(80, width))
    }

    /// `sectionStarts`: the blocks (by their index in `blocks`) that open
    /// sections.
    func render(_ blocks: ArraySlice<TextBlock>, sectionStarts: Set<Int>) -> String {
        var output = ""
        var previous: TextBlock.Kind?
        for (index, block) in zip(blocks.indices, blocks) {
            let continuesHeading = Self.continuesHeading(block, after: previous, opensSection: sectionStarts.contains(index))
            previous = block.kind
            if !output.isEmpty && !continuesHeading { output += "\n" }
            for line in lines(of: block).drop(while: { (output.isEmpty || continuesHeading) && $0.isEmpty }) {
                output += line
                output += "\n"
            }
        }
        return output
    }

    /// A heading that opens no section, right after another heading, is
    /// the rest of its title: no blank line between them.
    static func continuesHeading(_ block: TextBlock, after previous: TextBlock.Kind?, opensSection: Bool) -> Bool {
        block.kind == .heading && previous == .heading && !opensSection
    }

    func lines(of block: TextBlock) -> [String] {
        let text = TerminalText.sanitize(block.text)
        switch block.kind {
        case .prose:
            return styled(DisplayWidth.wrap(text, width: width))
        case .footnote:
            return styled(Self.noteLines(text, width: width))
        case .illustration:
            let caption = text.isEmpty ? "[Illustration]" : "[Illustration: \(text)]"
            return DisplayWidth.wrap(caption, width: width).map(terminal.dim)
        case .heading:
            let lines = text.split(separator: "\n").flatMap { DisplayWidth.wrap($0.trimmingWhitespace(), width: width) }
            return [""] + lines.map(terminal.bold)
        case .lines:
            return styled(text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { kept(String($0)) })
        }
    }

    /// A kept line as it is; one wider than the column continues below,
    /// four columns further in than it began (a hanging indent, within
    /// half the width), so a continuation never reads as a line of its own.
    private func kept(_ line: String) -> [String] {
        guard DisplayWidth.of(line) > width else { return [line] }
        let indentation = String(line.prefix { $0 == " " }.prefix(width / 2))
        let body = String(line.dropFirst(indentation.count))
        let wrapped = DisplayWidth.wrap(body, width: max(1, width - indentation.count))
        guard let first = wrapped.first, wrapped.count > 1, body.hasPrefix(first) else { return wrapped.map { indentation + $0 } }
        let hanging = indentation + String(repeating: " ", count: max(0, min(Self.hangingIndent, width / 2 - indentation.count)))
        let rest = body.dropFirst(first.count).drop { $0 == " " }
        return [indentation + first] + DisplayWidth.wrap(String(rest), width: max(1, width - hanging.count)).map { hanging + $0 }
    }

    static let hangingIndent = 4

    /// A note wrapped under its first word, past its label (`[1]`, `12.`,
    /// `(*)`, `†`, `[Footnote 3:`), so the label stands out at its left.
    static func noteLines(_ text: String, width: Int) -> [String] {
        guard let label = noteLabel(of: text), DisplayWidth.of(label) < width / 3 else { return DisplayWidth.wrap(text, width: width) }
        let hanging = String(repeating: " ", count: DisplayWidth.of(label) + 1)
        let body = text.dropFirst(label.count).drop { $0 == " " }
        let lines = DisplayWidth.wrap(String(body), width: width - hanging.count)
        return [label + " " + lines[0]] + lines.dropFirst().map { hanging + $0 }
    }

    /// The label a note opens with, when what follows it is its words.
    private static func noteLabel(of text: String) -> String? {
        if text.hasPrefix("[Footnote "), let colon = text.prefix(16).firstIndex(where: { $0 == ":" || $0 == "]" }) {
            let label = String(text[...colon])
            return text[colon...].dropFirst().first == " " ? label : nil
        }
        guard let space = text.prefix(10).firstIndex(of: " ") else { return nil }
        let label = String(text[..<space])
        var bare = label
        if bare.count > 1, let last = bare.last, last == "." || last == ":" || (last == ")" && !bare.hasPrefix("(")) { bare.removeLast() }
        if bare.count > 2, let first = bare.first, let last = bare.last, (first == "[" && last == "]") || (first == "(" && last == ")") {
            bare = String(bare.dropFirst().dropLast())
        }
        return NoteMarks.isLabel(bare) ? label : nil
    }

    /// `_italics_` in italics on a terminal that takes colour; the pair may
    /// span lines, so the state runs on from one line to the next.
    private func styled(_ lines: [String]) -> [String] {
        guard terminal.useColor else { return lines }
        var italic = false
        return lines.map { line in
            guard line.contains("_") || italic else { return line }
            return Self.italicRuns(line, italic: &italic).map { $0.isItalic ? "\u{1B}[3m\($0.text)\u{1B}[23m" : $0.text }.joined()
        }
    }

    /// A line cut where its underscores toggle italics (dropped), `italic`
    /// carrying the state from the line before to the next: the one rule
    /// for printed text and the reader's runs.
    static func italicRuns(_ line: String, italic: inout Bool) -> [(text: String, isItalic: Bool)] {
        var runs: [(text: String, isItalic: Bool)] = []
        var current = ""
        for character in line {
            if character == "_" {
                if !current.isEmpty { runs.append((current, italic)) }
                current = ""
                italic.toggle()
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { runs.append((current, italic)) }
        return runs
    }
}
