@testable import ComicsKit
import XCTest

final class SearchExpressionTests: XCTestCase {
    func testPlainWordsAreQuotedAndRanked() {
        let search = SearchExpression("make me a sandwich")
        XCTAssertEqual(search.expression, "\"make\" \"me\" \"a\" \"sandwich\"")
        XCTAssertEqual(search.inTitle, "{title people} : (\"make\" \"me\" \"a\" \"sandwich\")")
        XCTAssertEqual(search.phrase, "\"make me a sandwich\"")
        XCTAssertEqual(search.literals, [])
    }

    func testOperatorsPrefixesAndQuotesAreSyntax() {
        let search = SearchExpression("tables NOT mom astro*")
        XCTAssertEqual(search.expression, "\"tables\" NOT \"mom\" \"astro\"*")
        XCTAssertNil(search.phrase, "no phrase tier once operators are used")
        XCTAssertEqual(SearchExpression("\"little bobby\" OR x").expression, "\"little bobby\" OR x")
        XCTAssertNil(SearchExpression("one").phrase)
    }

    func testDottedNamesMustAppearAsWritten() {
        XCTAssertEqual(SearchExpression("Node.js tutorial").literals, ["node.js"])
        XCTAssertEqual(SearchExpression(".NET").literals, [".net"])
        XCTAssertEqual(SearchExpression("end. c++").literals, ["end."])
        XCTAssertEqual(SearchExpression("... c++").literals, [], "dots alone are no name")
        XCTAssertEqual(SearchExpression("node.js OR deno").literals, [], "operators: a dotted word is a phrase")
    }
}
