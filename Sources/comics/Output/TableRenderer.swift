import ComicsKit

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
    /// mixed, the form `show` takes), the summary of its source (authors,
    /// date: one column shared by every source), title. `highlightedTitles`
    /// replace titles, their `SearchMatch` markers drawn bold (or dropped
    /// without colour). On a terminal no row is wider than it: the title
    /// gets the room, and the summary shrinks, then goes, first. A snippet
    /// (search) is a second line under the title, cut to its width.
    func list(
        _ items: [CachedItem], showSource: Bool, highlightedTitles: [ItemRef: String] = [:], snippets: [ItemRef: String] = [:]
    ) -> String {
        guard !items.isEmpty else { return "" }
        let present = Set(items.map(\.ref.source)).sorted().compactMap { try? catalog.source($0) }
        let summaryKeys = present.compactMap(\.summaryAttributes.first)
        let summaryHeader = summaryKeys.map { $0.uppercased() }.joined(separator: "/")
        let refs = items.map { showSource ? $0.ref.description : String($0.ref.id) }
        let summaries = items.map { cached in
            (try? catalog.source(cached.ref.source).summaryAttributes.first).flatMap { $0 }
                .map { DisplayWidth.truncate(text(of: $0, in: cached, brief: true), to: Self.maximumSummaryWidth) } ?? ""
        }
        let titles = items.map { clean(highlightedTitles[$0.ref] ?? $0.item.title) }
        let refWidth = max(DisplayWidth.of(showSource ? "REF" : "ID"), refs.map(DisplayWidth.of).max() ?? 0)
        var summaryWidth = summaryKeys.isEmpty ? 0
            : max(DisplayWidth.of(summaryHeader), summaries.map(DisplayWidth.of).max() ?? 0)
        let titleNatural = max(5, titles.map { DisplayWidth.of(Self.visible($0)) }.max() ?? 0)
        var titleWidth: Int?
        if let width = terminal.width {
            // mark, space, ref, space [, summary, space], title
            let room = width - 2 - refWidth - 1
            // When not everything fits, the summary takes at most a third of
            // the room (not less than 12 columns); if the title would still
            // get fewer than 24, the summary goes.
            if summaryWidth > 0 && room - summaryWidth - 1 < titleNatural {
                summaryWidth = min(summaryWidth, max(12, room / 3))
                if room - summaryWidth - 1 < min(titleNatural, 24) { summaryWidth = 0 }
            }
            titleWidth = max(5, room - (summaryWidth > 0 ? summaryWidth + 1 : 0))
        }

        func line(mark: String, ref: String, summary: String, title: String) -> String {
            var cells = [mark, String(repeating: " ", count: max(0, refWidth - DisplayWidth.of(ref))) + ref]
            if summaryWidth > 0 {
                cells.append(DisplayWidth.pad(DisplayWidth.truncate(summary, to: summaryWidth), to: summaryWidth))
            }
            cells.append(terminal.highlight(titleWidth.map { DisplayWidth.truncate(title, to: $0) } ?? title))
            var text = cells.joined(separator: " ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }

        var output = terminal.dim(line(mark: " ", ref: showSource ? "REF" : "ID", summary: summaryHeader, title: "TITLE")) + "\n"
        let titleColumn = 2 + refWidth + 1 + (summaryWidth > 0 ? summaryWidth + 1 : 0)
        for (index, cached) in items.enumerated() {
            let mark = cached.isFavorite ? terminal.yellow("★") : " "
            output += line(mark: mark, ref: refs[index], summary: summaries[index], title: titles[index]) + "\n"
            if let snippet = snippets[cached.ref].map(clean), !snippet.isEmpty {
                let fitted = titleWidth.map { DisplayWidth.truncate(snippet, to: $0) } ?? snippet
                output += String(repeating: " ", count: titleColumn) + terminal.highlight(fitted) + "\n"
            }
        }
        return output
    }

    /// A highlighted title without its markers, as wide as it will print.
    private static func visible(_ title: String) -> String {
        title.filter { $0 != SearchMatch.start && $0 != SearchMatch.end }
    }

    /// One item in full: a heading, short fields as `Label: value`, long
    /// text as wrapped paragraphs. Every line fits the terminal (at most
    /// 100 columns): a value too wide for its field goes on under the
    /// label's column, and a URL too wide for the line goes alone on one.
    /// `extra`: fields of the command's own, shown before the favourite.
    func detail(_ cached: CachedItem, extra: [(String, String)] = []) -> String {
        let item = cached.item
        let width = min(terminal.width ?? 100, 100)
        var output = DisplayWidth.wrap("\(item.ref.source.rawValue) \(item.ref.id): \(clean(item.title))", width: width)
            .map { terminal.bold($0) + "\n" }.joined()
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
        fields += extra
        fields.append(("Favourite", cached.isFavorite ? terminal.yellow("★ yes") : "no"))
        fields.append(("Cached", CivilTime.timestamp(cached.cachedAt)))
        let labelWidth = fields.map { DisplayWidth.of($0.0) }.max() ?? 0
        let valueColumn = labelWidth + 2
        for (name, value) in fields {
            if DisplayWidth.isURL(value), DisplayWidth.of(value) > width - valueColumn {
                output += terminal.dim(name + ":") + "\n" + value + "\n"
                continue
            }
            let lines = DisplayWidth.wrap(value, width: max(10, width - valueColumn))
            output += terminal.dim(DisplayWidth.pad(name + ":", to: labelWidth + 1)) + " "
                + lines.joined(separator: "\n" + String(repeating: " ", count: valueColumn)) + "\n"
        }
        for (name, text) in paragraphs {
            output += "\n" + terminal.dim(name + ":") + "\n"
            output += DisplayWidth.wrap(text, width: max(10, width - 2)).map { line in
                if line.isEmpty { return "\n" }
                return DisplayWidth.of(line) > width - 2 ? line + "\n" : "  \(line)\n"
            }.joined()
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
        clean(key).split(separator: "_").enumerated().map { index, word in
            if word == "url" { return "URL" }
            return index == 0 ? word.prefix(1).uppercased() + word.dropFirst() : String(word)
        }.joined(separator: " ")
    }
}
