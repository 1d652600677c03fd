import ComicsKit
import FoundationEssentials

/// The `table` format: for people. Every string from the network goes
/// through `TerminalText.sanitize` before it is printed.
struct TableRenderer {
    let terminal: Terminal
    /// Where each item's source is found, for its summary columns and the
    /// plain-text form of its attributes.
    let catalog: Catalog

    /// Summary cells wider than this are cut, so the title keeps its room.
    private static let maximumSummaryWidth = 30

    private func clean(_ text: String) -> String {
        TerminalText.sanitize(text, singleLine: true)
    }

    /// One row per item: favourite mark, id (`books:7` when sources are
    /// mixed, the form `show` takes), summary attributes of the sources
    /// present, title. `highlightedTitles` replace titles,
    /// their `SearchMatch` markers drawn bold (or dropped without colour).
    func list(_ items: [CachedItem], showSource: Bool, highlightedTitles: [ItemRef: String] = [:]) -> String {
        guard !items.isEmpty else { return "" }
        let present = Set(items.map(\.ref.source)).sorted().compactMap { try? catalog.source($0) }
        var summaryAttributes: [String] = []
        for key in present.flatMap(\.summaryAttributes) where !summaryAttributes.contains(key) {
            summaryAttributes.append(key)
        }
        var headers = ["", showSource ? "REF" : "ID"]
        headers += summaryAttributes.map { $0.uppercased() }
        let rows: [[String]] = items.map { cached in
            var row = [cached.isFavorite ? "★" : " ", showSource ? cached.ref.description : String(cached.ref.id)]
            row += summaryAttributes.map { key in
                DisplayWidth.truncate(text(of: key, in: cached, brief: true), to: Self.maximumSummaryWidth)
            }
            return row
        }
        var widths = headers.map(DisplayWidth.of)
        for row in rows {
            for (index, value) in row.enumerated() {
                widths[index] = max(widths[index], DisplayWidth.of(value))
            }
        }
        let fixedWidth = widths.reduce(0, +) + widths.count
        let titleWidth = terminal.width.map { max(10, $0 - fixedWidth) }
        let idColumn = 1

        func line(_ row: [String], title: String, isHeader: Bool) -> String {
            let cells = row.enumerated().map { index, value in
                index == idColumn
                    ? String(repeating: " ", count: widths[index] - DisplayWidth.of(value)) + value
                    : DisplayWidth.pad(value, to: widths[index])
            }
            let fitted = terminal.highlight(titleWidth.map { DisplayWidth.truncate(title, to: $0) } ?? title)
            var text = (cells + [fitted]).joined(separator: " ")
            while text.hasSuffix(" ") { text.removeLast() }
            return isHeader ? terminal.dim(text) : text
        }

        var output = line(headers, title: "TITLE", isHeader: true) + "\n"
        for (cached, row) in zip(items, rows) {
            var marked = row
            if cached.isFavorite { marked[0] = terminal.yellow("★") }
            output += line(marked, title: clean(highlightedTitles[cached.ref] ?? cached.item.title), isHeader: false) + "\n"
        }
        return output
    }

    /// One item in full: a heading, short fields as `Label: value`, long
    /// text as wrapped paragraphs.
    func detail(_ cached: CachedItem) -> String {
        let item = cached.item
        let width = min(terminal.width ?? 100, 100)
        var output = terminal.bold("\(item.ref.source.rawValue) \(item.ref.id): \(clean(item.title))") + "\n"
        var fields: [(String, String)] = [("URL", clean(item.url))]
        var paragraphs: [(String, String)] = []
        for attribute in item.attributes {
            let text = TerminalText.sanitize(text(of: attribute.key, in: cached, brief: false))
            guard !text.isEmpty else { continue }
            if text.contains("\n") || (DisplayWidth.of(text) > 60 && text.contains(" ")) {
                paragraphs.append((label(attribute.key), text))
            } else {
                fields.append((label(attribute.key), text))
            }
        }
        fields.append(("Favourite", cached.isFavorite ? terminal.yellow("★ yes") : "no"))
        fields.append(("Cached", Records.timestamp(cached.cachedAt)))
        let labelWidth = fields.map { DisplayWidth.of($0.0) }.max() ?? 0
        for (name, value) in fields {
            output += terminal.dim(DisplayWidth.pad(name + ":", to: labelWidth + 1)) + " " + value + "\n"
        }
        for (name, text) in paragraphs {
            output += "\n" + terminal.dim(name + ":") + "\n"
            output += DisplayWidth.wrap(text, width: max(20, width - 2)).map { $0.isEmpty ? "\n" : "  \($0)\n" }.joined()
        }
        return output
    }

    /// An attribute as text: the source's own wording where it has one,
    /// else arrays as comma-separated lists. `brief` is one clean line.
    private func text(of key: String, in cached: CachedItem, brief: Bool) -> String {
        guard let value = cached.item[key] else { return "" }
        let source = try? catalog.source(cached.ref.source)
        let text = source?.displayText(of: Attribute(key, value), brief: brief) ?? Self.genericText(value)
        return brief ? clean(text) : text
    }

    private static func genericText(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case let .string(text): text
        case let .bool(flag): flag ? "yes" : "no"
        case let .int(number): String(number)
        case let .array(values): values.map(genericText).joined(separator: ", ")
        default: value.serialized
        }
    }

    /// `image_url` reads as "Image URL".
    private func label(_ key: String) -> String {
        key.split(separator: "_").enumerated().map { index, word in
            if word == "url" { return "URL" }
            return index == 0 ? word.prefix(1).uppercased() + word.dropFirst() : String(word)
        }.joined(separator: " ")
    }
}
