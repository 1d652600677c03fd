import ComicsKit
import Foundation
import TestSupport
import XCTest

@testable import BrowseCore
@testable import comics

extension BrowseEvent {
    /// The observation's answer to a list read whole.
    static func loadedRows(_ listing: BrowseListing, _ rows: [BrowseRow], total: Int?) -> BrowseEvent {
        .answered(.rows(listing, limit: BrowseList.searchPage), .rows(rows, total: total))
    }

    /// The observation's answer to the reader's passage.
    static func passageRead(_ ref: ItemRef, _ passage: ReaderPassage) -> BrowseEvent {
        .answered(.passage(ref, blocks: passage.firstBlock..<passage.endBlock, column: passage.width, pictureRows: nil), .passage(passage))
    }
}

/// Browse's model without a terminal: a state and an event give the next
/// state and the effects to run.
final class BrowseModelTests: XCTestCase {
    private func row(_ id: Int) -> BrowseRow {
        BrowseRow(ref: ItemRef(source: .xkcd, id: id), detail: "2020-01-01", title: "Comic \(id)", isFavorite: false)
    }

    /// The archive of `newest` comics as the database holds it, with the
    /// comics of `cached` read (position p is comic newest − p).
    private func window(newest: Int, cached: ClosedRange<Int>) -> BrowseWindow {
        var window = BrowseWindow(count: newest)
        for id in cached { window.rows[newest - id] = row(id) }
        return window
    }

    private func read(_ state: inout BrowseState, newest: Int = 200, cached: ClosedRange<Int>) -> [BrowseEffect] {
        BrowseModel.handle(&state, .answered(.window(.source(.xkcd), positions: 0..<newest), .window(window(newest: newest, cached: cached))))
    }

    private func list(_ state: BrowseState) -> BrowseList? {
        if case let .list(list) = state.visible { return list }
        return nil
    }

    func testTheSelectionMovesThroughEveryPositionWhateverIsCached() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        _ = read(&state, cached: 191...200)
        for _ in 0..<300 { XCTAssertEqual(BrowseModel.handle(&state, .key(.character("j"))), []) }
        XCTAssertEqual(list(state)?.selected, 199, "300 j stop at the last of 200, not at the last cached")
        XCTAssertEqual(list(state)?.top, 190, "the selection is the last of ten rows")
        _ = BrowseModel.handle(&state, .key(.character("g")))
        XCTAssertEqual(list(state)?.selected, 0)
        _ = BrowseModel.handle(&state, .key(.character("G")))
        XCTAssertEqual(list(state)?.selected, 199, "G reaches comic 1 in one press")
        XCTAssertEqual(list(state)?.ref(at: 199), ItemRef(source: .xkcd, id: 1), "known by number before it is cached")
        XCTAssertNil(list(state)?.selectedRow)
        let frame = BrowseView.frame(state, now: Date())
        XCTAssertEqual(frame[9].text.trimmingCharacters(in: .whitespaces), "1  …", "a placeholder until it is cached")
        XCTAssertTrue(frame[10].text.contains("200 of 200 · end of results"), frame[10].text)
    }

    func testKeysPeopleExpect() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        _ = read(&state, cached: 191...200)
        let moves: [(Key, Int)] = [
            (.character(" "), 10), (.control("f"), 20), (.character("b"), 10), (.control("d"), 15), (.control("u"), 10),
            (.control("b"), 0), (.end, 199), (.home, 0),
        ]
        for (key, position) in moves {
            _ = BrowseModel.handle(&state, .key(key))
            XCTAssertEqual(list(state)?.selected, position, "\(key)")
        }
        XCTAssertEqual(BrowseModel.handle(&state, .key(.control("l"))), [.redraw])
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(state.screens.count, 2)
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertEqual(state.screens.count, 1, "q goes back one screen")
        XCTAssertFalse(state.isFinished)
        _ = BrowseModel.handle(&state, .key(.enter))
        _ = BrowseModel.handle(&state, .key(.character("Q")))
        XCTAssertTrue(state.isFinished, "Q quits from anywhere")
    }

    func testDigitsGoToAComicByItsNumber() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        _ = read(&state, cached: 191...200)
        for key in "42" { _ = BrowseModel.handle(&state, .key(.character(key))) }
        XCTAssertEqual(BrowseView.status(state, now: Date()), "go to: 42▏")
        _ = BrowseModel.handle(&state, .key(.character("x")))
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(list(state)?.ref(at: list(state)?.selected ?? 0), ItemRef(source: .xkcd, id: 42))
        for key in ":500" { _ = BrowseModel.handle(&state, .key(.character(key))) }
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(state.message, "no comic 500 here: the archive goes from 1 to 200")
        XCTAssertEqual(list(state)?.ref(at: list(state)?.selected ?? 0), ItemRef(source: .xkcd, id: 42), "the place kept")
    }

    private func type(_ state: inout BrowseState, _ text: String) {
        for character in text { _ = BrowseModel.handle(&state, .key(.character(character))) }
    }

    func testThePromptIsALineEditor() {
        var state = BrowseState(rows: 20, columns: 80, source: .books)
        _ = BrowseModel.handle(&state, .key(.character(":")))
        type(&state, "austen sort:ascending")
        for key: Key in [.home, .right, .right] { _ = BrowseModel.handle(&state, .key(key)) }
        type(&state, "X")
        XCTAssertEqual(BrowseView.status(state, now: Date()), "books query (words language:en topic:… sort:…, or a number): auX▏sten sort:ascending")
        state.columns = 40
        XCTAssertEqual(BrowseView.status(state, now: Date()), "query: auX▏sten sort:ascending", "narrow: the label gives way")
        state.columns = 10
        XCTAssertEqual(BrowseView.status(state, now: Date()), "query: …X▏sten sort:ascending", "the cursor stays in view")
        state.columns = 80
        for key: Key in [.backspace, .control("e"), .control("w")] { _ = BrowseModel.handle(&state, .key(key)) }
        XCTAssertEqual(state.prompt, "austen ")
        _ = BrowseModel.handle(&state, .key(.control("a")))
        _ = BrowseModel.handle(&state, .key(.control("k")))
        XCTAssertEqual(state.prompt, "")
        type(&state, #"topic:"science fiction" sort:bogus"#)
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(state.message, "unknown sort order 'bogus'; use one of: popular, ascending, descending", "the CLI's message")
        XCTAssertEqual(state.prompt, #"topic:"science fiction" sort:bogus"#, "the text back, to be mended")
        _ = BrowseModel.handle(&state, .key(.control("w")))
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(list(state)?.listing, .books(ListQuery(topic: "science fiction")), "quotes hold a value of two words")

        _ = BrowseModel.handle(&state, .key(.character(":")))
        XCTAssertEqual(state.prompt, #"topic:"science fiction""#, "pre-filled with the query shown")
        _ = BrowseModel.handle(&state, .key(.control("u")))
        _ = BrowseModel.handle(&state, .key(.up))
        XCTAssertEqual(state.prompt, #"topic:"science fiction""#, "↑ goes back through what was entered")
        _ = BrowseModel.handle(&state, .key(.up))
        XCTAssertEqual(state.prompt, #"topic:"science fiction" sort:bogus"#)
        _ = BrowseModel.handle(&state, .key(.down))
        _ = BrowseModel.handle(&state, .key(.down))
        XCTAssertEqual(state.prompt, "")
        _ = BrowseModel.handle(&state, .key(.escape))
        XCTAssertNil(state.prompt)

        _ = BrowseModel.handle(&state, .key(.character("s")))
        _ = BrowseModel.handle(&state, .key(.character("s")))
        XCTAssertEqual(list(state)?.listing, .books(ListQuery(topic: "science fiction")), "the query is kept across s")
    }

    /// G asks for the end: a picture drawn after it is brought into view,
    /// whenever it comes; without G the text stays where it was.
    func testGKeepsTheEndInViewWhenThePictureComesLater() {
        for pressesG in [true, false] {
            var state = BrowseState(rows: 10, columns: 80, source: .xkcd)
            _ = read(&state, cached: 191...200)
            _ = BrowseModel.handle(&state, .key(.enter))
            _ = BrowseModel.handle(&state, .answered(.detail(ItemRef(source: .xkcd, id: 200), width: 80), .detail(BrowseDetail(
                ref: ItemRef(source: .xkcd, id: 200), lines: (1...12).map { "line \($0)" }, isFavorite: false))))
            if pressesG { _ = BrowseModel.handle(&state, .key(.character("G"))) }
            _ = BrowseModel.handle(&state, .pictureLoaded(ItemRef(source: .xkcd, id: 200), Array(repeating: "", count: 8), graphics: "kitty", colors: []))
            guard case let .detail(detail) = state.visible else { return XCTFail() }
            XCTAssertEqual(detail.graphicsRow(height: state.listHeight) != nil, pressesG, "G pressed: \(pressesG)")
            XCTAssertEqual(detail.top, pressesG ? 21 - 9 : 0)
        }
    }

    /// The title column starts at one place on every row, whichever rows
    /// are in view: books' authors, and references of every width.
    func testColumnsAlignWhileRowsScroll() {
        var state = BrowseState(rows: 4, columns: 80, source: .books)
        var window = BrowseWindow(count: 6)
        let authors = ["Austen, Jane", "Homer", "Shelley, Mary Wollstonecraft", "", "Li, Bai", "Doyle, Arthur Conan"]
        for (position, author) in authors.enumerated() {
            window.rows[position] = BrowseRow(
                ref: ItemRef(source: .books, id: [1342, 6130, 84, 7, 99999, 1661][position]), detail: author,
                title: "Title \(position)", isFavorite: false)
        }
        _ = BrowseModel.handle(&state, .answered(.window(.source(.books), positions: 0..<6), .window(window)))
        var starts = Set<Int>()
        for _ in 0..<3 {
            for line in BrowseView.frame(state, now: Date()).dropLast() {
                if let range = line.text.range(of: "Title ") { starts.insert(DisplayWidth.of(String(line.text[..<range.lowerBound]))) }
            }
            _ = BrowseModel.handle(&state, .key(.pageDown))
        }
        XCTAssertEqual(starts.count, 1, "\(starts)")

        var favourites = BrowseState(rows: 6, columns: 80, source: .xkcd)
        _ = BrowseModel.handle(&favourites, .key(.character("F")))
        _ = BrowseModel.handle(&favourites, .loadedRows(.favorites, [
            BrowseRow(ref: ItemRef(source: .xkcd, id: 1), detail: "2006-01-01", title: "Title a", isFavorite: true),
            BrowseRow(ref: ItemRef(source: .books, id: 1342), detail: "Austen, Jane", title: "Title b", isFavorite: true),
        ], total: nil))
        let lines = BrowseView.frame(favourites, now: Date()).prefix(2).map(\.text)
        XCTAssertEqual(Set(lines.map { $0.range(of: "Title")!.lowerBound.utf16Offset(in: $0) }).count, 1, "\(lines)")
    }

    /// Search results as the CLI shows them: the snippet under each
    /// title, the matched words bold in both.
    func testSearchResultsShowTheirSnippetsWithTheMatchesInBold() {
        var state = BrowseState(rows: 7, columns: 60, source: .xkcd)
        for key in "/sleep" { _ = BrowseModel.handle(&state, .key(.character(key))) }
        _ = BrowseModel.handle(&state, .key(.enter))
        let (start, end) = (String(SearchMatch.start), String(SearchMatch.end))
        _ = BrowseModel.handle(&state, .loadedRows(.search("sleep"), (1...5).map { id in
            BrowseRow(ref: ItemRef(source: .xkcd, id: id), detail: "2006-01-01", title: "Girl \(start)sleeping\(end)",
                      isFavorite: false, snippet: "…she is \(start)sleeping\(end) now…")
        }, total: 5))
        let frame = BrowseView.frame(state, now: Date())
        XCTAssertEqual(frame[0].text.trimmingCharacters(in: .whitespaces), "xkcd:1  2006-01-01  Girl sleeping")
        XCTAssertEqual(frame[1].text.trimmingCharacters(in: .whitespaces), "…she is sleeping now…")
        XCTAssertEqual(frame[1].text.prefix { $0 == " " }.count, frame[0].text.distance(
            from: frame[0].text.startIndex, to: frame[0].text.range(of: "Girl")!.lowerBound), "under the title")
        XCTAssertEqual(frame[0].colors?.filter(\.isBold).map(\.text), ["sleeping"])
        XCTAssertEqual(frame[1].colors?.filter(\.isBold).map(\.text), ["sleeping"])
        XCTAssertTrue(frame.allSatisfy { !$0.text.contains(SearchMatch.start) && DisplayWidth.of($0.text) == 60 })
        for _ in 0..<4 { _ = BrowseModel.handle(&state, .key(.down)) }
        guard case let .list(list) = state.visible else { return XCTFail() }
        XCTAssertEqual(list.top, 2, "three results of two lines fit in six")
    }

    /// Search results are read a page at a time: nearing the last read
    /// asks for the next, until every match is listed.
    func testSearchResultsPageAsTheSelectionNearsTheEnd() {
        var state = BrowseState(rows: 12, columns: 60, source: .xkcd)
        for key in "/cat" { _ = BrowseModel.handle(&state, .key(.character(key))) }
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [])
        XCTAssertTrue(BrowseModel.queries(state).contains(.rows(.search("cat"), limit: BrowseList.searchPage)), "the screen reads the search")
        func rows(_ count: Int) -> [BrowseRow] {
            (1...count).map { BrowseRow(ref: ItemRef(source: .xkcd, id: $0), detail: "", title: "Cat \($0)", isFavorite: false) }
        }
        _ = BrowseModel.handle(&state, .loadedRows(.search("cat"), rows(BrowseList.searchPage), total: 1_200))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.pageDown)), [], "far from the end: nothing more read")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("G"))), [])
        XCTAssertTrue(BrowseModel.queries(state).contains(.rows(.search("cat"), limit: 2 * BrowseList.searchPage)), "a page more")
        guard case let .list(list) = state.visible else { return XCTFail() }
        XCTAssertEqual(list.wanted, 2 * BrowseList.searchPage)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.up)), [], "one page asked for at a time")
        _ = BrowseModel.handle(&state, .loadedRows(.search("cat"), rows(2 * BrowseList.searchPage), total: 1_200))
        guard case let .list(more) = state.visible else { return XCTFail() }
        XCTAssertEqual(more.selected, BrowseList.searchPage - 2, "the selection stays on its row")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("G"))), [])
        XCTAssertTrue(BrowseModel.queries(state).contains(.rows(.search("cat"), limit: 3 * BrowseList.searchPage)))
        _ = BrowseModel.handle(&state, .loadedRows(.search("cat"), rows(1_200), total: 1_200))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("G"))), [])
        XCTAssertTrue(BrowseModel.queries(state).contains(.rows(.search("cat"), limit: 3 * BrowseList.searchPage)), "every match listed: no more asked")
        guard case let .list(all) = state.visible else { return XCTFail() }
        XCTAssertEqual(all.selected, 1_199)
    }

    /// A date is shown whole or not at all: at 40 columns, with labels as
    /// wide as `xkcd:1234`, it goes rather than read "2021-01-…".
    func testANarrowListDropsTheDateRatherThanCutIt() {
        var state = BrowseState(rows: 6, columns: 40, source: .xkcd)
        _ = BrowseModel.handle(&state, .key(.character("F")))
        _ = BrowseModel.handle(&state, .loadedRows(.favorites, (1_230...1_233).map { id in
            BrowseRow(ref: ItemRef(source: .xkcd, id: id), detail: "2021-01-0\(id % 10)", title: "Title \(id)", isFavorite: true)
        }, total: nil))
        let narrow = BrowseView.frame(state, now: Date()).prefix(4).map(\.text)
        XCTAssertTrue(narrow.allSatisfy { !$0.contains("…") && !$0.contains("2021") }, "\(narrow)")
        XCTAssertTrue(narrow.allSatisfy { $0.contains("Title 123") }, "\(narrow)")
        _ = BrowseModel.handle(&state, .resized(rows: 6, columns: 60))
        XCTAssertTrue(BrowseView.frame(state, now: Date()).prefix(4).allSatisfy { $0.text.contains("2021-01-0") }, "room for it: whole")
    }

    func testTheHelpScrollsWhenItDoesNotFit() {
        var state = BrowseState(rows: 12, columns: 40, source: .xkcd)
        _ = BrowseModel.handle(&state, .key(.character("?")))
        var frames = [BrowseView.frame(state, now: Date())]
        for _ in 0..<12 {
            _ = BrowseModel.handle(&state, .key(.character(" ")))
            frames.append(BrowseView.frame(state, now: Date()))
        }
        XCTAssertTrue(state.showsHelp, "a moving key scrolls the help")
        XCTAssertNotEqual(frames[0].map(\.text), frames[1].map(\.text))
        let shown = frames.flatMap { $0.dropLast() }
        XCTAssertTrue(frames.last?.contains { $0.text.contains("quit from anywhere") } == true, "the last key is reached")
        XCTAssertFalse(shown.contains { $0.text.trimmingCharacters(in: .whitespaces).hasSuffix("…") }, "descriptions wrap, none is cut")
        XCTAssertTrue(shown.contains { $0.text.hasPrefix("                      ") && !$0.text.trimmingCharacters(in: .whitespaces).isEmpty },
                      "a description's next line under its column")
        _ = BrowseModel.handle(&state, .key(.character("x")))
        XCTAssertFalse(state.showsHelp)
    }

    func testNewerComicsGoOnTopAndTheSelectionStaysOnItsItem() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        _ = read(&state, cached: 181...200)
        _ = BrowseModel.handle(&state, .key(.down))
        _ = read(&state, newest: 203, cached: 181...203)
        XCTAssertEqual(list(state)?.selectedRow?.ref.id, 199)
        XCTAssertEqual(list(state)?.top, 0, "a list at its top shows the new ones")
        for _ in 0..<15 { _ = BrowseModel.handle(&state, .key(.down)) }
        let before = list(state)
        _ = read(&state, newest: 205, cached: 181...205)
        XCTAssertEqual(list(state)?.selectedRow?.ref, before?.selectedRow?.ref)
        XCTAssertEqual(list(state)?.top, (before?.top ?? 0) + 2, "a scrolled list keeps its rows in place")
    }

    func testEnterOpensBackReturnsAndNextFollowsTheList() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = read(&state, cached: 171...200)
        _ = BrowseModel.handle(&state, .key(.down))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [.showDetail(ItemRef(source: .xkcd, id: 199), width: 80, height: 19)])
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("n"))), [.showDetail(ItemRef(source: .xkcd, id: 198), width: 80, height: 19)])
        XCTAssertEqual(state.screens.count, 2)
        _ = BrowseModel.handle(&state, .key(.escape))
        XCTAssertEqual(list(state)?.selectedRow?.ref.id, 198)
        _ = BrowseModel.handle(&state, .key(.escape))
        XCTAssertEqual(state.screens.count, 1, "the list is the bottom of the stack")
    }

    func testAFavouriteToggledAnywhereShowsEverywhere() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = read(&state, cached: 191...200)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("f"))), [.toggleFavorite(ItemRef(source: .xkcd, id: 200))])
        XCTAssertEqual(list(state)?.selectedRow?.isFavorite, true, "at once, before the database answers")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("F"))), [])
        XCTAssertEqual(BrowseModel.queries(state), [.favorites, .rows(.favorites, limit: BrowseList.searchPage)], "the favourites screen reads them")
        let changed = BrowseModel.handle(&state, .answered(.favorites, .favorites([ItemRef(source: .xkcd, id: 199)])))
        XCTAssertEqual(changed, [])
        guard case let .list(bottom) = state.screens[0] else { return XCTFail() }
        XCTAssertEqual(bottom.window.rows.values.filter(\.isFavorite).map(\.ref.id), [199])
    }

    func testSearchPromptAndHelpAndQuit() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        _ = BrowseModel.handle(&state, .key(.character("/")))
        for character in "cat x" { _ = BrowseModel.handle(&state, .key(.character(character))) }
        _ = BrowseModel.handle(&state, .key(.backspace))
        XCTAssertEqual(BrowseView.status(state, now: Date()), "search: cat ▏")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [])
        XCTAssertTrue(BrowseModel.queries(state).contains(.rows(.search("cat"), limit: BrowseList.searchPage)))
        XCTAssertNil(state.prompt)
        for character in "/dog" { _ = BrowseModel.handle(&state, .key(.character(character))) }
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [])
        XCTAssertTrue(BrowseModel.queries(state).contains(.rows(.search("dog"), limit: BrowseList.searchPage)))
        XCTAssertFalse(BrowseModel.queries(state).contains(.rows(.search("cat"), limit: BrowseList.searchPage)), "the first is read no more")
        XCTAssertEqual(state.screens.count, 2, "a second search replaces the first")
        _ = BrowseModel.handle(&state, .key(.character("?")))
        XCTAssertTrue(state.showsHelp)
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertFalse(state.showsHelp, "any key closes the help")
        XCTAssertFalse(state.isFinished)
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertEqual(state.screens.count, 1, "q leaves the search screen")
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertTrue(state.isFinished)
    }

    func testSwitchingSourceFindsEachWhereItWasLeft() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        _ = read(&state, cached: 191...200)
        for _ in 0..<25 { _ = BrowseModel.handle(&state, .key(.down)) }
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("s"))), [], "the runtime reads the new window")
        XCTAssertEqual(list(state)?.listing, .source(.books))
        XCTAssertEqual(list(state)?.selected, 0, "books start at their top")
        _ = BrowseModel.handle(&state, .key(.character("s")))
        _ = read(&state, cached: 191...200)
        XCTAssertEqual(list(state)?.selected, 25, "xkcd where it was left")
        XCTAssertEqual(list(state)?.top, 16)
    }

    /// The status line: a failure and its reason, then refreshing, then
    /// the age of the oldest row in view, never growing after a refresh.
    func testTheStatusSaysWhatIsTrue() {
        var state = BrowseState(rows: 20, columns: 80, source: .xkcd)
        let now = Date()
        var window = window(newest: 200, cached: 171...200)
        for position in 0..<200 { window.cachedAt[position] = now.addingTimeInterval(-2 * 86400) }
        _ = BrowseModel.handle(&state, .answered(.window(.source(.xkcd), positions: 0..<200), .window(window)))
        XCTAssertEqual(BrowseView.status(state, now: now), " xkcd · 1 of 200 · updated 2 days ago · ? keys")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("r"))), [.refresh(.source(.xkcd), inView: 0..<19)])
        XCTAssertEqual(BrowseView.status(state, now: now), " xkcd · 1 of 200 · refreshing… · ? keys")
        _ = BrowseModel.handle(&state, .fetched(.source(.xkcd), failure: "xkcd.com failed (HTTP 500)", refresh: true, at: now))
        XCTAssertEqual(BrowseView.status(state, now: now), " xkcd · 1 of 200 · refresh failed just now: xkcd.com failed (HTTP 500); r retries", "no room left for ? keys")
        XCTAssertEqual(list(state)?.window.rows.count, 30, "the rows stay")
        _ = BrowseModel.handle(&state, .key(.character("r")))
        for position in 0..<200 { window.cachedAt[position] = now }
        _ = BrowseModel.handle(&state, .answered(.window(.source(.xkcd), positions: 0..<200), .window(window)))
        _ = BrowseModel.handle(&state, .fetched(.source(.xkcd), failure: nil, refresh: true, at: now))
        XCTAssertEqual(BrowseView.status(state, now: now), " xkcd · 1 of 200 · updated just now · ? keys")
    }

    func testANarrowStatusLineGivesTheReasonTheRoom() {
        var state = BrowseState(rows: 12, columns: 40, source: .xkcd)
        _ = read(&state, cached: 191...200)
        _ = BrowseModel.handle(&state, .fetched(.source(.xkcd), failure: "HTTP 500", refresh: true, at: Date()))
        XCTAssertEqual(BrowseView.status(state, now: Date()), " xkcd · 1 of 200 · refresh failed just now: HTTP 500; r retries")
        state.columns = 120
        XCTAssertTrue(BrowseView.status(state, now: Date()).hasSuffix("; r retries · ? keys"))
    }

    func testAnEmptyScreenSaysWhyInItsRows() {
        var state = BrowseState(rows: 8, columns: 30, source: .xkcd)
        let record = RefreshRecord(lastFailure: Date(), failureReason: "cannot reach xkcd.com: couldn't connect to server")
        _ = BrowseModel.handle(&state, .answered(.refreshRecord(.xkcd), .refreshRecord(record)))
        let frame = BrowseView.frame(state, now: Date())
        XCTAssertEqual(frame.prefix(3).map { $0.text.trimmingCharacters(in: .whitespaces) },
                       ["nothing cached, and cannot", "reach xkcd.com: couldn't", "connect to server"])
    }

    /// Every frame is exactly the screen's size, whatever the rows hold.
    func testFramesFitTheScreen() {
        var state = BrowseState(rows: 8, columns: 30, source: .xkcd)
        var window = BrowseWindow(count: 2)
        window.rows[1] = BrowseRow(ref: ItemRef(source: .xkcd, id: 1), detail: "2020-01-01", title: String(repeating: "漢", count: 40), isFavorite: true)
        window.rows[0] = BrowseRow(ref: ItemRef(source: .xkcd, id: 2), detail: "", title: "e\u{301}\u{301} combining", isFavorite: false)
        _ = BrowseModel.handle(&state, .answered(.window(.source(.xkcd), positions: 0..<200), .window(window)))
        let frame = BrowseView.frame(state, now: Date())
        XCTAssertEqual(frame.count, 8)
        XCTAssertEqual(Set(frame.map { DisplayWidth.of($0.text) }), [30])
        XCTAssertTrue(frame[1].text.hasPrefix("★    1  漢"), "at 30 columns the date goes first: \(frame[1].text)")
        XCTAssertTrue(frame[1].text.trimmingCharacters(in: .whitespaces).hasSuffix("…"))
    }
}

/// Bytes from the terminal to keys.
final class KeyDecoderTests: XCTestCase {
    private func keys(_ chunks: [String]) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.feed(Array($0.utf8)) } + decoder.flush()
    }

    func testKeysAndSequences() {
        XCTAssertEqual(keys(["jk\r"]), [.character("j"), .character("k"), .enter])
        XCTAssertEqual(keys(["\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D"]), [.up, .down, .right, .left])
        XCTAssertEqual(keys(["\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[4~\u{1B}[1;5A"]), [.pageUp, .pageDown, .home, .end, .up])
        XCTAssertEqual(keys(["\u{1B}OP\u{1B}[11~"]), [.f1, .f1], "F1 as xterm and as rxvt send it")
        XCTAssertEqual(keys(["\t\u{1B}[Z\u{0F}"]), [.tab, .backTab, .control("o")], "Tab, Shift-Tab, Ctrl-O")
        XCTAssertEqual(keys(["\u{1B}"]), [.escape], "a lone ESC, once nothing follows")
        XCTAssertEqual(keys(["é漢🙂"]), [.character("é"), .character("漢"), .character("🙂")])
    }

    func testSequencesSplitAcrossReadsAreJoined() {
        XCTAssertEqual(keys(["\u{1B}", "[", "6", "~"]), [.pageDown])
        XCTAssertEqual(keys(["\u{E6}".utf8.count == 2 ? "\u{E6}" : ""]), [.character("æ")])
        var decoder = KeyDecoder()
        let bytes = Array("漢".utf8)
        XCTAssertEqual(decoder.feed([bytes[0]]), [])
        XCTAssertTrue(decoder.isWaiting)
        XCTAssertEqual(decoder.feed(Array(bytes[1...])), [.character("漢")])
    }

    func testGarbageIsDroppedAndWhatFollowsSurvives() {
        XCTAssertEqual(keys(["\u{1B}[99;99;99Zq"]), [.character("q")], "an unknown sequence")
        XCTAssertEqual(keys(["\u{1B}]0;title\u{07}q"]), [.escape, .character("]"), .character("0"), .character(";"), .character("t"),
                                                      .character("i"), .character("t"), .character("l"), .character("e"), .control("g"),
                                                      .character("q")],
                       "not a key sequence: Esc, then its bytes as keys, a control as Ctrl and its letter")
        XCTAssertEqual(keys(["\u{1B}j"]), [.escape, .character("j")], "Esc and a key typed at once are both keys")
        XCTAssertEqual(keys(["\u{1B}[<64;3;4M\u{1B}[<65;3;4M\u{1B}[<0;12;5M\u{1B}[<0;12;5m\u{1B}[<2;1;1M"]),
                       [.wheelUp, .wheelDown, .click(row: 4, column: 11)], "SGR mouse reports: releases and other buttons mean nothing")
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0xFF, 0xC3, 0x28, 0x00, 0x61]), [.character("("), .character("a")])
        _ = decoder.feed(Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: ";"), count: 100))
        XCTAssertFalse(decoder.isWaiting, "a sequence longer than any key is given up, not waited for")
        XCTAssertEqual(decoder.feed([UInt8(ascii: "j")]), [.character("j")])
    }

    /// Whatever the bytes, in whatever chunks: no crash, and no key holds a control character.
    func testRandomBytesNeverYieldAControlCharacter() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var decoder = KeyDecoder()
            var produced: [Key] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let chunk = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : [0x1B, 0x5B, 0x4F, 0x7E, 0x31, 0x3B].randomElement(using: &generator)!
                }
                produced += decoder.feed(chunk)
            }
            produced += decoder.flush()
            for case let .character(character) in produced {
                XCTAssertFalse(character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(produced)")
            }
        }
    }
}

/// The README lists browse's keys from the same table as its help screen.
final class BrowseKeysDocumentationTests: XCTestCase {
    func testTheReadmeListsEveryKeyAsTheHelpScreenDoes() throws {
        let readme = try String(contentsOfFile: Fixtures.path("../../README.md"), encoding: .utf8)
        let rows = readme.components(separatedBy: "\n").filter { $0.hasPrefix("| `") && $0.contains("` | ") }
        for (keys, action) in BrowseKeys.table {
            XCTAssertTrue(rows.contains("| `\(keys)` | \(action) |"), "README lacks the row for \(keys)")
        }
    }
}

/// Chafa's symbols, read into runs of colours for ncurses to draw.
final class SymbolPictureTests: XCTestCase {
    func testColoursBecomeRunsAndNothingElseSurvives() {
        let drawn = "\u{1B}[?25l\u{1B}[38;5;254m\u{1B}[48;5;237m▌▌\u{1B}[39m\u{1B}[48;5;231m  \u{1B}[0m\n"
            + "\u{1B}[7m\u{1B}[38;5;1m\u{1B}[48;5;2mx\u{1B}[27m\u{1B}]0;owned\u{07}y\u{1B}[m\n"
        let lines = SymbolPicture.runs(drawn)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[0], [
            BrowseRun(text: "▌▌", foreground: 254, background: 237), BrowseRun(text: "  ", foreground: -1, background: 231),
        ])
        XCTAssertEqual(lines[1].first, BrowseRun(text: "x", foreground: 2, background: 1), "inverse swaps the colours")
        XCTAssertFalse(lines[1].map(\.text).joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x07 })
    }
}
