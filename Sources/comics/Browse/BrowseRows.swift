import BrowseCore
import ComicsKit

/// Rows and detail lines from cached items; every string from the network
/// is sanitized here, before the model sees it.
enum BrowseRows {
    static func mark(_ state: ReadingState) -> ReadingMark {
        ReadingMark(downloaded: state.downloaded, percent: state.position.map { Int($0.percent) })
    }

    static func row(_ cached: CachedItem, catalog: Catalog, reading: ReadingMark? = nil) -> BrowseRow {
        let source = try? catalog.source(cached.ref.source)
        let detail = source?.summaryAttributes.first.flatMap { key in
            cached.item[key].map { source?.displayText(of: Attribute(key, $0), brief: true) ?? $0.stringValue ?? "" }
        } ?? ""
        return BrowseRow(
            ref: cached.ref, detail: TerminalText.sanitize(detail, singleLine: true),
            title: TerminalText.sanitize(cached.item.title, singleLine: true), isFavorite: cached.isFavorite, reading: reading)
    }

    /// A search result: the title and snippet with their matches marked.
    static func row(_ result: SearchResult, catalog: Catalog) -> BrowseRow {
        let plain = row(result.item, catalog: catalog)
        return BrowseRow(
            ref: plain.ref, detail: plain.detail, title: TerminalText.sanitize(result.highlightedTitle, singleLine: true),
            isFavorite: plain.isFavorite, snippet: TerminalText.sanitize(result.snippet, singleLine: true))
    }

    static func detail(_ cached: CachedItem, width: Int, catalog: Catalog) -> BrowseDetail {
        let plain = Terminal(isTerminal: false, width: max(20, width - 1), height: nil, cellSize: nil, colorForbidden: true)
        var extra: [(String, String)] = []
        if cached.ref.source == .books {
            let info = try? catalog.textInfo(cached.ref)
            let position = (try? catalog.readingPositions([cached.ref]))?[cached.ref]
            extra = (try? TextRecords.fields(cached.ref, info: info, position: position, catalog: catalog)) ?? []
            let read = position == nil ? "from the start" : "on from where you stopped"
            extra.append(("Read", "R or Enter reads it \(read)" + (info == nil ? " (downloading it first)" : "")))
        }
        let text = TableRenderer(terminal: plain, catalog: catalog).detail(cached, extra: extra)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.sanitize(String($0), singleLine: true) }
            .flatMap { pieces(of: $0, width: max(20, width - 1)) }
        return BrowseDetail(ref: cached.ref, lines: lines, isFavorite: cached.isFavorite)
    }

    /// A line `show` let run past the width (a URL alone on its line) in
    /// pieces the width long, so none of it is cut off.
    private static func pieces(of line: String, width: Int) -> [String] {
        guard DisplayWidth.of(line) > width else { return [line] }
        var pieces: [String] = [], piece = "", used = 0
        for character in line {
            let size = DisplayWidth.of(String(character))
            if used + size > width {
                pieces.append(piece)
                (piece, used) = ("", 0)
            }
            piece.append(character)
            used += size
        }
        return pieces + (piece.isEmpty ? [] : [piece])
    }
}
