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
        var pictureFailures: [ComicsError] = []
        var records: [JSONValue] = []
        for (index, ref) in refs.enumerated() {
            if refs.count > 1 { context.progress("getting \(ref) (\(index + 1) of \(refs.count))…") } else { context.progress("getting \(ref)…") }
            do {
                var outcome = try catalog.getText(ref, edition: edition)
                let pictures = try catalog.fetchPictures(ref) { done, total in context.progress("getting \(ref)'s pictures: \(done) of \(total)…") }
                context.endProgress()
                if pictures.fetched > 0 || !pictures.skipped.isEmpty, let info = try catalog.textInfo(ref) {
                    outcome = if case .alreadyHad = outcome { .alreadyHad(info) } else { .downloaded(info) }
                }
                warnAboutSkipped(pictures.skipped, of: ref, context: context)
                if let failure = pictures.failure {
                    let missing = pictures.missing == 1 ? "1 picture was" : "\(pictures.missing) pictures were"
                    pictureFailures.append(ComicsError(failure.kind, "\(ref): \(missing) not fetched (\(failure.message)); 'comics get \(ref)' again fetches \(pictures.missing == 1 ? "it" : "them")"))
                }
                records.append(record(outcome))
                switch outcome {
                case let .alreadyHad(info) where pictures.fetched > 0:
                    if context.format == .table {
                        let fetched = pictures.fetched == 1 ? "1 more picture" : "\(pictures.fetched) more pictures"
                        try context.write("got \(fetched) of \(ref): \(picturesPhrase(info.pictures).dropFirst(2))\n")
                    }
                case let .alreadyHad(info) where pictures.failure == nil: context.note("the text of \(ref) is downloaded already (\(editionPhrase(info.edition)), \(ByteCount.describe(info.originalBytes)), \(sectionsPhrase(info.sectionCount))\(picturesPhrase(info.pictures))); nothing to do")
                case let .downloaded(info):
                    if context.format == .table {
                        try context.write("got \(ref): \(editionPhrase(info.edition)), \(ByteCount.describe(info.originalBytes)), \(sectionsPhrase(info.sectionCount)), \(info.wordCount) words\(picturesPhrase(info.pictures))\n")
                    }
                case .alreadyHad: break
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
            try context.write(Records.render(records, as: context.format, columns: ["source", "id", "ref", "status", "edition", "bytes", "sections", "words", "pictures", "pictures_skipped", "pictures_missing"]))
        }
        if let first = failures.first {
            for failure in pictureFailures { context.warn(failure.message) }
            throw failures.count == refs.count ? first : ComicsError(first.kind, "\(failures.count) of \(refs.count) texts could not be got")
        }
        if let first = pictureFailures.first {
            for failure in pictureFailures.dropFirst() { context.warn(failure.message) }
            throw first
        }
    }

    /// Pictures skipped for good, each said, the first few at length.
    private static func warnAboutSkipped(_ skipped: [String], of ref: ItemRef, context: CommandContext) {
        // Four are said whole; past that, three and how many more.
        let said = skipped.count <= 4 ? skipped.count : 3
        for line in skipped.prefix(said) { context.warn("\(ref): picture \(line); skipped") }
        if skipped.count > said { context.warn("\(ref): \(skipped.count - said) more pictures skipped ('comics show \(ref)' counts them)") }
    }

    /// `, 12 pictures (1.2 MiB), 1 skipped, 3 not fetched`; nothing for a
    /// text without pictures.
    static func picturesPhrase(_ pictures: TextPictureCount) -> String {
        guard pictures.total > 0 else { return "" }
        var parts: [String] = []
        func add(_ count: Int, _ what: String) {
            guard count > 0 else { return }
            parts.append(parts.isEmpty ? "\(count == 1 ? "1 picture" : "\(count) pictures") \(what)" : "\(count) \(what)")
        }
        add(pictures.kept, "(\(ByteCount.describe(pictures.bytes)))")
        add(pictures.skipped, "skipped")
        add(pictures.missing, "not fetched")
        return ", " + parts.joined(separator: ", ")
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
            ("pictures", .int(info.pictures.kept)), ("pictures_skipped", .int(info.pictures.skipped)),
            ("pictures_missing", .int(info.pictures.missing)),
        ])
    }
}
