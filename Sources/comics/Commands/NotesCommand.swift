import ComicsKit

/// `comics notes [REF]`: the notes written in the reader, for scripts and
/// for pasting into a notebook (`-f markdown`).
enum NotesCommand {
    static func run(_ context: CommandContext) throws {
        let ref = try context.arguments.positionals.first.map(context.bookReference)
        if context.arguments.positionals.count > 1 {
            throw ComicsError.usage("'comics notes' takes one book at most", hint: "or none, for every book's notes")
        }
        let entries = try context.catalog().notes(ref)
        if context.wantsMarkdown { return try context.write(markdown(entries)) }
        if context.format != .table {
            return try context.write(Records.render(entries.map(record), as: context.format, columns: [
                "source", "id", "ref", "number", "section", "section_title", "percent", "paragraph", "note", "at",
            ]))
        }
        guard !entries.isEmpty else {
            context.note(ref.map { "\($0) has no notes yet: a in the reader writes one" } ?? "no notes yet: a in the reader writes one")
            return
        }
        var lines: [String] = []
        for entry in entries {
            let place = [entry.section.map { "§\($0.number) \($0.section.title)" }, "\(Int(entry.note.percent))%"].compactMap { $0 }
            lines.append("\(entry.ref) \(entry.bookTitle ?? "") · " + place.joined(separator: " · "))
            lines.append("  “\(entry.quote)”")
            lines.append("  \(entry.note.note ?? "")")
        }
        try context.write(lines.map { TerminalText.sanitize($0, singleLine: true) + "\n" }.joined())
    }

    private static func record(_ entry: NoteEntry) -> JSONValue {
        .object(Records.identity(entry.ref) + [
            ("number", .int(entry.note.number)),
            ("section", entry.section.map { .int($0.number) } ?? .null),
            ("section_title", entry.section.map { .string($0.section.title) } ?? .null),
            ("percent", .int(Int(entry.note.percent))),
            ("paragraph", .string(entry.quote)),
            ("note", .string(entry.note.note ?? "")),
            ("at", .string(CivilTime.timestamp(entry.note.at))),
        ])
    }

    /// Per book a heading, then per note its section, the paragraph's first
    /// sentence quoted, and the note. Text that would be markup is escaped.
    static func markdown(_ entries: [NoteEntry]) -> String {
        var output = ""
        var book: ItemRef?
        for entry in entries {
            if entry.ref != book {
                book = entry.ref
                output += (output.isEmpty ? "" : "\n") + "## " + escaped(entry.bookTitle ?? "\(entry.ref)") + " (\(entry.ref))\n"
            }
            let section = entry.section.map { "§\($0.number) " + escaped($0.section.title) } ?? "\(Int(entry.note.percent))%"
            output += "\n### \(section)\n\n> \(escaped(entry.quote))\n\n\(escaped(entry.note.note ?? ""))\n"
        }
        return output
    }

    /// One line of plain text, safe in Markdown: no control, no line break,
    /// and the characters that start markup backslashed.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in TerminalText.sanitize(text, singleLine: true) {
            if "\\`*_[]<>#|".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
