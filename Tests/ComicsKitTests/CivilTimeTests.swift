@testable import ComicsKit
import Foundation
import XCTest

/// comics computes UTC dates itself; Foundation's Gregorian calendar is
/// the oracle from 1600 on (before 1582 it is the Julian calendar, where
/// ISO 8601 and comics go on with the Gregorian one).
final class CivilTimeTests: XCTestCase {
    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    func testFieldsAreTheCalendarsForGeneratedMoments() {
        var generator = SystemRandomNumberGenerator()
        let moments = [-11_676_096_000, -1, 0, 86_399, 86_400, 951_782_400, 4_107_542_399]
            + (0..<5_000).map { _ in Int.random(in: -11_676_096_000...253_402_300_799, using: &generator) }
        for seconds in moments {
            let date = Date(timeIntervalSince1970: Double(seconds))
            let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let fields = CivilTime.fields(of: date)
            XCTAssertEqual(
                [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second],
                [expected.year, expected.month, expected.day, expected.hour, expected.minute, expected.second], "\(seconds)")
            XCTAssertEqual(CivilTime.date(fields), date, "\(seconds) read back")
        }
    }

    func testOnlyDatesTheCalendarHasAreRead() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let fields = CivilTime.Fields(
                year: Int.random(in: 1600...9999, using: &generator), month: Int.random(in: 0...13, using: &generator),
                day: Int.random(in: 0...32, using: &generator), hour: Int.random(in: 0...24, using: &generator),
                minute: Int.random(in: 0...60, using: &generator), second: Int.random(in: 0...60, using: &generator))
            var components = DateComponents(
                calendar: calendar, timeZone: calendar.timeZone, year: fields.year, month: fields.month, day: fields.day,
                hour: fields.hour, minute: fields.minute, second: fields.second)
            components.calendar = calendar
            let valid = components.isValidDate
            XCTAssertEqual(CivilTime.date(fields) != nil, valid, "\(fields)")
            if valid { XCTAssertEqual(CivilTime.date(fields), components.date, "\(fields)") }
        }
        XCTAssertNotNil(CivilTime.date(.init(year: 2000, month: 2, day: 29)))
        XCTAssertNil(CivilTime.date(.init(year: Int.max, month: 1, day: 1)), "a server's year, too long to be one")
        XCTAssertNil(RetryAfter.parse("Sun, 06 Nov 99999999999999999 08:49:37 GMT", now: Date()))
        XCTAssertEqual(CivilTime.timestamp(Date(timeIntervalSince1970: .infinity)), "9999-12-31T23:59:59Z")
        XCTAssertEqual(CivilTime.timestamp(Date(timeIntervalSince1970: -1e300)), "0001-01-01T00:00:00Z")
        XCTAssertEqual(CivilTime.timestamp(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00Z")
        XCTAssertNil(CivilTime.date(.init(year: 1900, month: 2, day: 29)))
    }

    /// Leap years, the epoch and fractions of a second included.
    func testTimestampsAreWrittenAsISO8601FormatStyleWritesThem() {
        var samples: [TimeInterval] = [0, -1, -0.5, 0.999, 86_399.9, 951_782_400, 951_868_799, 4_102_444_800, 253_402_300_799]
        var generator = SystemRandomNumberGenerator()
        samples += (0..<2_000).map { _ in TimeInterval.random(in: -2_000_000_000...4_200_000_000, using: &generator) }
        let compact = Date.ISO8601FormatStyle.iso8601.year().month().day().dateSeparator(.omitted)
            .time(includingFractionalSeconds: false).timeSeparator(.omitted).timeZone(separator: .omitted)
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(CivilTime.timestamp(date), date.formatted(.iso8601), "\(seconds)")
            XCTAssertEqual(CivilTime.compactTimestamp(date), date.formatted(compact), "\(seconds)")
        }
        XCTAssertEqual(CivilTime.timestamp(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00Z")
    }
}
