import ComicsKit
import Foundation
import XCTest

final class FreshnessTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_000_000)

    func testFreshStaleAndMissing() {
        let policy = CachePolicy.standard
        XCTAssertEqual(policy.freshness(cachedAt: nil, ttl: 3600, now: start), .missing)
        XCTAssertEqual(policy.freshness(cachedAt: start, ttl: 3600, now: start.addingTimeInterval(3599)), .fresh)
        XCTAssertEqual(policy.freshness(cachedAt: start, ttl: 3600, now: start.addingTimeInterval(3600)), .stale(age: 3600))
        XCTAssertEqual(policy.freshness(cachedAt: start, ttl: policy.detailTTL, now: start.addingTimeInterval(86401)), .stale(age: 86401))
    }

    func testACopyFromTheFutureIsFreshNotForever() {
        let policy = CachePolicy.standard
        XCTAssertEqual(policy.freshness(cachedAt: start.addingTimeInterval(600), ttl: 3600, now: start), .fresh)
    }
}

final class CleanupRulesTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 10_000_000)

    private func candidate(_ source: SourceName, _ id: Int, daysAgo: Double, usedDaysAgo: Double? = nil) -> CleanupRules.Candidate {
        CleanupRules.Candidate(
            ref: ItemRef(source: source, id: id), cachedAt: now.addingTimeInterval(-daysAgo * 86400),
            usedAt: usedDaysAgo.map { now.addingTimeInterval(-$0 * 86400) })
    }

    func testExpiredItemsGoFirst() {
        let rules = CleanupRules(maxAge: 30 * 86400, maxItems: 500)
        let selected = rules.selectForRemoval(from: [
            candidate(.xkcd, 1, daysAgo: 31), candidate(.xkcd, 2, daysAgo: 29), candidate(.xkcd, 3, daysAgo: 45),
        ], now: now)
        XCTAssertEqual(selected.map(\.ref.id), [3, 1])
    }

    func testTheLeastRecentlyUsedGoBeyondMaxItems() {
        let rules = CleanupRules(maxAge: 30 * 86400, maxItems: 2)
        let selected = rules.selectForRemoval(from: [
            candidate(.xkcd, 1, daysAgo: 1, usedDaysAgo: 0), candidate(.xkcd, 2, daysAgo: 3, usedDaysAgo: 2),
            candidate(.xkcd, 3, daysAgo: 2.5), candidate(.xkcd, 4, daysAgo: 0, usedDaysAgo: 1), candidate(.xkcd, 5, daysAgo: 40, usedDaysAgo: 0),
        ], now: now)
        XCTAssertEqual(selected.map(\.ref.id), [5, 3, 2], "5 expired (however recently used), then the longest unused (3 never, since it came)")
    }

    /// A sync refreshes everything in one second: among items unused since,
    /// the lowest number goes first; one just fetched and not yet used
    /// counts as used when it came, so it outlasts what was not used since.
    func testAmongTheUnusedTheOldestPublishedGoFirst() {
        let rules = CleanupRules(maxAge: 30 * 86400, maxItems: 1)
        let selected = rules.selectForRemoval(from: [
            candidate(.xkcd, 2698, daysAgo: 1), candidate(.xkcd, 1, daysAgo: 1), candidate(.xkcd, 2, daysAgo: 1),
        ], now: now)
        XCTAssertEqual(selected.map(\.ref.id), [1, 2])
        let fresh = rules.selectForRemoval(from: [
            candidate(.xkcd, 150, daysAgo: 0), candidate(.xkcd, 1, daysAgo: 1, usedDaysAgo: 0.5),
        ], now: now)
        XCTAssertEqual(fresh.map(\.ref.id), [1], "the one just fetched stays")
    }

    func testEachSourceHasItsOwnLimits() {
        var rules = CleanupRules(maxAge: 30 * 86400, maxItems: 500)
        rules[.books] = CleanupRules.Limits(maxAge: 7 * 86400, maxItems: 1)
        let selected = rules.selectForRemoval(from: [
            candidate(.xkcd, 1, daysAgo: 10), candidate(.books, 2, daysAgo: 10),
            candidate(.books, 3, daysAgo: 1, usedDaysAgo: 1), candidate(.books, 4, daysAgo: 2, usedDaysAgo: 2),
        ], now: now)
        XCTAssertEqual(selected.map(\.ref), [ItemRef(source: .books, id: 2), ItemRef(source: .books, id: 4)])
        XCTAssertNil(rules.uniformLimits)
    }

    func testNothingToRemove() {
        XCTAssertEqual(CleanupRules.standard.selectForRemoval(from: [], now: now), [])
        XCTAssertEqual(CleanupRules.standard.selectForRemoval(from: [candidate(.xkcd, 1, daysAgo: 1)], now: now), [])
    }

    func testDurations() {
        XCTAssertEqual(CleanupRules.parseDuration("30d"), 30 * 86400)
        XCTAssertEqual(CleanupRules.parseDuration("12h"), 12 * 3600)
        XCTAssertEqual(CleanupRules.parseDuration("2w"), 14 * 86400)
        XCTAssertEqual(CleanupRules.parseDuration("0s"), 0)
        for bad in ["", "d", "30", "-1d", "1.5d", "30x", "99999999999d"] {
            XCTAssertNil(CleanupRules.parseDuration(bad), bad)
        }
        XCTAssertEqual(CleanupRules.formatDuration(30 * 86400), "30d")
        XCTAssertEqual(CleanupRules.formatDuration(14 * 86400), "2w")
        XCTAssertEqual(CleanupRules.formatDuration(90), "90s")
    }
}
