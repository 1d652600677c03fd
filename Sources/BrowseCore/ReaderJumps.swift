import ComicsKit

/// The places jumps left from, as vim keeps them: Ctrl-O goes back
/// through them, Ctrl-I forward again; a new jump after going back drops
/// the places ahead.
public struct ReaderJumps: Equatable {
    public private(set) var places: [TextPosition] = []
    /// Where Ctrl-O and Ctrl-I are in `places`: `places.count` at the newest.
    public private(set) var index = 0

    static let limit = 100

    public init() {}

    mutating func record(_ place: TextPosition) {
        places.removeSubrange(min(index, places.count)...)
        if places.last != place { places.append(place) }
        if places.count > Self.limit { places.removeFirst(places.count - Self.limit) }
        index = places.count
    }

    /// The place before, from `here` (kept, so that Ctrl-I comes back to
    /// it); nil at the oldest.
    mutating func back(from here: TextPosition) -> TextPosition? {
        if index == places.count {
            if places.last != here { places.append(here) }
            index = places.count - 1
        }
        guard index > 0 else { return nil }
        index -= 1
        return places[index]
    }

    /// The place after, once Ctrl-O went back; nil at the newest.
    mutating func forward() -> TextPosition? {
        guard index + 1 < places.count else { return nil }
        index += 1
        return places[index]
    }
}
