import XCTest
@testable import comics
final class P: XCTestCase { func testA() { XCTAssertEqual(answer(), 42) } }
