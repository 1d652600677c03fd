import struct FoundationEssentials.Date

/// Dates as people write them, always in UTC: what comics prints
/// (`2026-11-29T15:40:00Z`) and what servers send (`Retry-After`'s HTTP
/// date). Computed from the seconds with Howard Hinnant's civil-date
/// algorithms: Foundation's calendars and format styles cost thousands of
/// instructions a date, and bring most of Foundation into the binary.
public enum CivilTime {
    /// The fields of a moment, in UTC.
    public struct Fields: Equatable, Sendable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int

        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            (self.year, self.month, self.day) = (year, month, day)
            (self.hour, self.minute, self.second) = (hour, minute, second)
        }
    }

    /// The moments a date written with four digits can name: 0001-01-01
    /// to 9999-12-31, in seconds since 1970. Nothing outside is read, and
    /// nothing outside is written (it is clamped), so no arithmetic here
    /// can overflow whatever a server or a file says.
    static let writableSeconds = -62_135_596_800...253_402_300_799

    /// The moment's fields, whole seconds rounded down.
    public static func fields(of date: Date) -> Fields {
        let raw = date.timeIntervalSince1970
        let seconds = raw.isNaN ? 0 : Int(min(max(raw.rounded(.down), Double(writableSeconds.lowerBound)),
                                             Double(writableSeconds.upperBound)))
        let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (days, second) = remainder < 0 ? (quotient - 1, remainder + 86_400) : (quotient, remainder)
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return Fields(
            year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month,
            day: dayOfYear - (153 * monthFromMarch + 2) / 5 + 1,
            hour: second / 3600, minute: second / 60 % 60, second: second % 60)
    }

    /// The moment the fields name, or nil when they name none (February
    /// 30th, 24:00, a 61st second, a year of more than four digits).
    public static func date(_ fields: Fields) -> Date? {
        guard (1...9999).contains(fields.year), (1...12).contains(fields.month), (1...daysIn(month: fields.month, year: fields.year)).contains(fields.day),
              (0..<24).contains(fields.hour), (0..<60).contains(fields.minute), (0..<60).contains(fields.second)
        else { return nil }
        let year = fields.month <= 2 ? fields.year - 1 : fields.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (fields.month > 2 ? fields.month - 3 : fields.month + 9) + 2) / 5 + fields.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + fields.hour * 3600 + fields.minute * 60 + fields.second
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// `2026-11-29T15:40:00Z`, as ISO 8601 and RFC 3339 write it.
    public static func timestamp(_ date: Date) -> String {
        let fields = fields(of: date)
        return "\(padded(fields.year, 4))-\(padded(fields.month, 2))-\(padded(fields.day, 2))T"
            + "\(padded(fields.hour, 2)):\(padded(fields.minute, 2)):\(padded(fields.second, 2))Z"
    }

    /// `20261129T154000Z`: sorts by time and needs no quoting in a file name.
    public static func compactTimestamp(_ date: Date) -> String {
        let fields = fields(of: date)
        return "\(padded(fields.year, 4))\(padded(fields.month, 2))\(padded(fields.day, 2))T"
            + "\(padded(fields.hour, 2))\(padded(fields.minute, 2))\(padded(fields.second, 2))Z"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
