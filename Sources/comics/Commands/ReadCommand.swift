import ComicsKit

/// `comics read REF`: the book's text, cleaned and reflowed, from where
/// reading stopped (or the start), or one section; JSON gives scripts the
/// sections with their paragraphs.
enum ReadCommand {
    static func run(_ context: CommandContext) throws {
        let ref = try context.bookReference(try context.positional("REF"))
        let width = try context.wholeNumber("width", in: 20...1_000) ?? TextLayout.defaultWidth(for: context.terminal)
        let catalog = try context.catalog()
        let sectionNumber = try context.wholeNumber("section", in: 1...Int(Int32.max))
        // On a terminal, with nothing asked but the book (not even to skip
        // the pager): the reader.
        if context.format == .table, sectionNumber == nil, !["from-start", "width", "no-pager"].contains(where: context.arguments.has),
           BrowseCommand.isInteractive, BrowseCommand.canPlaceTheCursor(context) {
            _ = try catalog.textInfo(ref) ?? catalog.downloadTextIfNeeded(ref)
            return try BrowseCommand.read(ref, context)
        }
        if let sectionNumber, context.format == .table {
            guard let section = try catalog.openSection(ref, number: sectionNumber) else {
                throw noSuchSection(ref, count: try catalog.textInfo(ref)?.sectionCount ?? 0)
            }
            try context.write(TextLayout(width: width, terminal: context.terminal).render(section.blocks[...]))
            if context.terminal.isTerminal, !section.blocks.isEmpty { try? catalog.recordReading(section) }
            return
        }
        let opened = try catalog.openText(ref)
        let content = opened.content
        if let sectionNumber, sectionNumber > content.sections.count { throw noSuchSection(ref, count: content.sections.count) }
        guard context.format == .table else {
            try context.write(Records.render(records(content, only: sectionNumber), as: context.format, columns: ["number", "level", "title", "paragraphs"]))
            return
        }
        let blocks: Range<Int>
        if !context.arguments.has("from-start"), let position = opened.position, position.position.block < content.blocks.count {
            blocks = position.position.block..<content.blocks.count
            if position.position.block > 0 {
                let section = content.sectionIndex(containing: position.position.block).map { "§\($0 + 1) \(content.sections[$0].title), " } ?? ""
                context.note("reading on from where you stopped (\(section)\(Int(position.percent))%); --from-start reads from the beginning")
            }
        } else {
            blocks = 0..<content.blocks.count
        }
        try context.write(TextLayout(width: width, terminal: context.terminal).render(content.blocks[blocks]))
        if context.terminal.isTerminal, !blocks.isEmpty {
            try? catalog.recordReading(ref, at: TextPosition(block: blocks.lowerBound), in: content)
        }
    }

    private static func noSuchSection(_ ref: ItemRef, count: Int) -> ComicsError {
        ComicsError.notFound("\(ref) has \(GetCommand.sectionsPhrase(count)); 'comics toc \(ref)' lists them")
    }

    /// Each section with its own paragraphs (up to the next heading); what
    /// comes before the first is the front matter, section 0.
    private static func records(_ content: BookContent, only number: Int?) -> [JSONValue] {
        var records: [JSONValue] = []
        let starts = content.sections.map(\.firstBlock)
        func paragraphs(_ range: Range<Int>) -> JSONValue {
            .array(content.blocks[range].map { block in
                .object([("kind", .string(kindName(block.kind))), ("text", .string(TerminalText.sanitize(block.text)))])
            })
        }
        if number == nil, starts.first ?? content.blocks.count > 0 {
            records.append(.object([
                ("number", .int(0)), ("level", .int(0)), ("title", .string("front matter")),
                ("paragraphs", paragraphs(0..<(starts.first ?? content.blocks.count))),
            ]))
        }
        for (index, section) in content.sections.enumerated() where number == nil || number == index + 1 {
            let end = index + 1 < starts.count ? starts[index + 1] : content.blocks.count
            records.append(.object([
                ("number", .int(index + 1)), ("level", .int(section.level)), ("title", .string(section.title)),
                ("paragraphs", paragraphs(section.firstBlock..<max(section.firstBlock, end))),
            ]))
        }
        return records
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
