@testable import comics
import Foundation
import XCTest

final class RecordsTests: XCTestCase {
    /// The hand-written timestamp must print what Foundation's ISO 8601
    /// style prints, leap years, the epoch and fractions of a second included.
    func testTimestampsMatchTheISO8601FormatStyle() {
        var samples: [TimeInterval] = [0, -1, -0.5, 0.999, 86_399.9, 951_782_400, 951_868_799, 4_102_444_800, 253_402_300_799]
        var generator = SystemRandomNumberGenerator()
        samples += (0..<2000).map { _ in TimeInterval.random(in: -2_000_000_000...4_200_000_000, using: &generator) }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(Records.timestamp(date), date.formatted(.iso8601), "\(seconds)")
        }
        XCTAssertEqual(Records.timestamp(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00Z")
    }
}
