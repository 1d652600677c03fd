@testable import ComicsKit
import Foundation
import TestSupport
import XCTest

/// The observation on a real SQLite file: what a screen shows is re-read
/// when, and only when, the database or the declared queries changed.
final class DatabaseObservationTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func comic(_ id: Int, _ title: String) -> FetchedItem {
        FetchedItem(item: Item(ref: ItemRef(source: .xkcd, id: id), title: title, url: "https://xkcd.com/\(id)/", attributes: []), validators: Validators())
    }

    /// An observation of titles by comic number over `store`.
    private func titles(_ store: SQLiteCacheStore) -> DatabaseObservation<Int, String?> {
        DatabaseObservation(version: { try store.databaseVersion() }) { id in
            try store.cachedItem(ItemRef(source: .xkcd, id: id))?.item.title
        }
    }

    private func answers(_ changes: [(query: Int, outcome: DatabaseObservation<Int, String?>.Outcome)]) -> [Int: String?] {
        var answers: [Int: String?] = [:]
        for change in changes {
            guard case let .answer(title) = change.outcome else { XCTFail("\(change)"); continue }
            answers[change.query] = title
        }
        return answers
    }

    func testADeclaredQueryIsAnsweredOnceAndNotRunAgainWithoutAWrite() throws {
        let store = try SQLiteCacheStore(path: directory.file("comics.db"), now: now)
        try store.save([comic(1, "One")], at: now)
        let observation = titles(store)
        XCTAssertEqual(answers(observation.changes(for: [1, 2])), [1: "One", 2: String?.none])
        XCTAssertEqual(observation.runs, 2)
        for _ in 0..<5 { XCTAssertTrue(observation.changes(for: [1, 2]).isEmpty) }
        XCTAssertEqual(observation.runs, 2, "no write, no run")
    }

    func testAWriteByAnotherProcessIsDelivered() throws {
        let path = directory.file("comics.db")
        let store = try SQLiteCacheStore(path: path, now: now)
        try store.save([comic(1, "One")], at: now)
        let observation = titles(store)
        _ = observation.changes(for: [1])
        try DatabaseProbe.execute(on: path, "UPDATE items SET title = 'Renamed' WHERE source = 'xkcd' AND id = 1")
        XCTAssertEqual(answers(observation.changes(for: [1])), [1: "Renamed"])
    }

    func testAWriteByThisProcessIsDeliveredWhicheverConnectionMadeIt() throws {
        let path = directory.file("comics.db")
        let store = try SQLiteCacheStore(path: path, now: now)
        let other = try SQLiteCacheStore(path: path, now: now)
        let observation = titles(store)
        XCTAssertEqual(answers(observation.changes(for: [1])), [1: String?.none])
        try other.save([comic(1, "From another connection")], at: now)
        XCTAssertEqual(answers(observation.changes(for: [1])), [1: "From another connection"])
        try store.save([comic(1, "From its own")], at: now)
        XCTAssertEqual(answers(observation.changes(for: [1])), [1: "From its own"])
    }

    func testOnlyAnswersThatChangedAreDelivered() throws {
        let path = directory.file("comics.db")
        let store = try SQLiteCacheStore(path: path, now: now)
        try store.save([comic(1, "One"), comic(2, "Two")], at: now)
        let observation = titles(store)
        _ = observation.changes(for: [1, 2])
        try DatabaseProbe.execute(on: path, "UPDATE items SET title = 'Deux' WHERE source = 'xkcd' AND id = 2")
        XCTAssertEqual(answers(observation.changes(for: [1, 2])), [2: "Deux"], "comic 1 was re-read and is the same")
        XCTAssertEqual(observation.runs, 4)
    }

    func testAQueryNoLongerDeclaredIsNotRunAndIsAnsweredAfreshWhenDeclaredAgain() throws {
        let path = directory.file("comics.db")
        let store = try SQLiteCacheStore(path: path, now: now)
        try store.save([comic(1, "One"), comic(2, "Two")], at: now)
        let observation = titles(store)
        _ = observation.changes(for: [1, 2])
        try DatabaseProbe.execute(on: path, "UPDATE items SET title = 'Uno' WHERE source = 'xkcd' AND id = 1")
        XCTAssertEqual(answers(observation.changes(for: [2])), [:])
        XCTAssertEqual(observation.runs, 3, "only comic 2 was read again")
        XCTAssertEqual(answers(observation.changes(for: [1, 2])), [1: "Uno"])
    }

    func testAFailingQueryIsDeliveredAsAFailureUntilItAnswers() throws {
        let store = try SQLiteCacheStore(path: directory.file("comics.db"), now: now)
        var broken = true
        let observation = DatabaseObservation<Int, String>(version: { try store.databaseVersion() }) { id in
            if broken { throw ComicsError.database("comic \(id) cannot be read") }
            return "fine"
        }
        let first = observation.changes(for: [7])
        XCTAssertEqual(first.map(\.outcome), [.failure("comic 7 cannot be read")])
        broken = false
        XCTAssertTrue(observation.changes(for: [7]).isEmpty, "nothing was written: not run again")
        try store.save([comic(1, "One")], at: now)
        XCTAssertEqual(observation.changes(for: [7]).map(\.outcome), [.answer("fine")])
    }
}
