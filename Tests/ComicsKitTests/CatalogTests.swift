import ComicsKit
import Foundation
import TestSupport
import XCTest

/// The use cases with a clock the test controls, over a real SQLite file
/// and the loopback server.
final class CatalogTests: XCTestCase {
    private var server: FixtureServer!
    private var directory: TemporaryDirectory!
    private var store: SQLiteCacheStore!
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        server = try FixtureServer()
        directory = try TemporaryDirectory()
        store = try SQLiteCacheStore(path: directory.file("comics.db"), now: start)
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func catalog(at offset: TimeInterval = 0, mode: NetworkMode = .cacheFirst) throws -> Catalog {
        var settings = HTTPSettings()
        settings.baseBackoff = 0.01
        let http = CurlHTTPClient(settings: settings)
        return Catalog(
            store: store, sources: [XKCDSource(baseURL: server.baseURL, http: http)],
            clock: .fixed(start.addingTimeInterval(offset)), mode: mode)
    }

    /// `m` twice on one page is one bookmark; a book keeps at most
    /// `Bookmark.limit` of them (a key held down must not fill the disk).
    func testABookmarkIsMadeOncePerPlaceAndTheirNumberIsBounded() throws {
        let ref = ItemRef(source: .books, id: 11)
        let content = BookContent(blocks: (0..<10).map { TextBlock(.prose, "Paragraph \($0) of the book.") }, sections: [])
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: start, originalBytes: 1, sectionCount: 0, wordCount: content.wordCount)
        try store.saveText(content, outline: [], info: info)
        let catalog = try catalog()
        let map = try XCTUnwrap(try catalog.textMap(ref))
        let passage = try XCTUnwrap(try catalog.textPassage(ref, from: 0, upTo: nil))
        let first = try catalog.addBookmark(ref, at: TextPosition(block: 3, offset: 5), in: passage, map: map)
        let again = try catalog.addBookmark(ref, at: TextPosition(block: 3, offset: 5), in: passage, map: map)
        XCTAssertEqual(again, first)
        XCTAssertEqual(try catalog.bookmarks(ref).count, 1)
        XCTAssertEqual(first.percent, 30, accuracy: 0.1, "three paragraphs of ten before it")

        let rows = (2...Bookmark.limit).map { "('books', 11, \($0), 0, \($0), '', 'b', 0, 0)" }.joined(separator: ",")
        try DatabaseProbe.execute(on: directory.file("comics.db"), "INSERT INTO bookmarks (source, id, number, block, block_offset, anchor, name, at, percent) VALUES \(rows)")
        XCTAssertThrowsError(try catalog.addBookmark(ref, at: TextPosition(block: 9), in: passage, map: map)) { error in
            XCTAssertEqual((error as? ComicsError)?.exitCode, 2)
        }
        XCTAssertEqual(try catalog.bookmarks(ref).count, Bookmark.limit)
    }

    /// A bookmark is named with the parts its chapter is in: every book
    /// has a CHAPTER I.
    func testABookmarkIsNamedWithItsPart() throws {
        let ref = ItemRef(source: .books, id: 2600)
        let titles = ["BOOK ONE: 1805", "CHAPTER I", "CHAPTER II", "BOOK TWO: 1806", "CHAPTER I"]
        let levels = [0, 1, 1, 0, 1]
        var blocks: [TextBlock] = []
        var sections: [TextSection] = []
        for (title, level) in zip(titles, levels) {
            sections.append(TextSection(level: level, title: title, firstBlock: blocks.count))
            blocks += [TextBlock(.heading, title)] + (0..<5).map { TextBlock(.prose, "A paragraph of \(title), number \($0).") }
        }
        let content = BookContent(blocks: blocks, sections: sections)
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: start, originalBytes: 1, sectionCount: 5, wordCount: content.wordCount)
        try store.saveText(content, outline: content.outline(), info: info)
        let catalog = try catalog()
        let map = try XCTUnwrap(try catalog.textMap(ref))
        let passage = try XCTUnwrap(try catalog.textPassage(ref, from: 0, upTo: nil))
        XCTAssertEqual(try catalog.addBookmark(ref, at: TextPosition(block: 27), in: passage, map: map).name, "BOOK TWO: 1806 › CHAPTER I")
        XCTAssertEqual(try catalog.addBookmark(ref, at: TextPosition(block: 9), in: passage, map: map).name, "BOOK ONE: 1805 › CHAPTER I")
        XCTAssertEqual(try catalog.addBookmark(ref, at: TextPosition(block: 19), in: passage, map: map).name, "BOOK TWO: 1806")
    }

    /// The reader's save at each page: the place with its section, how far
    /// through the words it is and the paragraph's anchor, and the text
    /// read then; the text's record is otherwise the same download.
    func testAPlaceReadIsSavedWithItsSectionAndTheTextMarkedRead() throws {
        let ref = ItemRef(source: .books, id: 2600)
        let sections = [TextSection(level: 0, title: "CHAPTER I", firstBlock: 0), TextSection(level: 0, title: "CHAPTER II", firstBlock: 5)]
        let blocks = (0..<10).map { TextBlock($0 % 5 == 0 ? .heading : .prose, $0 % 5 == 0 ? "CHAPTER \($0 / 5 + 1)" : "Words of paragraph \($0) here.") }
        let content = BookContent(blocks: blocks, sections: sections)
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: start, originalBytes: 1, sectionCount: 2, wordCount: content.wordCount)
        try store.saveText(content, outline: content.outline(), info: info)
        let before = try XCTUnwrap(try store.textInfo(ref))
        XCTAssertNil(before.readAt)

        try catalog(at: 60).recordReading(ref, at: TextPosition(block: 7, offset: 6))
        let saved = try XCTUnwrap(try store.readingPosition(ref))
        XCTAssertEqual(saved.position, TextPosition(block: 7, offset: 6))
        XCTAssertEqual(saved.section, 2)
        XCTAssertEqual(saved.percent, Double(content.blocks[..<7].map(\.wordCount).reduce(0, +)) * 100 / Double(content.wordCount), accuracy: 0.01)
        XCTAssertEqual(saved.at, start.addingTimeInterval(60))
        let after = try XCTUnwrap(try store.textInfo(ref))
        XCTAssertEqual(after.readAt, start.addingTimeInterval(60))
        XCTAssertNotEqual(after, before)
        XCTAssertTrue(after.isSameDownload(as: before))
        var redownloaded = before
        redownloaded.fetchedAt = start.addingTimeInterval(120)
        XCTAssertFalse(after.isSameDownload(as: redownloaded))

        try catalog(at: 90).recordReading(ref, at: TextPosition(block: 42))
        XCTAssertEqual(try store.readingPosition(ref)?.position, TextPosition(block: 7, offset: 6), "a block past the text saves nothing")
    }

    func testFreshStaleAndMissingPages() throws {
        let first = try catalog()
        XCTAssertEqual(try first.list(.xkcd, query: ListQuery(limit: 3)).map(\.ref.id), [200, 199, 198])
        XCTAssertEqual(first.deferredTasks, [])
        XCTAssertEqual(try server.stats().total, 3)

        let fresh = try catalog(at: 3599)
        _ = try fresh.list(.xkcd, query: ListQuery(limit: 3))
        XCTAssertEqual(fresh.deferredTasks, [], "fresh within the hour")
        XCTAssertEqual(try server.stats().total, 3)

        let stale = try catalog(at: 3600)
        XCTAssertEqual(try stale.list(.xkcd, query: ListQuery(limit: 3)).map(\.ref.id), [200, 199, 198])
        let key = PageKey(source: .xkcd, query: "limit=3", position: "")
        XCTAssertEqual(stale.deferredTasks, [.refreshPage(key)])
        XCTAssertEqual(try server.stats().total, 3, "stale data is served without a request")

        try server.control(.object([("latest", .int(201)), ("comics", .object([("201", FixtureServer.comic(201, title: "New"))]))]))
        try stale.perform(.refreshPage(key))
        XCTAssertEqual(try catalog(at: 3601).list(.xkcd, query: ListQuery(limit: 3)).map(\.ref.id), [201, 200, 199])
    }

    /// A sync asks again for a stale newest comic (the archive may have
    /// grown) rather than walk the old range; a server that does not answer
    /// in time ends the sync there, not after a second wait for the items.
    func testASyncAsksForAStaleNewestAndStopsWhereTheServerHangs() throws {
        _ = try catalog().list(.xkcd, query: ListQuery(limit: 1))
        try server.control(.object([("latest", .int(203)), ("comics", .object((201...203).map { (String($0), FixtureServer.comic($0, title: "New \($0)")) }))]))
        let grown = try catalog(at: 2 * 3600).sync(.xkcd, scope: .archive) { _ in }
        XCTAssertTrue(grown.isComplete, "\(grown.shortfalls)")
        XCTAssertEqual(try store.cachedIDs(of: .xkcd, atMost: nil, limit: 1), [203], "the newest was asked for, not taken from the stale page")

        var settings = HTTPSettings()
        settings.batchTimeout = 1
        let http = CurlHTTPClient(settings: settings)
        let later = Catalog(store: store, sources: [XKCDSource(baseURL: server.baseURL, http: http)], clock: .fixed(start.addingTimeInterval(4 * 3600)))
        try server.control(.object([("fault", .string("hang"))]))
        defer { try? server.control(.object([("fault", .null)])) }
        let asked = try server.requests().count
        XCTAssertThrowsError(try later.sync(.xkcd, scope: .archive) { _ in }) { error in
            XCTAssertEqual((error as? ComicsError)?.exitCode, 4)
            XCTAssertEqual((error as? ComicsError)?.message, "127.0.0.1 did not answer in time")
        }
        try server.control(.object([("fault", .null)]))
        let requests = try server.requests()
        XCTAssertEqual(requests.count - asked, 1, "only the newest was asked for: \(requests.suffix(3))")
    }

    func testAnUnchangedNewestPageIsRevalidatedWith304() throws {
        _ = try catalog().list(.xkcd, query: ListQuery(limit: 2))
        let key = PageKey(source: .xkcd, query: "limit=2", position: "")
        try catalog(at: 7200).perform(.refreshPage(key))
        XCTAssertEqual(try server.stats().hits["/info.0.json"], 2)
        XCTAssertEqual(try store.page(key)?.fetchedAt, start.addingTimeInterval(7200), "the 304 renewed the page")
        XCTAssertEqual(try server.stats().total, 3, "and fetched no comic again")
    }

    func testItemsFollowTheDetailTTL() throws {
        _ = try catalog().show(.item(ItemRef(source: .xkcd, id: 10)))
        let fresh = try catalog(at: 86399)
        _ = try fresh.show(.item(ItemRef(source: .xkcd, id: 10)))
        XCTAssertEqual(fresh.deferredTasks, [])
        let stale = try catalog(at: 86400)
        _ = try stale.show(.item(ItemRef(source: .xkcd, id: 10)))
        XCTAssertEqual(stale.deferredTasks, [.refreshItem(ItemRef(source: .xkcd, id: 10))])
        let refreshed = try catalog(at: 86400, mode: .refresh).show(.item(ItemRef(source: .xkcd, id: 10)))
        XCTAssertEqual(refreshed.cachedAt, start.addingTimeInterval(86400))
    }

    func testNetworkFailureServesTheCacheWithAWarning() throws {
        _ = try catalog().show(.item(ItemRef(source: .xkcd, id: 10)))
        server.stop()
        let offlineServer = try catalog(at: 90000, mode: .refresh)
        XCTAssertEqual(try offlineServer.show(.item(ItemRef(source: .xkcd, id: 10))).ref.id, 10)
        XCTAssertEqual(offlineServer.warnings.count, 1)
        XCTAssertTrue(offlineServer.warnings.first?.hasSuffix("showing the copy cached 1 day ago") ?? false, "\(offlineServer.warnings)")
        XCTAssertThrowsError(try offlineServer.show(.item(ItemRef(source: .xkcd, id: 11)))) { error in
            XCTAssertEqual((error as? ComicsError)?.exitCode, 4)
        }
    }

    func testLatestAndTheEndOfTheArchive() throws {
        let catalog = try catalog()
        XCTAssertEqual(try catalog.show(.latest(.xkcd)).ref.id, 200)
        try server.control(.object([("latest", .int(3))]))
        let later = try self.catalog(at: 4000)
        XCTAssertEqual(try later.list(.xkcd, query: ListQuery(limit: 2)).map(\.ref.id), [3, 2])
        XCTAssertEqual(try later.more(.xkcd, query: ListQuery(limit: 2)).map(\.ref.id), [1])
        XCTAssertThrowsError(try later.more(.xkcd, query: ListQuery(limit: 2))) { error in
            XCTAssertEqual((error as? ComicsError)?.kind, .notFound)
        }
    }

    func testCleanupUsesPersistedLimitsAndOverrides() throws {
        let catalog = try catalog()
        _ = try catalog.list(.xkcd, query: ListQuery(limit: 4))
        _ = try catalog.changeFavorite(.item(ItemRef(source: .xkcd, id: 199)), .add)
        _ = try catalog.setConfig(.maxItems(of: .xkcd), to: "1")
        let report = try self.catalog(at: 10).cleanup(overrides: .init(), dryRun: false)
        XCTAssertEqual(report.rules[.xkcd].maxItems, 1)
        XCTAssertEqual(report.rules[.books].maxItems, 500, "the books limit is still the general one")
        XCTAssertEqual(report.removed.count, 2)
        XCTAssertEqual(report.favoritesKept, 1)
        let overridden = try self.catalog(at: 20).cleanup(overrides: .init(maxItems: 0), dryRun: true)
        XCTAssertEqual(overridden.wouldRemove.count, 1)
        XCTAssertEqual(try self.catalog(at: 30).favorites(source: nil).map(\.ref.id), [199])
    }

    func testPerSourceSettingsFallBackToTheGeneralOne() throws {
        let catalog = try catalog()
        XCTAssertEqual(try catalog.configValue(.maxAge(of: .books)).inheritedFrom, "max-age")
        _ = try catalog.setConfig(.maxAge, to: "2w")
        XCTAssertEqual(try catalog.configValue(.maxAge(of: .books)).value, "2w")
        XCTAssertEqual(try catalog.setConfig(.maxAge(of: .books), to: "48h").value, "2d", "written in the largest unit")
        let rules = try catalog.configuredCleanupRules()
        XCTAssertEqual(rules[.books].maxAge, 2 * 86400)
        XCTAssertEqual(rules[.xkcd].maxAge, 14 * 86400)
        XCTAssertEqual(try catalog.unsetConfig(.maxAge(of: .books)).value, "2w")
    }

    func testConfiguredPageSizeAppliesWithoutALimit() throws {
        let catalog = try catalog()
        _ = try catalog.setConfig(.pageSize, to: "3")
        XCTAssertEqual(try catalog.list(.xkcd, query: ListQuery()).map(\.ref.id), [200, 199, 198])
        XCTAssertEqual(try catalog.list(.xkcd, query: ListQuery(limit: 1)).map(\.ref.id), [200])
    }

    func testSettingsRefuseBadValuesAndKeys() throws {
        XCTAssertEqual(try ConfigKey.backgroundRefresh.validate("No"), "off")
        XCTAssertEqual(try ConfigKey.pageSize.validate(" 25 "), "25")
        for (key, value) in [(ConfigKey.pageSize, "0"), (.pageSize, "201"), (.maxAge, "3x"), (.maxItems, "-1"), (.images, "sometimes")] {
            XCTAssertThrowsError(try key.validate(value)) { error in
                XCTAssertEqual((error as? ComicsError)?.kind, .usage, "\(key.name) \(value)")
            }
        }
        XCTAssertThrowsError(try ConfigKey.named("max-ag")) { error in
            XCTAssertEqual((error as? ComicsError)?.hint?.hasPrefix("did you mean 'max-age'?"), true)
        }
    }

    func testAutomaticCleanupIsDueOnceADay() throws {
        XCTAssertEqual(try catalog().backgroundWork(), [], "a new database starts its day")
        XCTAssertEqual(try catalog(at: 86399).backgroundWork(), [])
        XCTAssertEqual(try catalog(at: 86400).backgroundWork(), [.cleanup])
        _ = try catalog(at: 86400).cleanup(overrides: .init(), dryRun: false)
        XCTAssertEqual(try catalog(at: 86401).backgroundWork(), [])
    }

    func testFavouritesNotCachedAreTriedInTheBackgroundHourlyAndOnesUpstreamLacksDaily() throws {
        let imported = try catalog(mode: .offline).importFavorites([ItemRef(source: .xkcd, id: 404), ItemRef(source: .xkcd, id: 5)])
        XCTAssertEqual(imported.notCached.count, 2)
        XCTAssertEqual(try catalog(mode: .offline).backgroundWork(), [], "never offline")
        let online = try catalog(at: 10)
        XCTAssertEqual(try online.backgroundWork(), [.fetchFavorites])
        try online.perform(.fetchFavorites)
        XCTAssertEqual(try online.favoritesNotCached(source: nil), [ItemRef(source: .xkcd, id: 404)], "5 fetched; 404 does not exist")
        XCTAssertEqual(try catalog(at: 20).backgroundWork(), [], "tried less than an hour ago")
        XCTAssertEqual(try catalog(at: 10 + 3600).backgroundWork(), [], "404 said it does not exist today")
        _ = try catalog(at: 30, mode: .offline).changeFavorite(.item(ItemRef(source: .xkcd, id: 6)), .add)
        XCTAssertEqual(try catalog(at: 10 + 3600).backgroundWork(), [.fetchFavorites], "a new one is tried an hour later")
        XCTAssertEqual(try catalog(at: 10 + 86400).backgroundWork().first, .fetchFavorites, "due again the next day")
    }

    func testBackgroundTasksSurviveTheCommandLine() {
        let tasks: [BackgroundTask] = [
            .refreshPage(PageKey(source: .xkcd, query: "limit=10", position: "")),
            .refreshPage(PageKey(source: .xkcd, query: "limit=3", position: "180")),
            .refreshPage(PageKey(
                source: .books, query: "search=jane%20austen", position: "https://gutendex.com/books/?page=2&search=jane+austen")),
            .refreshItem(ItemRef(source: .xkcd, id: 353)), .refreshItem(ItemRef(source: .books, id: 1342)), .cleanup,
            .fetchFavorites,
        ]
        for task in tasks {
            XCTAssertEqual(BackgroundTask(argument: task.argument), task)
        }
        XCTAssertEqual(tasks.map(\.summary), [
            "the first xkcd page (limit=10)", "the xkcd page from 180 (limit=3)",
            "the books page from https://gutendex.com/books/?page=2&search=jane+austen (search=jane%20austen)",
            "xkcd:353", "books:1342", "cleanup", "favourites not cached yet",
        ])
        XCTAssertNil(BackgroundTask(argument: "page\tnope\tx\t"))
        XCTAssertNil(BackgroundTask(argument: "item\txkcd"))
    }
}
