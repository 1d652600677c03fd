import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// Reads a `Retry-After` header: a number of seconds or an HTTP date.
/// Garbage and negative values read as "no advice" (nil).
enum RetryAfter {
    static func parse(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCII), let seconds = Int(value) {
            return seconds >= 0 ? TimeInterval(seconds) : nil
        }
        guard let date = parseHTTPDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// IMF-fixdate, the only form servers send today: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT",
              let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return CivilTime.date(CivilTime.Fields(
            year: year, month: monthIndex + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2]))
    }
}
