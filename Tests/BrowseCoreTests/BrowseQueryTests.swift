import ComicsKit
import Foundation
import XCTest

@testable import BrowseCore

/// What the screens declare they show, and the decisions the model makes
/// from the time its messages carry: no terminal, no database, no clock.
final class BrowseQueryTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func row(_ id: Int) -> BrowseRow {
        BrowseRow(ref: ItemRef(source: .xkcd, id: id), detail: "", title: "Comic \(id)", isFavorite: false)
    }

    /// The archive of 200 comics, every one cached.
    private func archive(_ state: inout BrowseState) {
        var window = BrowseWindow(count: 200)
        for position in 0..<200 { window.rows[position] = row(200 - position) }
        _ = BrowseModel.handle(&state, .answered(.window(.source(.xkcd), positions: 0..<200), .window(window)))
    }

    private func windows(_ state: BrowseState) -> [Range<Int>] {
        BrowseModel.queries(state).compactMap { query in
            if case let .window(_, positions) = query { positions } else { nil }
        }
    }

    func testAListDeclaresTheWindowAroundItsViewAndJMovesIt() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        XCTAssertEqual(BrowseModel.queries(state), [.favorites, .refreshRecord(.xkcd), .window(.source(.xkcd), positions: 0..<20)])
        archive(&state)
        for _ in 0..<10 { _ = BrowseModel.handle(&state, .key(.character("j"))) }
        XCTAssertEqual(windows(state), [0..<21], "the tenth j scrolls one row")
        _ = BrowseModel.handle(&state, .key(.character("G")))
        XCTAssertEqual(windows(state), [180..<210])
    }

    func testWithTheReaderOnTopNoListIsQueried() {
        var state = BrowseState(rows: 11, columns: 80, source: .books)
        _ = BrowseModel.handle(&state, .startReading(ItemRef(source: .books, id: 11), title: "Alice", from: .saved, searching: nil))
        XCTAssertEqual(BrowseModel.queries(state), [], "the text is not open yet: nothing to read")
        XCTAssertNil(BrowseModel.fetchWanted(state), "nor anything to fetch")
        XCTAssertTrue(state.leavesWithReader)
    }

    func testADetailDeclaresItsItemAndKeepsTheListUnderIt() {
        var state = BrowseState(rows: 11, columns: 60, source: .xkcd)
        archive(&state)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [.showDetail(ItemRef(source: .xkcd, id: 200), width: 60, height: 10)])
        XCTAssertEqual(BrowseModel.queries(state), [
            .favorites, .detail(ItemRef(source: .xkcd, id: 200), width: 60), .refreshRecord(.xkcd), .window(.source(.xkcd), positions: 0..<20),
        ])
    }

    /// An item upstream lacks is said in its screen, not waited for.
    func testAnItemThatCannotBeHadSaysWhy() {
        var state = BrowseState(rows: 11, columns: 60, source: .xkcd)
        archive(&state)
        _ = BrowseModel.handle(&state, .key(.enter))
        _ = BrowseModel.handle(&state, .answered(.detail(ItemRef(source: .xkcd, id: 200), width: 60), .detail(nil)))
        _ = BrowseModel.handle(&state, .itemUnavailable(ItemRef(source: .xkcd, id: 200), "xkcd has no comic 200 (HTTP 404)"))
        guard case let .detail(detail) = state.visible else { return XCTFail("\(state.visible)") }
        XCTAssertEqual(detail.lines, ["xkcd has no comic 200 (HTTP 404)"])
        XCTAssertNil(detail.pictureNote, "no picture is loading for it")
    }

    func testAListTheDatabaseCannotGiveSaysWhyInsteadOfLoading() {
        var state = BrowseState(rows: 11, columns: 60, source: .xkcd)
        _ = BrowseModel.handle(&state, .key(.character("F")))
        _ = BrowseModel.handle(&state, .unanswered(.rows(.favorites, limit: BrowseList.searchPage), "the database is locked"))
        guard case let .list(list) = state.visible else { return XCTFail() }
        XCTAssertFalse(list.isLoading)
        XCTAssertEqual(list.failure, "the database is locked")
        _ = BrowseModel.handle(&state, .answered(.rows(.favorites, limit: BrowseList.searchPage), .rows([row(7)], total: nil)))
        guard case let .list(answered) = state.visible else { return XCTFail() }
        XCTAssertNil(answered.failure, "an answer replaces the failure")
    }

    func testWhatIsFetchedIsWhatTheCacheLacksTheWayTheSelectionMoves() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        var window = BrowseWindow(count: 200)
        for position in 25..<35 { window.rows[position] = row(200 - position) }
        window.absent[36] = BrowseAbsence(id: 164, reason: "there is no xkcd comic 164")
        _ = BrowseModel.handle(&state, .answered(.window(.source(.xkcd), positions: 0..<200), .window(window)))
        for _ in 0..<30 { _ = BrowseModel.handle(&state, .key(.character("j"))) }
        XCTAssertEqual(BrowseModel.fetchWanted(state)?.missing, [21, 22, 23, 24, 35, 37, 38, 39, 40],
                       "moving down: the rows in view not cached, then the screen below; neither cached nor known absent")
        _ = BrowseModel.handle(&state, .key(.character("k")))
        _ = BrowseModel.handle(&state, .key(.character("k")))
        XCTAssertEqual(BrowseModel.fetchWanted(state)?.missing, [21, 22, 23, 24, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11],
                       "moving up: the screen above, nearest first")
        var offline = BrowseState(rows: 11, columns: 80, source: .xkcd, settings: { var settings = BrowseSettings(); settings.offline = true; return settings }())
        archive(&offline)
        XCTAssertNil(BrowseModel.fetchWanted(offline), "--offline fetches nothing")
    }

    func testASecondClickSoonAfterOnTheSameRowOpens() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        archive(&state)
        _ = BrowseModel.handle(&state, .time(start))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.click(row: 2, column: 5))), [])
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(0.2)))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.click(row: 2, column: 5))), [.showDetail(ItemRef(source: .xkcd, id: 198), width: 80, height: 10)])
        _ = BrowseModel.handle(&state, .key(.escape))
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(1)))
        _ = BrowseModel.handle(&state, .key(.click(row: 3, column: 5)))
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(1.6)))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.click(row: 3, column: 5))), [], "too slow: two clicks")
        _ = BrowseModel.handle(&state, .time(start.addingTimeInterval(1.7)))
        XCTAssertEqual(BrowseModel.handle(&state, .key(.click(row: 4, column: 5))), [], "another row: a click")
    }

    /// A failure is said until a later success replaces it, whatever
    /// fetch made either: a fetch that reached nothing does not hide it.
    func testAFailureStaysSaidUntilASuccessAfterIt() {
        var state = BrowseState(rows: 11, columns: 80, source: .xkcd)
        archive(&state)
        let failing = RefreshRecord(lastSuccess: start.addingTimeInterval(-600), lastFailure: start, failureReason: "xkcd.com did not answer in time")
        _ = BrowseModel.handle(&state, .answered(.refreshRecord(.xkcd), .refreshRecord(failing)))
        let said = BrowseFreshness.failed(reason: "xkcd.com did not answer in time", at: start, refreshing: false)
        XCTAssertEqual(state.freshness(of: .xkcd), said)
        _ = BrowseModel.handle(&state, .fetched(.source(.xkcd), failure: nil, refresh: false, at: start.addingTimeInterval(10)))
        XCTAssertEqual(state.freshness(of: .xkcd), said, "a fetch that asked nothing of upstream")
        var recovered = failing
        recovered.lastSuccess = start.addingTimeInterval(20)
        _ = BrowseModel.handle(&state, .answered(.refreshRecord(.xkcd), .refreshRecord(recovered)))
        XCTAssertEqual(state.freshness(of: .xkcd), .quiet)
        XCTAssertEqual(state.freshness(of: .books), .quiet, "each source its own")
    }
}
