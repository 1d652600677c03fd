import BrowseCore
import ComicsKit

/// `comics read REF`: the book's text, cleaned and reflowed, from where
/// reading stopped (or the start), or one section; JSON gives scripts the
/// sections with their paragraphs.
enum ReadCommand {
    static func run(_ context: CommandContext) throws {
        let ref = try context.bookReference(try context.positional("REF"))
        let width = try context.wholeNumber("width", in: 20...1_000) ?? TextLayout.defaultWidth(for: context.terminal)
        let catalog = try context.catalog()
        let sectionNumber = try context.wholeNumber("section", in: 0...Int(Int32.max))
        let paragraph = try context.wholeNumber("at", in: 0...Int(Int32.max))
        let terms = context.arguments.value("search")
        let starts = ["section", "at"].filter { context.arguments.value($0) != nil } + ["from-start", "resume"].filter(context.arguments.has)
        if starts.count > 1 {
            throw ComicsError.usage(
                "--\(starts[0]) and --\(starts[1]) both say where to start", hint: "use one of --section, --at, --from-start and --resume")
        }
        if context.format != .table, let start = ["at", "resume"].first(where: starts.contains) {
            throw ComicsError.usage("--\(start) says where the page starts; -f prints whole sections", hint: "use --section N for one")
        }
        // On a terminal, with nothing asked that only printing does (a
        // section, a width, no pager, a format): the reader.
        if context.format == .table, sectionNumber == nil, context.arguments.value("width") == nil, !context.arguments.has("no-pager"),
           BrowseCommand.isInteractive, BrowseCommand.canPlaceTheCursor(context) {
            // Not downloaded: what would make the download fail is said
            // here; the download itself is the reader's, with its progress
            // line and Esc (a paragraph to open at needs the text first).
            if try catalog.textInfo(ref) == nil {
                if paragraph == nil { _ = try catalog.textAddress(ref) } else { _ = try catalog.downloadTextIfNeeded(ref) }
            }
            if let terms { try catalog.checkSearchSize(terms) }
            let start: ReaderStart
            if let paragraph {
                let count = try catalog.textMap(ref)?.blockCount ?? 0
                guard paragraph < count else { throw noSuchParagraph(ref, count: count) }
                start = .block(paragraph)
            } else {
                start = context.arguments.has("from-start") ? .beginning : .saved
            }
            return try BrowseCommand.read(ref, from: start, searching: terms, context)
        }
        if terms != nil {
            throw ComicsError.usage(
                "--search opens the reader, which needs a terminal (and none of --section, --width, --no-pager, -f)",
                hint: "'comics search TERMS --in \(ref)' prints the hits")
        }
        if let sectionNumber, context.format == .table {
            guard let section = try catalog.openSection(ref, number: sectionNumber) else {
                if sectionNumber == 0 { throw noFrontMatter(ref) }
                throw noSuchSection(ref, count: try catalog.textInfo(ref)?.sectionCount ?? 0)
            }
            try context.write(TextLayout(width: width, terminal: context.terminal).render(section.blocks[...], sectionStarts: section.sectionStarts))
            if context.terminal.isTerminal, !section.blocks.isEmpty { try? catalog.recordReading(section) }
            return
        }
        let opened = try catalog.openText(ref)
        let content = opened.content
        if let sectionNumber, sectionNumber > content.sections.count { throw noSuchSection(ref, count: content.sections.count) }
        if sectionNumber == 0, (content.sections.first?.firstBlock ?? content.blocks.count) == 0 { throw noFrontMatter(ref) }
        if let paragraph, paragraph >= content.blocks.count { throw noSuchParagraph(ref, count: content.blocks.count) }
        guard context.format == .table else {
            try context.write(render(opened, only: sectionNumber, as: context.format))
            return
        }
        // Where reading stopped, for a person at a terminal or a script
        // that asks; the whole text for anything else (`> book.txt`).
        let resumes = context.arguments.has("resume") || (context.terminal.isTerminal && !context.arguments.has("from-start"))
        let blocks: Range<Int>
        if let paragraph {
            blocks = paragraph..<content.blocks.count
        } else if resumes, let position = opened.position, position.position.block < content.blocks.count {
            blocks = position.position.block..<content.blocks.count
            if position.position.block > 0 {
                let section = content.sectionIndex(containing: position.position.block).map { "§\($0 + 1) \(content.sections[$0].title), " } ?? ""
                context.note("reading on from where you stopped (\(section)\(Int(position.percent))%); --from-start reads from the beginning")
            }
        } else {
            blocks = 0..<content.blocks.count
        }
        try context.write(TextLayout(width: width, terminal: context.terminal).render(
            content.blocks[blocks], sectionStarts: Set(content.sections.map(\.firstBlock))))
        if context.terminal.isTerminal, !blocks.isEmpty {
            try? catalog.recordReading(ref, at: TextPosition(block: blocks.lowerBound), in: content)
        }
    }

    private static func noSuchParagraph(_ ref: ItemRef, count: Int) -> ComicsError {
        ComicsError.notFound("the text of \(ref) has \(count) paragraphs, numbered from 0 ('comics search TERMS --in \(ref)' shows where each hit is)")
    }

    private static func noFrontMatter(_ ref: ItemRef) -> ComicsError {
        ComicsError.notFound("\(ref) has no front matter (section 0): its first section begins its text")
    }

    private static func noSuchSection(_ ref: ItemRef, count: Int) -> ComicsError {
        ComicsError.notFound("\(ref) has \(GetCommand.sectionsPhrase(count)); 'comics toc \(ref)' lists them")
    }

    /// Each section with its own paragraphs (up to the next heading); what
    /// comes before the first is the front matter, section 0 at level 0.
    /// JSON is one object holding them; the other formats a section a row.
    private static func render(_ opened: OpenedText, only number: Int?, as format: OutputFormat) -> String {
        let content = opened.content
        let book: [(String, JSONValue)] = [("source", .string(opened.info.ref.source.rawValue)), ("id", .int(opened.info.ref.id))]
        var sections: [JSONValue] = []
        let starts = content.sections.map(\.firstBlock)
        func section(_ number: Int, level: Int, title: String, _ range: Range<Int>) -> JSONValue {
            let paragraphs = JSONValue.array(range.map { index in
                let block = content.blocks[index]
                // The number `--at` takes.
                var fields: [(String, JSONValue)] = [
                    ("paragraph", .int(index)), ("kind", .string(kindName(block.kind))), ("text", .string(TerminalText.sanitize(block.text))),
                ]
                // An illustration's picture, a note's anchor, the notes a
                // paragraph refers to (HTML editions).
                if let link = block.link.map({ TerminalText.sanitize($0, singleLine: true) }) {
                    switch block.kind {
                    case .illustration: fields.append(("picture", .string(link)))
                    case .footnote: fields.append(("anchor", .string(link)))
                    case .prose, .lines, .heading: fields.append(("notes", .array(link.split(separator: " ").map { .string(String($0)) })))
                    }
                }
                return .object(fields)
            })
            let fields: [(String, JSONValue)] = [("section", .int(number)), ("level", .int(level)), ("title", .string(title)), ("paragraphs", paragraphs)]
            return .object(format == .json ? fields : book + fields)
        }
        if number == nil || number == 0, starts.first ?? content.blocks.count > 0 {
            sections.append(section(0, level: 0, title: "Front matter", 0..<(starts.first ?? content.blocks.count)))
        }
        for (index, heading) in content.sections.enumerated() where number == nil || number == index + 1 {
            let end = index + 1 < starts.count ? starts[index + 1] : content.blocks.count
            sections.append(section(
                index + 1, level: TocCommand.outputLevel(heading), title: TerminalText.sanitize(heading.title, singleLine: true),
                heading.firstBlock..<max(heading.firstBlock, end)))
        }
        guard format == .json else {
            return Records.render(sections, as: format, columns: ["source", "id", "section", "level", "title", "paragraphs"])
        }
        let title: JSONValue = opened.title.map { .string(TerminalText.sanitize($0, singleLine: true)) } ?? .null
        return Records.render([.object(book + [("title", title), ("sections", .array(sections))])], as: format, columns: [], single: true)
    }

    private static func kindName(_ kind: TextBlock.Kind) -> String {
        switch kind {
        case .prose: "paragraph"
        case .lines: "lines"
        case .heading: "heading"
        case .illustration: "illustration"
        case .footnote: "footnote"
        }
    }
}
