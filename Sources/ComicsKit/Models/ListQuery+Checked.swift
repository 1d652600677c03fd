extension ListQuery {
    /// A query as `--search`, `--language`, `--topic` and `--sort` give it,
    /// checked, with the message the CLI gives: browse's `:` prompt checks
    /// its words with it.
    public static func checked(limit: Int? = nil, search: String?, languages: String?, topic: String?, sort: String?) throws -> ListQuery {
        var order: ListQuery.SortOrder?
        if let sort {
            order = ListQuery.SortOrder(rawValue: sort.lowercased())
            guard order != nil else {
                throw ComicsError.usage(
                    "unknown sort order \(MessageText.quoted(sort))",
                    hint: "use one of: \(ListQuery.SortOrder.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        return ListQuery(limit: limit, search: search, languages: try self.languageCodes(languages), topic: topic, sort: order)
    }

    /// `en,fr`: two- or three-letter language codes, as Project Gutenberg uses.
    private static func languageCodes(_ text: String?) throws -> [String] {
        guard let text else { return [] }
        let codes = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace().lowercased()
        }
        for code in codes where !(2...3).contains(code.count) || !code.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ComicsError.usage(
                "\(MessageText.quoted(code)) in --language \(MessageText.quoted(text)) is not a language code",
                hint: "give two- or three-letter codes separated by commas, such as en,fr or enm")
        }
        return codes
    }
}
