import ComicsKit

/// `comics get REF...`: books' texts into the cache for offline reading,
/// one at a time; `--favorites` gets every favourite book's.
enum GetCommand {
    static func run(_ context: CommandContext) throws {
        let catalog = try context.catalog()
        var refs = try context.arguments.positionals.map(context.bookReference)
        if context.arguments.has("favorites") {
            refs += try catalog.favorites(source: .books).map(\.ref) + catalog.favoritesNotCached(source: .books)
        } else if refs.isEmpty {
            throw ComicsError.usage("'comics get' needs a book (REF) or --favorites", hint: "see 'comics get --help'")
        }
        let edition = try context.arguments.value("edition").map { value in
            guard let edition = TextEdition(rawValue: value.lowercased()) else {
                throw ComicsError.usage("--edition takes html or text, not \(MessageText.quoted(value))", hint: nil)
            }
            return edition
        }
        var seen = Set<ItemRef>()
        refs = refs.filter { seen.insert($0).inserted }
        var failures: [ComicsError] = []
        var records: [JSONValue] = []
        for (index, ref) in refs.enumerated() {
            if refs.count > 1 { context.progress("getting \(ref) (\(index + 1) of \(refs.count))…") } else { context.progress("getting \(ref)…") }
            do {
                let outcome = try catalog.getText(ref, edition: edition)
                context.endProgress()
                records.append(record(outcome))
                switch outcome {
                case let .alreadyHad(info): context.note("the text of \(ref) is downloaded already (\(editionPhrase(info.edition)), \(ByteCount.describe(info.originalBytes)), \(sectionsPhrase(info.sectionCount))); nothing to do")
                case let .downloaded(info):
                    if context.format == .table {
                        try context.write("got \(ref): \(editionPhrase(info.edition)), \(ByteCount.describe(info.originalBytes)), \(sectionsPhrase(info.sectionCount)), \(info.wordCount) words\n")
                    }
                }
            } catch let error as ComicsError where refs.count > 1 {
                context.endProgress()
                guard error.endsTheRun else {
                    context.warn("\(ref): \(error.message)")
                    failures.append(error)
                    continue
                }
                let left = refs.count - index
                context.warn("\(error.message); \(left == 1 ? "1 text was" : "\(left) texts were") not got: run the command again for \(left == 1 ? "it" : "them")")
                failures += Array(repeating: error, count: left)
                break
            }
        }
        if context.format != .table {
            try context.write(Records.render(records, as: context.format, columns: ["source", "id", "ref", "status", "edition", "bytes", "sections", "words"]))
        }
        if let first = failures.first {
            throw failures.count == refs.count ? first : ComicsError(first.kind, "\(failures.count) of \(refs.count) texts could not be got")
        }
    }

    static func editionPhrase(_ edition: TextEdition) -> String {
        edition == .html ? "HTML edition" : "plain text"
    }

    static func sectionsPhrase(_ count: Int) -> String {
        count == 1 ? "1 section" : "\(count) sections"
    }

    private static func record(_ outcome: TextDownload) -> JSONValue {
        let info = outcome.info
        let status: String = if case .downloaded = outcome { "downloaded" } else { "already downloaded" }
        return .object(Records.identity(info.ref) + [
            ("status", .string(status)), ("edition", .string(info.edition.rawValue)),
            ("bytes", .int(info.originalBytes)),
            ("sections", .int(info.sectionCount)), ("words", .int(info.wordCount)),
        ])
    }
}
