import ComicsKit

extension BrowseModel {
    static func listKey(_ list: inout BrowseList, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let height = rowsInView(list, state)
        let before = list.selected
        if let moved = offset(of: key, height: height) { list.selected += moved } else {
            switch key {
            case let .click(row, _):
                guard row / list.rowHeight < height, list.top + row / list.rowHeight < list.count else { return [] }
                list.selected = list.top + row / list.rowHeight
            case let .doubleClick(row, _):
                guard row / list.rowHeight < height, list.top + row / list.rowHeight < list.count else { return [] }
                list.selected = list.top + row / list.rowHeight
                return listKey(&list, .enter, state: &state)
            case .home, .character("g"): list.selected = 0
            case .end, .character("G"): list.selected = list.count - 1
            case .enter, .right, .character("l"):
                guard let ref = list.ref(at: list.selected) else { return [] }
                state.screens.append(.detail(BrowseDetail(ref: ref, lines: [], isFavorite: list.selectedRow?.isFavorite ?? false)))
                return [.showDetail(ref, width: state.columns, height: state.listHeight)]
            case .character("f"):
                guard let row = list.selectedRow else { return [] }
                if list.listing.isPaged {
                    list.window.rows[list.selected]?.isFavorite.toggle()
                } else {
                    list.rows[list.selected].isFavorite.toggle()
                }
                return [.toggleFavorite(row.ref)]
            case .character("o"):
                return list.ref(at: list.selected).map { [.open($0)] } ?? []
            case .character("R"):
                return openReader(&state, list.ref(at: list.selected), title: list.selectedRow?.title ?? "")
            case .character("r"):
                if state.freshness == .offline {
                    state.message = "--offline: the cache only, nothing is fetched"
                    return []
                }
                state.freshness = .refreshing
                return [.refresh(list.listing, inView: list.top..<(list.top + height))]
            default:
                return []
            }
        }
        list.selected = max(0, min(list.selected, list.count - 1))
        if list.selected != before { list.movingDown = list.selected > before }
        keepVisible(&list, height: height)
        if case .search = list.listing, let total = list.total, list.rows.count < total, list.rows.count >= list.wanted,
           list.selected >= list.rows.count - height {
            // A longer query: the observation reads it.
            list.wanted = list.rows.count + BrowseList.searchPage
            list.isLoading = true
        }
        return []
    }

    static func detailKey(_ detail: inout BrowseDetail, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let height = state.listHeight
        detail.followsEnd = key == .end || key == .character("G")
        if let moved = offset(of: key, height: height) { detail.top += moved } else {
            switch key {
            case .home, .character("g"): detail.top = 0
            case .end, .character("G"): detail.top = detail.shownLines.count - height
            case .character("f"):
                detail.isFavorite.toggle()
                return [.toggleFavorite(detail.ref)]
            case .character("o"):
                return [.open(detail.ref)]
            case .character("R"):
                return openReader(&state, detail.ref, title: "")
            case .enter where detail.ref.source == .books:
                return openReader(&state, detail.ref, title: "")
            case .character("n"), .character("p"):
                return step(&detail, by: key == .character("n") ? 1 : -1, state: &state)
            default:
                return []
            }
        }
        detail.top = max(0, min(detail.top, detail.shownLines.count - height))
        return []
    }

    /// The next or previous item of the list under the detail screen.
    private static func step(_ detail: inout BrowseDetail, by offset: Int, state: inout BrowseState) -> [BrowseEffect] {
        let listIndex = state.screens.count - 2
        guard listIndex >= 0, case var .list(list) = state.screens[listIndex] else { return [] }
        let target = list.selected + offset
        guard (0..<list.count).contains(target), let ref = list.ref(at: target) else { return [] }
        list.selected = target
        list.movingDown = offset > 0
        keepVisible(&list, height: rowsInView(list, state))
        state.screens[listIndex] = .list(list)
        detail = BrowseDetail(ref: ref, lines: [], isFavorite: list.row(at: target)?.isFavorite ?? false)
        return [.showDetail(ref, width: state.columns, height: state.listHeight)]
    }

    /// Comic N (xkcd's position newest − N) or the N-th book of the query.
    static func jump(_ state: inout BrowseState, to text: String) -> [BrowseEffect] {
        guard case var .list(list) = state.visible, let key = list.listing.window, let number = Int(text) else { return [] }
        let count = list.count
        let position = key.source == .xkcd ? count - number : number - 1
        guard (0..<count).contains(position) else {
            state.message = key.source == .xkcd
                ? "no comic \(number) here: the archive goes from 1 to \(count)"
                : "no book \(number) here: this list has \(count)"
            return []
        }
        list.selected = position
        // The row gone to is put in the middle of the screen.
        list.top = max(0, position - state.listHeight / 2)
        keepVisible(&list, height: state.listHeight)
        state.screens[state.screens.count - 1] = .list(list)
        return []
    }

    /// `jane austen language:en,fr topic:"science fiction" sort:ascending`:
    /// the words searched for, and the filters named, checked as the CLI
    /// checks `--language` and `--sort`. Quotes hold a value of several words.

    static func keepVisible(_ list: inout BrowseList, height: Int) {
        if list.selected < list.top { list.top = list.selected }
        if list.selected >= list.top + height { list.top = list.selected - height + 1 }
        list.top = max(0, min(list.top, max(0, list.count - height)))
    }

    static func updateList(_ state: inout BrowseState, _ listing: BrowseListing, _ change: (inout BrowseList) -> Void) {
        for index in state.screens.indices {
            guard case var .list(list) = state.screens[index], list.listing == listing else { continue }
            change(&list)
            keepVisible(&list, height: rowsInView(list, state))
            state.screens[index] = .list(list)
        }
    }
}
