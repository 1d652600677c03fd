/// A plain text's own contents list, found again in its body: what the
/// book itself says its sections are, for books whose headings no pattern
/// knows (stories titled in capitals, a dictionary's letters, numbered
/// rules). The list follows a `CONTENTS` line at the front; each entry is a
/// line (a wrapped one joined to it), less its page number; it is found in
/// the body in order, as a short paragraph that reads the same once case,
/// punctuation, dashes and the way numerals are written are set aside
/// (`Chapter 1` finds `CHAPTER I.`), alone or with the paragraph after it
/// (a number on one line, its title on the next).
enum ContentsList {
    static let maximumEntries = 2_000

    struct Entry {
        var key: String
        var indent: Int
    }

    struct Found {
        var paragraph: Int
        var titleLines: [String]
        var indent: Int
    }

    /// The entries found in the body, in order, when at least two and at
    /// least half of them are, and more than `toBeat`; nil otherwise.
    static func outline(_ paragraphs: [TextBlocks.Paragraph], toBeat: Int) -> [Found]? {
        guard let title = paragraphs.prefix(max(40, paragraphs.count * 2 / 5)).firstIndex(where: isContentsTitle) else { return nil }
        let (entries, end) = self.entries(after: title, in: paragraphs)
        guard entries.count >= 2, entries.count > toBeat else { return nil }
        // Only a paragraph whose first word begins an entry is read whole.
        let firstWords = Set(entries.compactMap { $0.key.split(separator: " ").first.map(String.init) })
        // Short paragraphs after the list, by key: alone, and with the next.
        // A paragraph is read with the next only when it begins an entry.
        var beginnings = Set<String>()
        for entry in entries {
            let words = entry.key.split(separator: " ")
            for count in 1..<max(1, words.count) { beginnings.insert(words.prefix(count).joined(separator: " ")) }
        }
        var alone: [String: [Int]] = [:]
        var withNext: [String: [Int]] = [:]
        for index in end..<paragraphs.count {
            let lines = paragraphs[index].lines
            guard isShort(paragraphs[index]), firstWords.contains(firstWordKey(lines[0])) else { continue }
            let own = key(lines.joined(separator: " "))
            alone[own, default: []].append(index)
            if lines.count == 1, beginnings.contains(own), index + 1 < paragraphs.count, isShort(paragraphs[index + 1]) {
                withNext[key(lines[0] + " " + paragraphs[index + 1].lines.joined(separator: " ")), default: []].append(index)
            }
        }
        var found: [Found] = []
        var cursor = end
        for entry in entries {
            func next(_ table: [String: [Int]]) -> Int? { table[entry.key]?.first { $0 >= cursor } }
            let single = next(alone), double = next(withNext)
            guard let paragraph = [single, double].compactMap({ $0 }).min() else { continue }
            var titleLines = paragraphs[paragraph].lines.map { $0.trimmingWhitespace() }
            if paragraph == double && paragraph != single {
                titleLines += paragraphs[paragraph + 1].lines.map { $0.trimmingWhitespace() }
            }
            found.append(Found(paragraph: paragraph, titleLines: titleLines, indent: entry.indent))
            cursor = paragraph + (titleLines.count > paragraphs[paragraph].lines.count ? 2 : 1)
        }
        guard found.count >= 2, found.count * 2 >= entries.count else { return nil }
        return found
    }

    /// The list's entries and the paragraph after it: lines until the body
    /// begins (the first entry again) or prose does.
    private static func entries(after title: Int, in paragraphs: [TextBlocks.Paragraph]) -> ([Entry], Int) {
        var entries: [Entry] = []
        var index = title + 1
        while index < paragraphs.count, entries.count < maximumEntries {
            let paragraph = paragraphs[index]
            if paragraph.kind == .prose && paragraph.lines.count > 1 && !entries.isEmpty { break }
            if let first = entries.first, key(paragraph.lines.joined(separator: " ")) == first.key || key(paragraph.lines[0]) == first.key {
                break
            }
            guard paragraph.kind != .illustration, paragraph.kind != .footnote else {
                index += 1
                continue
            }
            for line in paragraph.lines {
                let indent = line.prefix { $0 == " " }.count
                let text = withoutPageNumber(line.trimmingWhitespace())
                guard !text.isEmpty, !["page", "chap", "chapter", "pages"].contains(key(text)) else { continue }
                // A line that goes on lower-case, indented further, is the
                // entry above it wrapped.
                if let last = entries.last, indent > last.indent, text.first?.isLowercase == true {
                    entries[entries.count - 1].key = key(last.key + " " + text)
                    continue
                }
                let entryKey = key(text)
                if !entryKey.isEmpty { entries.append(Entry(key: entryKey, indent: indent)) }
            }
            index += 1
        }
        return (entries, index)
    }

    static func isContentsTitle(_ paragraph: TextBlocks.Paragraph) -> Bool {
        paragraph.lines.count == 1 && contentsTitles.contains(letters(of: paragraph.lines[0]))
    }

    /// A contents list's title or a list of illustrations' (`CONTENTS.`,
    /// `A List of Illustrations`, `THE TABLE OF CONTENTS`, a French
    /// book's `TABLE`), one line.
    static func isListTitle(_ line: String) -> Bool {
        let title = titleKey(line)
        return contentsTitles.contains(title) || picturesListTitles.contains(title) || title == "table"
    }

    /// A list of illustrations' title (`LIST OF PLATES`): its entries name
    /// pictures, not sections.
    static func isPicturesListTitle(_ line: String) -> Bool {
        picturesListTitles.contains(titleKey(line))
    }

    /// The longest a list's title is (`TABLE OF CONTENTS.`, with room).
    private static let longestTitleBytes = 64

    private static let picturesListTitles: Set<String> = ["illustrations", "listofillustrations", "listofplates", "plates"]

    /// A title's letters, lowercased, without a leading article; none for
    /// a line longer than any list's title (every heading is asked).
    private static func titleKey(_ line: String) -> String {
        guard line.utf8.count <= longestTitleBytes else { return "" }
        var words = line.lowercased().split(whereSeparator: { !$0.isLetter })
        if words.count > 1, ["a", "the"].contains(words[0]) { words.removeFirst() }
        return words.joined()
    }

    private static let contentsTitles: Set<String> = [
        "contents", "tableofcontents", "inhalt", "inhaltsverzeichnis", "tabledesmatières", "tabledesmatieres", "índice",
        "indice", "sisällys", "sisällysluettelo", "inhoud", "contenido", "contenidos", "sommaire", "indiceg", "contentsofthebook",
    ]

    private static func letters(of line: String) -> String { String(line.lowercased().filter { $0.isLetter }) }

    /// At most four lines and forty words: a heading, not running text.
    private static func isShort(_ paragraph: TextBlocks.Paragraph) -> Bool {
        guard paragraph.kind != .illustration, paragraph.kind != .footnote, paragraph.lines.count <= 4 else { return false }
        return paragraph.lines.reduce(0) { $0 + TextBlock(.prose, $1).wordCount } <= 40
    }

    /// `The Adventure of the Speckled Band ..... 173` → without `173`: a
    /// page in digits or lower-case roman (`xiv`), unless a heading word
    /// alone stands before it (`CHAPTER 12` is the entry itself).
    private static func withoutPageNumber(_ line: String) -> String {
        var words = line.split(separator: " ")
        if words.count > 1, let last = words.last, last.count <= 4,
           last.allSatisfy({ $0.isNumber }) || (last == last.lowercased() && HeadingPattern.romanValue(String(last), lowercaseToo: true) != nil),
           !(words.count == 2 && isNumberKeyword(words[0])) {
            words.removeLast()
        }
        while let last = words.last, last.allSatisfy({ $0 == "." || $0 == "…" || $0 == "_" }) { words.removeLast() }
        return words.joined(separator: " ")
    }

    /// `CHAPTER 12`: the number belongs to the entry, not to a page.
    private static func isNumberKeyword(_ word: Substring) -> Bool {
        HeadingPattern.isKeyword(word)
    }

    private static let romanLetters = Set("ivxlcdm".utf8)

    /// `key` of an ASCII text (most of a book's lines), read by its bytes.
    private static func asciiKey(_ text: String) -> String {
        var words: [String] = []
        var current: [UInt8] = []
        func flush() {
            guard !current.isEmpty else { return }
            words.append(wordKey(lowercased: String(decoding: current, as: UTF8.self)))
            current.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if isWordByte(byte) {
                current.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            } else {
                flush()
            }
        }
        flush()
        return words.joined(separator: " ")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// A letter or a digit; ASCII told without looking up the character's
    /// properties.
    private static func isWordCharacter(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return isWordByte(ascii) }
        return character.isLetter || character.isNumber
    }

    /// A lower-cased word's key: a numeral, roman or spelled out, as digits.
    private static func wordKey(lowercased lower: String) -> String {
        if lower.utf8.count <= 8, lower.utf8.allSatisfy({ romanLetters.contains($0) }), let roman = HeadingPattern.romanValue(lower.uppercased()) {
            return String(roman)
        }
        if let number = SpelledNumbers.number(lowercased: lower) { return String(number) }
        return lower
    }

    /// The key of a line's first word alone.
    static func firstWordKey(_ line: String) -> String {
        // Most lines begin with an ASCII word: read by its bytes.
        let opening = line.utf8.prefix { $0 < 0x80 && !isWordByte($0) }
        let asciiWord = line.utf8.dropFirst(opening.count).prefix(while: isWordByte)
        if !asciiWord.isEmpty, (line.utf8.dropFirst(opening.count + asciiWord.count).first ?? 0) < 0x80 {
            return asciiKey(String(Substring(asciiWord)))
        }
        let start = line.firstIndex(where: isWordCharacter) ?? line.endIndex
        let word = line[start...].prefix(while: isWordCharacter)
        return key(String(word))
    }

    /// Words lower-cased without punctuation; numerals, roman or spelled
    /// out, as digits.
    static func key(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiKey(text) }
        var words: [String] = []
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            words.append(wordKey(lowercased: current.lowercased()))
            current = ""
        }
        for character in text {
            if isWordCharacter(character) {
                current.append(character)
            } else {
                flush()
            }
        }
        flush()
        return words.joined(separator: " ")
    }
}
