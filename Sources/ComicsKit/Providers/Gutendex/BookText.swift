/// Book attributes as plain text for people: authors, translators and
/// editors with their years,
/// one subject or download link a line, summaries as paragraphs.
enum BookText {
    static func describe(_ attribute: Attribute, brief: Bool) -> String? {
        let values = attribute.value.arrayValue ?? []
        if brief {
            guard attribute.key == "authors" else { return nil }
            let names = values.compactMap { $0["name"]?.stringValue }
            return names.count > 1 ? "\(names[0]) et al." : names.first ?? ""
        }
        switch attribute.key {
        case "authors", "translators", "editors":
            return values.map(person).joined(separator: "; ")
        case "subjects", "bookshelves":
            return values.compactMap(\.stringValue).joined(separator: "\n")
        case "summaries":
            return values.compactMap(\.stringValue).joined(separator: "\n\n")
        case "formats":
            guard case let .object(members) = attribute.value else { return nil }
            return members.map { type, url in "\(type): \(url.stringValue ?? "")" }.joined(separator: "\n")
        default:
            return nil
        }
    }

    /// "Austen, Jane (1775–1817)", "Homer (750 BC–650 BC)", "Ward, Grady (1951–)".
    private static func person(_ author: JSONValue) -> String {
        let name = author["name"]?.stringValue ?? ""
        let birth = author["birth_year"]?.intValue
        let death = author["death_year"]?.intValue
        guard birth != nil || death != nil else { return name }
        return "\(name) (\(birth.map(year) ?? "")–\(death.map(year) ?? ""))"
    }

    private static func year(_ year: Int) -> String {
        year < 0 ? "\(-year) BC" : String(year)
    }
}
