import ComicsKit

/// `comics toc REF`: a book's sections as a numbered, indented outline,
/// with where each begins and how long it is. Reads no text.
enum TocCommand {
    static func run(_ context: CommandContext) throws {
        let ref = try context.bookReference(try context.positional("REF"))
        let (info, outline) = try context.catalog().textOutline(ref)
        let total = max(1, info.wordCount)
        func percent(_ entry: OutlineEntry) -> Int { entry.startWord * 100 / total }
        guard context.format == .table else {
            let records: [JSONValue] = outline.map { entry in
                .object(Records.identity(ref) + [
                    ("section", .int(entry.number)), ("level", .int(outputLevel(entry.section))),
                    ("title", .string(TerminalText.sanitize(entry.section.title, singleLine: true))),
                    ("percent", .int(percent(entry))), ("words", .int(entry.words)),
                ])
            }
            try context.write(Records.render(records, as: context.format, columns: ["source", "id", "ref", "section", "level", "title", "percent", "words"]))
            return
        }
        guard !outline.isEmpty else {
            context.note("the text of \(ref) holds nothing to read")
            return
        }
        let numberWidth = String(outline.count).count
        let wordsWidth = max(5, outline.map { String($0.words).count }.max() ?? 0)
        let width = context.terminal.width ?? 80
        let titleWidth = max(10, width - numberWidth - wordsWidth - 9)
        var output = DisplayWidth.pad(String(repeating: " ", count: max(0, numberWidth - 1)) + "#", to: numberWidth) + "  "
            + DisplayWidth.pad("SECTION", to: titleWidth) + "   AT" + " " + String(repeating: " ", count: wordsWidth - 5) + "WORDS\n"
        for entry in outline {
            let number = String(repeating: " ", count: numberWidth - String(entry.number).count) + String(entry.number)
            let indent = String(repeating: "  ", count: min(entry.section.level, 6))
            let title = DisplayWidth.truncate(indent + TerminalText.sanitize(entry.section.title, singleLine: true), to: titleWidth)
            let at = String(percent(entry)) + "%"
            let words = String(entry.words)
            output += "\(number)  \(DisplayWidth.pad(title, to: titleWidth)) \(String(repeating: " ", count: max(0, 4 - at.count)))\(at) "
                + String(repeating: " ", count: wordsWidth - words.count) + words + "\n"
        }
        try context.write(output)
    }

    /// A heading's level as scripts see it: 1 for the outermost (level 0
    /// is the front matter before the first heading).
    static func outputLevel(_ section: TextSection) -> Int {
        section.level + 1
    }
}
