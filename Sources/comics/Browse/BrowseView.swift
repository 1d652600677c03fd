import ComicsKit
import FoundationEssentials

/// One line of a frame: text measured to fit, and how it is drawn.
struct BrowseLine: Equatable {
    enum Style: Equatable { case plain, selected, status, heading, dim }
    var text: String
    var style: Style = .plain
    /// A picture's line in colour: drawn run by run instead of `text`.
    var colors: [BrowseRun]?
}

/// A state as the lines of a frame, top to bottom, each at most `columns`
/// wide (wide characters counted as two, long text cut with "…"). Pure, so
/// what a person would see is tested without a terminal.
enum BrowseView {
    static func frame(_ state: BrowseState, now: Date) -> [BrowseLine] {
        let height = state.listHeight
        var lines: [BrowseLine]
        switch state.visible {
        case let .list(list): lines = rows(list, height: height, columns: state.columns)
        case let .detail(detail): lines = detailLines(detail, height: height)
        }
        if state.showsHelp { lines = help(columns: state.columns, height: height) }
        lines += Array(repeating: BrowseLine(text: ""), count: max(0, height - lines.count))
        lines = lines.prefix(height).map { BrowseLine(text: fit($0.text, state.columns), style: $0.style, colors: $0.colors) }
        return lines + [BrowseLine(text: fit(status(state, now: now), state.columns), style: .status)]
    }

    /// The text and picture rows in view; a picture's rows keep their colours.
    private static func detailLines(_ detail: BrowseDetail, height: Int) -> [BrowseLine] {
        let firstPictureRow = detail.lines.count + 1
        return detail.shownLines.enumerated().dropFirst(detail.top).prefix(height).map { index, text in
            let pictureRow = index - firstPictureRow
            let colors = detail.pictureColors.indices.contains(pictureRow) ? detail.pictureColors[pictureRow] : nil
            return BrowseLine(text: text, colors: colors)
        }
    }

    private static func fit(_ text: String, _ columns: Int) -> String {
        DisplayWidth.pad(DisplayWidth.truncate(text, to: columns), to: columns)
    }

    private static func rows(_ list: BrowseList, height: Int, columns: Int) -> [BrowseLine] {
        let shown = list.rows.dropFirst(list.top).prefix(height)
        let idWidth = max(4, shown.map { String($0.ref.id).count }.max() ?? 0)
        let showsSource = !list.listing.isPaged
        let detailWidth = min(28, (columns - idWidth - 4) / 3, shown.map { DisplayWidth.of($0.detail) }.max() ?? 0)
        var lines = shown.enumerated().map { offset, row -> BrowseLine in
            let id = showsSource ? "\(row.ref.source.rawValue):\(row.ref.id)" : String(row.ref.id)
            let mark = row.isFavorite ? "★" : " "
            var text = mark + " " + String(repeating: " ", count: max(0, idWidth - id.count)) + id + "  "
            if detailWidth >= 8 {
                text += DisplayWidth.pad(DisplayWidth.truncate(row.detail, to: detailWidth), to: detailWidth) + "  "
            }
            text += row.title
            return BrowseLine(text: text, style: list.top + offset == list.selected ? .selected : .plain)
        }
        if list.isLoading && lines.count < height { lines.append(BrowseLine(text: "  loading…", style: .dim)) }
        if list.rows.isEmpty && !list.isLoading {
            lines.append(BrowseLine(text: list.listing == .favorites ? "  no favourites yet: f marks one" : "  nothing here", style: .dim))
        }
        return lines
    }

    private static func help(columns: Int, height: Int) -> [BrowseLine] {
        let keyWidth = BrowseKeys.table.map { DisplayWidth.of($0.keys) }.max() ?? 0
        return [BrowseLine(text: "  Keys (any key closes this)", style: .heading), BrowseLine(text: "")]
            + BrowseKeys.table.map { BrowseLine(text: "  " + DisplayWidth.pad($0.keys, to: keyWidth) + "   " + $0.action) }
    }

    /// Source and query, position, freshness; or the prompt, or a message.
    static func status(_ state: BrowseState, now: Date) -> String {
        if let prompt = state.prompt {
            return (state.promptKind == .search ? "search: " : "books query (words language:en topic:… sort:…): ") + prompt + "▏"
        }
        if let message = state.message { return " " + TerminalText.sanitize(message, singleLine: true) }
        var parts: [String] = []
        switch state.visible {
        case let .list(list):
            parts.append(title(of: list.listing))
            if !list.rows.isEmpty {
                let total = list.total.map { " of " + grouped($0) } ?? (list.isComplete ? " of " + grouped(list.rows.count) : "")
                parts.append(grouped(list.selected + 1) + total)
            }
        case let .detail(detail):
            parts.append("\(detail.ref)" + (detail.isFavorite ? " ★" : ""))
        }
        parts.append(freshness(state.freshness, now: now))
        parts.append("? keys")
        return " " + parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    private static func title(of listing: BrowseListing) -> String {
        switch listing {
        case let .source(source): source.rawValue
        case let .books(query): "books: " + describe(query)
        case .favorites: "favourites"
        case let .search(terms): "search: " + TerminalText.sanitize(terms, singleLine: true)
        }
    }

    private static func describe(_ query: ListQuery) -> String {
        var parts: [String] = []
        if let search = query.search { parts.append(TerminalText.sanitize(search, singleLine: true)) }
        if !query.languages.isEmpty { parts.append("language " + query.languages.joined(separator: ",")) }
        if let topic = query.topic { parts.append("topic " + TerminalText.sanitize(topic, singleLine: true)) }
        if let sort = query.sort { parts.append("sort " + sort.rawValue) }
        return parts.joined(separator: ", ")
    }

    static func freshness(_ freshness: BrowseFreshness, now: Date) -> String {
        switch freshness {
        case .unknown: ""
        case .refreshing: "refreshing…"
        case let .updated(date): "updated " + age(from: date, to: now)
        case let .failed(reason, copyFrom):
            "offline: " + (copyFrom.map { "copy from " + age(from: $0, to: now) + " " } ?? "") + "(" + reason + "); r retries"
        }
    }

    /// "just now", "3 min ago", "5 hours ago", "2 days ago".
    static func age(from date: Date, to now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<172_800: return "\(seconds / 3600) hour\(seconds / 3600 == 1 ? "" : "s") ago"
        default: return "\(seconds / 86400) days ago"
        }
    }

    private static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
