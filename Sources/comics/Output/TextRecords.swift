import ComicsKit

/// What `show` and `fav list` say of a book's text and of where its
/// reader stopped.
enum TextRecords {
    /// `reading: {section, percent, at}` for scripts.
    static func reading(_ position: ReadingPosition) -> JSONValue {
        .object([
            ("section", position.section.map { .int($0) } ?? .null), ("percent", .int(Int(position.percent))),
            ("at", .string(CivilTime.timestamp(position.at))),
        ])
    }

    static func text(_ info: TextInfo) -> JSONValue {
        .object([
            ("edition", .string(info.edition.rawValue)), ("bytes", .int(info.originalBytes)), ("stored_bytes", .int(info.storedBytes)), ("sections", .int(info.sectionCount)),
            ("outline_from", info.outlineOrigin.map { .string($0.rawValue) } ?? .null),
            ("passed_over", info.passedOver.map { .string($0.rawValue) } ?? .null),
            ("words", .int(info.wordCount)), ("fetched_at", .string(CivilTime.timestamp(info.fetchedAt))),
            ("pictures", .object([
                ("kept", .int(info.pictures.kept)), ("bytes", .int(info.pictures.bytes)),
                ("skipped", .int(info.pictures.skipped)), ("missing", .int(info.pictures.missing)),
            ])),
        ])
    }

    /// A book's record with its text and reading members added.
    static func adding(_ info: TextInfo?, _ position: ReadingPosition?, to record: JSONValue) -> JSONValue {
        guard case var .object(members) = record else { return record }
        members.append(("text", info.map(text) ?? .null))
        if let position { members.append(("reading", reading(position))) }
        return .object(members)
    }

    /// The lines `show` prints for a book (and browse's detail screen):
    /// its text, and where reading stopped, by the section's title.
    static func fields(_ ref: ItemRef, info: TextInfo?, position: ReadingPosition?, catalog: Catalog) throws -> [(String, String)] {
        var title: String?
        if info != nil, let number = position?.section {
            title = try catalog.textOutline(ref).outline.first { $0.number == number }?.section.title
        }
        return fields(ref, info: info, position: position, sectionTitle: title)
    }

    /// The edition, and the one passed over for it.
    private static func editionPhrase(_ info: TextInfo) -> String {
        let edition = GetCommand.editionPhrase(info.edition)
        guard let passed = info.passedOver, passed != info.edition else { return edition }
        return "\(edition) (its \(GetCommand.editionPhrase(passed)) marks no chapters)"
    }

    /// The sections, and where they were found.
    private static func sectionsPhrase(_ info: TextInfo) -> String {
        let sections = GetCommand.sectionsPhrase(info.sectionCount)
        switch info.outlineOrigin {
        case .contents: return sections + " from its contents"
        case .headings: return sections + " from its headings"
        case nil: return sections
        }
    }

    private static func fields(_ ref: ItemRef, info: TextInfo?, position: ReadingPosition?, sectionTitle: String?) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let info {
            fields.append(("Text", "downloaded, \(editionPhrase(info)), \(ByteCount.describe(info.originalBytes)), \(sectionsPhrase(info)), \(info.wordCount) words\(GetCommand.picturesPhrase(info.pictures))"))
        } else {
            fields.append(("Text", "not downloaded ('comics get \(ref)')"))
        }
        if let position {
            let place = [position.section.map { "§\($0)" }, sectionTitle.map { TerminalText.sanitize($0, singleLine: true) }]
                .compactMap { $0 }.joined(separator: " ")
            fields.append(("Reading", (place.isEmpty ? "" : place + ", ") + "\(Int(position.percent))%, \(CivilTime.timestamp(position.at))"))
        }
        return fields
    }
}
