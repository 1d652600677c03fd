import BrowseCore
import ComicsKit

/// Answers the queries browse's screens declare, from the screen's own
/// catalog (the cache only, never the network). Every string from the
/// network is sanitized here, before the model sees it.
final class BrowseQueryRunner {
    private let catalog: Catalog
    /// The last passage laid out, and the text it came from: the reader's
    /// query runs again after every write (its own place saved at each
    /// page), and the same download at the same width lays out the same.
    private var lastPassage: (query: BrowseQuery, text: TextInfo, passage: ReaderPassage)?

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    func answer(_ query: BrowseQuery) throws -> BrowseAnswer {
        switch query {
        case let .window(listing, positions):
            return .window(try window(listing, at: positions))
        case let .rows(listing, limit):
            return try rows(listing, limit: limit)
        case .favorites:
            return .favorites(Set(try catalog.favorites(source: nil).map(\.ref)))
        case let .detail(ref, width):
            guard let cached = try catalog.cachedItem(ref) else {
                guard let absence = try catalog.absence(of: ref) else { return .detail(nil) }
                return .detail(BrowseDetail(ref: ref, lines: [TerminalText.sanitize(absence.reason, singleLine: true)], isFavorite: false))
            }
            catalog.noteUse(of: [cached])
            return .detail(BrowseRows.detail(cached, width: width, catalog: catalog))
        case let .passage(ref, blocks, column, pictureRows):
            return .passage(try passage(query, ref, blocks: blocks, column: column, pictureRows: pictureRows))
        case let .refreshRecord(source):
            return .refreshRecord(try catalog.refreshRecord(of: source))
        }
    }

    /// What the cache holds of a paged listing at these positions.
    private func window(_ listing: BrowseListing, at positions: Range<Int>) throws -> BrowseWindow {
        guard let key = listing.window else { return BrowseWindow() }
        var window = BrowseWindow(count: try catalog.positionCount(of: key))
        let slots = try catalog.slots(of: key, at: positions)
        let refs = slots.compactMap { slot -> ItemRef? in if case let .item(item) = slot { item.ref } else { nil } }
        let reading = key.source == .books ? try catalog.readingStates(refs).mapValues(BrowseRows.mark) : [:]
        var shown: [CachedItem] = []
        for (offset, slot) in slots.enumerated() {
            switch slot {
            case let .item(item):
                shown.append(item)
                window.rows[positions.lowerBound + offset] = BrowseRows.row(item, catalog: catalog, reading: reading[item.ref])
                window.cachedAt[positions.lowerBound + offset] = item.cachedAt
            case let .missing(id):
                if let id { window.ids[positions.lowerBound + offset] = id }
            case let .absent(id, absence):
                window.absent[positions.lowerBound + offset] = BrowseAbsence(id: id, reason: TerminalText.sanitize(absence.reason, singleLine: true))
            }
        }
        // Rows looked at are used, as `list` counts them, for cleanup's
        // max-items (a write at most once a day an item).
        catalog.noteUse(of: shown)
        return window
    }

    /// Favourites, the reading list and search results, read whole.
    private func rows(_ listing: BrowseListing, limit: Int) throws -> BrowseAnswer {
        switch listing {
        case .source, .books:
            return .rows([], total: nil)
        case .favorites:
            let favorites = try catalog.favorites(source: nil)
            let reading = try catalog.readingStates(favorites.map(\.ref)).mapValues(BrowseRows.mark)
            return .rows(favorites.map { BrowseRows.row($0, catalog: catalog, reading: reading[$0.ref]) }, total: nil)
        case .reading:
            let rows = try catalog.readingList().map { ref, state in
                var row = try catalog.cachedItem(ref).map { BrowseRows.row($0, catalog: catalog) }
                    ?? BrowseRow(ref: ref, detail: "", title: "\(ref)", isFavorite: false)
                row.reading = BrowseRows.mark(state)
                return row
            }
            return .rows(rows, total: nil)
        case let .search(terms):
            let found = try catalog.search(terms, source: nil, remote: false, limit: limit)
            return .rows(found.results.map { BrowseRows.row($0, catalog: catalog) }, total: found.total)
        }
    }

    private func passage(_ query: BrowseQuery, _ ref: ItemRef, blocks: Range<Int>, column: Int, pictureRows: Int?) throws -> ReaderPassage {
        let gone = ComicsError.database("the text of \(ref) is no longer in the cache")
        // The text's record alone says whether the text changed; its map
        // (the outline) is read only to lay a passage out.
        guard let info = try catalog.textInfo(ref) else { throw gone }
        if let last = lastPassage, last.query == query, last.text.isSameDownload(as: info) { return last.passage }
        guard let map = try catalog.textMap(ref), let read = try catalog.textPassage(ref, from: blocks.lowerBound, upTo: blocks.upperBound) else {
            throw gone
        }
        let sectionStarts = Set(map.outline.map(\.section.firstBlock))
        var pictures: ReaderLayout.Pictures?
        if let pictureRows {
            let paths = read.blocks.compactMap { $0.kind == .illustration ? $0.link : nil }
            pictures = ReaderLayout.Pictures(sizes: try catalog.pictureSizes(ref, paths: paths), maximumRows: pictureRows)
        }
        let passage = ReaderLayout.passage(read, width: column, sectionStarts: sectionStarts, pictures: pictures)
        lastPassage = (query, info, passage)
        return passage
    }
}
