import ComicsKit
import TestSupport
import XCTest

final class GutendexBookDecoderTests: XCTestCase {
    func testFieldsOfARealBook() throws {
        let book = try GutendexBookDecoder.decodeBook(try Fixtures.gutendex("book-detail-1342.json"))
        XCTAssertEqual(book.ref, ItemRef(source: .books, id: 1342))
        XCTAssertEqual(book.title, "Pride and Prejudice")
        XCTAssertEqual(book.url, "https://www.gutenberg.org/ebooks/1342")
        XCTAssertEqual(book.attributes.map(\.key), GutendexSource(baseURL: "https://gutendex.com", http: CurlHTTPClient()).attributeKeys)
        XCTAssertEqual(book["authors"], .array([.object([
            ("name", .string("Austen, Jane")), ("birth_year", .int(1775)), ("death_year", .int(1817)),
        ])]))
        XCTAssertEqual(book["languages"], .array([.string("en")]))
        XCTAssertEqual(book["subjects"]?.arrayValue?.count, 7)
        XCTAssertEqual(book["bookshelves"]?.arrayValue?.first, .string("Best Books Ever Listings"))
        XCTAssertEqual(book["summaries"]?.arrayValue?.count, 1)
        XCTAssertEqual(book["media_type"], .string("Text"))
        XCTAssertEqual(book["copyright"], .bool(false))
        XCTAssertEqual(book["download_count"], .int(59702))
        XCTAssertEqual(book["cover_url"], .string("https://www.gutenberg.org/cache/epub/1342/pg1342.cover.medium.jpg"))
        XCTAssertEqual(book["formats"]?["text/plain; charset=us-ascii"], .string("https://www.gutenberg.org/ebooks/1342.txt.utf-8"))
        XCTAssertEqual(book["formats"]?["application/epub+zip"], .string("https://www.gutenberg.org/ebooks/1342.epub3.images"))
    }

    func testBothRealPagesDecodeWithTheirQuirks() throws {
        let first = try GutendexBookDecoder.decodePage(try Fixtures.gutendex("books-list-page1.json"))
        XCTAssertEqual(first.count, 311)
        XCTAssertEqual(first.next, "http://127.0.0.1:8765/books/?page=2")
        XCTAssertEqual(first.books.count, 32)
        XCTAssertEqual(first.books.first?.title, "Moby Dick; Or, The Whale")

        let second = try GutendexBookDecoder.decodePage(try Fixtures.gutendex("books-list-page2.json"))
        let byID = Dictionary(uniqueKeysWithValues: second.books.map { ($0.ref.id, $0) })
        XCTAssertEqual(byID[6130]?["authors"]?.arrayValue?.first?["birth_year"], .int(-750), "Homer")
        XCTAssertEqual(byID[26184]?["authors"]?.arrayValue?.first?["death_year"], .null)
        XCTAssertEqual(byID[3201]?["summaries"], .array([]))
        XCTAssertEqual(byID[3201]?["media_type"], .string("Dataset"))
        XCTAssertEqual(byID[52059]?["authors"], .array([]))
    }

    func testGapsAreFilledAndBadEntriesSkipped() throws {
        let page = try GutendexBookDecoder.decodePage(Array("""
            {"count": 4, "next": null, "previous": null, "results": [
              {"id": 7, "title": null, "authors": [{"name": "X", "birth_year": null}], "summaries": ["a", "b"],
               "formats": {"image/jpeg": "https://example.org/c.jpg", "odd": 3}, "copyright": null},
              {"title": "no id"},
              "not a book",
              {"id": 7, "title": "a duplicate"},
              {"id": "8", "title": "id as text"}
            ]}
            """.utf8))
        XCTAssertEqual(page.books.map(\.ref.id), [7, 8])
        XCTAssertEqual(page.unreadable, [
            "a book without an id, or with an impossible one", "a book that is not a JSON object",
        ], "a duplicate is no unreadable book")
        let book = page.books[0]
        XCTAssertEqual(book.title, "#7")
        XCTAssertEqual(book["authors"]?.arrayValue?.first?["death_year"], .null)
        XCTAssertEqual(book["summaries"], .array([.string("a"), .string("b")]))
        XCTAssertEqual(book["cover_url"], .string("https://example.org/c.jpg"))
        XCTAssertEqual(book["formats"], .object([("image/jpeg", .string("https://example.org/c.jpg"))]))
        XCTAssertEqual(book["copyright"], .null)
        XCTAssertEqual(book["download_count"], .null)
        XCTAssertEqual(book["languages"], .array([]))
    }

    func testMalformedDocumentsAreErrors() {
        for body in ["", "[]", "{\"results\": 3}", "{\"count\": 1}", "<html>", "{\"results\": ["] {
            XCTAssertThrowsError(try GutendexBookDecoder.decodePage(Array(body.utf8)), body)
        }
        for body in ["{}", "{\"id\": 0}", "{\"id\": -3}", "{\"detail\": \"Not found.\"}"] {
            XCTAssertThrowsError(try GutendexBookDecoder.decodeBook(Array(body.utf8)), body)
        }
    }
}
