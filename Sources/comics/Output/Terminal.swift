import ComicsKit
import Glibc

/// What the terminal can do: whether stdout is one, its size, colour.
struct Terminal {
    let isTerminal: Bool
    /// Nil when output should not be fitted (a pipe with no `COLUMNS`).
    let width: Int?
    /// Rows, from the terminal or `LINES`; nil when unknown.
    let height: Int?
    /// One character cell in pixels, when the terminal says (for graphics).
    let cellSize: (width: Int, height: Int)?
    /// Colour was ruled out (`--no-color`, `NO_COLOR`, `TERM=dumb`).
    let colorForbidden: Bool
    /// Colour for text: only on a terminal, and only when not forbidden.
    var useColor: Bool { isTerminal && !colorForbidden }

    /// The most columns or rows comics believes a terminal has.
    static let largestSide = 1_000

    static func detect(noColorFlag: Bool, environment: [String: String]) -> Terminal {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        var size = winsize()
        let measured = isTerminal && ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0
        var width = measured && size.ws_col > 0 ? Int(size.ws_col) : nil
        var height = measured && size.ws_row > 0 ? Int(size.ws_row) : nil
        if width == nil, let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            width = columns
        }
        if height == nil, let lines = environment["LINES"].flatMap(Int.init), lines > 0 {
            height = lines
        }
        if isTerminal, width == nil { width = 80 }
        // No screen is wider or taller: a COLUMNS of 100,000 would have a
        // picture drawn 100,000 cells wide.
        width = width.map { min($0, largestSide) }
        height = height.map { min($0, largestSide) }
        var cellSize: (width: Int, height: Int)?
        if measured, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0, size.ws_ypixel > 0 {
            cellSize = (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
        }
        let noColor = noColorFlag || !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return Terminal(isTerminal: isTerminal, width: width, height: height, cellSize: cellSize, colorForbidden: noColor)
    }

    func bold(_ text: String) -> String { styled(text, "1") }

    /// Turns `SearchMatch` markers into bold on and off, or drops them
    /// when there is no colour; a match cut off by truncation is closed.
    func highlight(_ text: String) -> String {
        // Both markers are U+E00x, three bytes that start with 0xEE: a byte
        // scan spares every title without them the walk by characters.
        guard text.utf8.contains(0xEE), text.contains(SearchMatch.start) || text.contains(SearchMatch.end) else { return text }
        let on = useColor ? "\u{1B}[1m" : "", off = useColor ? "\u{1B}[22m" : ""
        var result = ""
        var open = false
        for character in text {
            switch character {
            case SearchMatch.start: result += on; open = true
            case SearchMatch.end: result += off; open = false
            default: result.append(character)
            }
        }
        return open ? result + off : result
    }
    func dim(_ text: String) -> String { styled(text, "2") }
    func yellow(_ text: String) -> String { styled(text, "33") }

    private func styled(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

