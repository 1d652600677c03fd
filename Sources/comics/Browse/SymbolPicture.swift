import BrowseCore
/// Chafa's symbols output (characters between SGR colour sequences) read
/// into runs, so ncurses draws the colours itself: nothing of the
/// sequences reaches the terminal, and any other escape or control is
/// dropped.
enum SymbolPicture {
    static func runs(_ drawn: String) -> [[BrowseRun]] {
        var lines: [[BrowseRun]] = []
        var line: [BrowseRun] = []
        var foreground = -1, background = -1, inverse = false
        var scalars = drawn.unicodeScalars[...]
        func append(_ scalar: Unicode.Scalar) {
            let (front, back) = inverse ? (background, foreground) : (foreground, background)
            if let last = line.last, last.foreground == front, last.background == back {
                line[line.count - 1].text.unicodeScalars.append(scalar)
            } else {
                line.append(BrowseRun(text: String(scalar), foreground: front, background: back))
            }
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\n":
                lines.append(line)
                line = []
            case "\u{1B}":
                guard scalars.first == "[" else { continue }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.first, (0x20...0x3F).contains(next.value) {
                    parameters.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                guard scalars.popFirst() == "m" else { continue }
                var values = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                if values.isEmpty { values = [0] }
                while let value = values.popFirst() {
                    switch value {
                    case 0: (foreground, background, inverse) = (-1, -1, false)
                    case 7: inverse = true
                    case 27: inverse = false
                    case 39: foreground = -1
                    case 49: background = -1
                    case 30...37: foreground = value - 30
                    case 40...47: background = value - 40
                    case 90...97: foreground = value - 90 + 8
                    case 100...107: background = value - 100 + 8
                    case 38, 48:
                        guard values.first == 5, values.count >= 2 else { values.removeAll(); continue }
                        values.removeFirst()
                        let index = min(255, max(0, values.removeFirst()))
                        if value == 38 { foreground = index } else { background = index }
                    default: break
                    }
                }
            default:
                if scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) { append(scalar) }
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
