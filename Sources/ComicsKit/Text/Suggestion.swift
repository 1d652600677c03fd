/// The nearest known name to a mistyped one, if it is near enough.
public enum Suggestion {
    public static func closest(to typed: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(Array(typed), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, typed.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1]
            for (j, right) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
