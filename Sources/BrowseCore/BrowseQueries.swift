import ComicsKit

/// What a screen shows from the database. The state declares them
/// (`BrowseModel.queries`); the runtime's one observation runs each when
/// it is first declared and again whenever the database changes, and
/// hands back the answers that changed (`BrowseEvent.answered`). No
/// screen asks for a reload.
public enum BrowseQuery: Hashable {
    /// A paged listing (an archive, a books query) at these positions:
    /// its rows, how many positions it has, the numbers of items not cached.
    case window(BrowseListing, positions: Range<Int>)
    /// Favourites, the reading list, search results: read whole, up to `limit`.
    case rows(BrowseListing, limit: Int)
    /// Which items are favourites.
    case favorites
    /// An item's detail screen laid out for a width; nil until it is cached.
    case detail(ItemRef, width: Int)
    /// The reader's blocks, laid out at a column; with `pictureRows`, an
    /// illustration's kept picture takes rows in the page (at most so many).
    case passage(ItemRef, blocks: Range<Int>, column: Int, pictureRows: Int?)
    /// How the last refreshes of a source went: a failure stays said
    /// until a later success replaces it, whoever fetched.
    case refreshRecord(SourceName)
}

/// The database's answer to a `BrowseQuery`, of the query's kind.
public enum BrowseAnswer: Equatable {
    case window(BrowseWindow)
    /// `total` when more matched than were read.
    case rows([BrowseRow], total: Int?)
    case favorites(Set<ItemRef>)
    case detail(BrowseDetail?)
    case passage(ReaderPassage)
    case refreshRecord(RefreshRecord)
}

/// What of a paged listing the network is to fill: the positions the
/// cache lacks in view, then in a screen's margin the way the selection
/// moves, nearest first.
public struct BrowseFetchWant: Equatable {
    public let listing: BrowseListing
    public let key: ListingKey
    public let missing: [Int]
    /// How many positions the listing has; nil until anything is known.
    public let count: Int?
}

extension BrowseModel {
    /// The listing the screen shows, for the runtime's fetchers; nil
    /// offline and under the reader.
    public static func fetchWanted(_ state: BrowseState) -> BrowseFetchWant? {
        guard state.freshness != .offline else { return nil }
        if case .reader = state.visible { return nil }
        guard case let .list(list)? = state.screens.last(where: { if case .list = $0 { true } else { false } }),
              let key = list.listing.window else { return nil }
        let height = state.listHeight
        let inView = Array(list.top..<(list.top + height))
        let margin = list.movingDown ? Array(list.top + height..<(list.top + 2 * height)) : (max(0, list.top - height)..<list.top).reversed()
        let count = list.window.count ?? 0
        let missing = (inView + margin).filter { $0 < count && list.window.rows[$0] == nil && list.window.absent[$0] == nil }
        return BrowseFetchWant(listing: list.listing, key: key, missing: missing, count: list.window.count)
    }

    /// The queries the screens on the stack show. Under the reader no
    /// list is seen, so none is read; a detail screen keeps the list under
    /// it (n and p move through it).
    public static func queries(_ state: BrowseState) -> Set<BrowseQuery> {
        if case let .reader(reader) = state.visible {
            guard reader.status == .ready, let blocks = reader.passageBlocks(columns: state.columns, height: state.listHeight) else { return [] }
            let pictureRows = state.showsPictures ? max(4, state.listHeight - 2) : nil
            return [.passage(reader.ref, blocks: blocks, column: reader.column(for: state.columns), pictureRows: pictureRows)]
        }
        var queries: Set<BrowseQuery> = [.favorites]
        if case let .detail(detail) = state.visible { queries.insert(.detail(detail.ref, width: state.columns)) }
        if let source = state.visible.fetchedSource { queries.insert(.refreshRecord(source)) }
        guard case let .list(list)? = state.screens.last(where: { if case .list = $0 { true } else { false } }) else { return queries }
        if list.listing.isPaged {
            let height = state.listHeight
            queries.insert(.window(list.listing, positions: max(0, list.top - height)..<(list.top + 2 * height)))
        } else {
            queries.insert(.rows(list.listing, limit: list.wanted))
        }
        return queries
    }

    static func answered(_ state: inout BrowseState, _ query: BrowseQuery, _ answer: BrowseAnswer) -> [BrowseEffect] {
        switch (query, answer) {
        case let (.window(listing, _), .window(window)):
            updateList(&state, listing) { list in
                // Newer comics go on top: the selection stays on its item,
                // and a list scrolled to its top shows them.
                if case .source(.xkcd) = listing, let before = list.window.count, let now = window.count, now > before {
                    list.selected += now - before
                    if list.top > 0 { list.top += now - before }
                }
                list.window = window
                list.failure = nil
                list.selected = max(0, min(list.selected, list.count - 1))
            }
        case let (.rows(listing, _), .rows(rows, total)):
            updateList(&state, listing) { list in
                let selectedRef = list.selectedRow?.ref
                list.rows = rows
                if let selectedRef, let index = list.rows.firstIndex(where: { $0.ref == selectedRef }) {
                    list.selected = index
                }
                list.selected = min(list.selected, max(0, list.rows.count - 1))
                list.isLoading = false
                list.failure = nil
                list.total = total
            }
        case let (.favorites, .favorites(favorites)):
            showFavorites(&state, favorites)
        case let (.detail(ref, _), .detail(detail)):
            guard case let .detail(shown) = state.visible, shown.ref == ref, var updated = detail else { return [] }
            updated.top = min(shown.top, max(0, updated.lines.count - 1))
            updated.followsEnd = shown.followsEnd
            if updated.picture.isEmpty {
                updated.picture = shown.picture
                updated.graphics = shown.graphics
                updated.pictureColors = shown.pictureColors
                updated.pictureNote = shown.pictureNote
            }
            state.screens[state.screens.count - 1] = .detail(updated)
        case let (.refreshRecord(source), .refreshRecord(record)):
            state.refreshRecords[source] = record
        case let (.passage(ref, _, _, _), .passage(passage)):
            guard case var .reader(reader) = state.visible, reader.ref == ref else { return [] }
            reader.show(passage, height: state.listHeight)
            state.screens[state.screens.count - 1] = .reader(reader)
        default:
            break
        }
        return []
    }

    /// A query that failed says why where its answer would be shown.
    static func unanswered(_ state: inout BrowseState, _ query: BrowseQuery, _ reason: String) -> [BrowseEffect] {
        switch query {
        case let .window(listing, _), let .rows(listing, _):
            updateList(&state, listing) { list in
                list.isLoading = false
                list.failure = reason
            }
            return []
        case .favorites, .refreshRecord:
            state.message = "cannot read the cache: \(reason)"
            return []
        case let .detail(ref, _):
            guard case var .detail(shown) = state.visible, shown.ref == ref else { return [] }
            shown.lines = ["cannot read \(ref): \(reason)"]
            state.screens[state.screens.count - 1] = .detail(shown)
            return []
        case let .passage(ref, _, _, _):
            return readerEvent(&state, .readerFailed(ref, reason))
        }
    }

    /// Every row and detail marks what is a favourite now.
    private static func showFavorites(_ state: inout BrowseState, _ favorites: Set<ItemRef>) {
        for index in state.screens.indices {
            switch state.screens[index] {
            case var .list(list):
                for row in list.rows.indices { list.rows[row].isFavorite = favorites.contains(list.rows[row].ref) }
                list.window.rows = list.window.rows.mapValues { row in
                    var row = row
                    row.isFavorite = favorites.contains(row.ref)
                    return row
                }
                state.screens[index] = .list(list)
            case var .detail(detail):
                detail.isFavorite = favorites.contains(detail.ref)
                state.screens[index] = .detail(detail)
            case .reader:
                break
            }
        }
    }
}
