import ComicsKit
import XCTest

final class ListQueryTests: XCTestCase {
    func testTheSameQueryHoweverTypedHasOneKey() {
        let typed = ListQuery(search: "  Jane\tAUSTEN ", languages: ["FR", "en", "fr"], topic: "Love  Stories", sort: .ascending)
        XCTAssertEqual(typed.search, "jane austen")
        XCTAssertEqual(typed.languages, ["en", "fr"])
        XCTAssertEqual(typed.topic, "love stories")
        XCTAssertEqual(typed.key, "languages=en%2Cfr&search=jane%20austen&sort=ascending&topic=love%20stories")
        XCTAssertEqual(ListQuery(search: "jane austen", languages: ["en", "fr"], topic: "love stories", sort: .ascending), typed)
        XCTAssertEqual(ListQuery(sort: .popular), ListQuery(), "popular is Gutendex's own order")
        XCTAssertEqual(ListQuery(search: "   ").search, nil)
        XCTAssertFalse(ListQuery(limit: 5).hasFilters)
        XCTAssertTrue(ListQuery(topic: "x").hasFilters)
    }

    func testKeysReadBack() {
        let queries = [
            ListQuery(), ListQuery(limit: 10), ListQuery(search: "émile zola & co=1%"),
            ListQuery(limit: 3, search: "a", languages: ["de"], topic: "b/c?d", sort: .descending),
        ]
        for query in queries {
            XCTAssertEqual(ListQuery(key: query.key), query, query.key)
        }
        XCTAssertEqual(ListQuery(search: "émile").key, "search=%C3%A9mile")
        XCTAssertEqual(ListQuery(limit: 7, search: "x").filtersOnly.key, "search=x")
    }

    func testKeysNoQueryProducesAreRefused() {
        for key in ["limit=0", "limit=201", "limit=x", "colour=red", "search", "sort=sideways", "search=%ZZ", "search=A", "search=%FF"] {
            XCTAssertNil(ListQuery(key: key), key)
        }
    }
}
