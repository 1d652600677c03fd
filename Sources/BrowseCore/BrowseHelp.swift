import ComicsKit

/// One line of a frame: text measured to fit, and how it is drawn.
public struct BrowseLine: Equatable {
    public init(text: String, style: Style = .plain, colors: [BrowseRun]? = nil) {
        self.text = text
        self.style = style
        self.colors = colors
    }

    public enum Style: Equatable { case plain, selected, status, heading, dim }
    public var text: String
    public var style: Style = .plain
    /// A picture's line in colour: drawn run by run instead of `text`.
    public var colors: [BrowseRun]?
}

/// The help over the screen in view.
public enum BrowseHelp {
    /// The keys of the screen in view (the reader's, or browse's), each
    /// description wrapped in its column.
    public static func lines(_ state: BrowseState) -> [BrowseLine] {
        let columns = state.columns
        let (title, table) = if case .reader = state.visible {
            ("  The reader's keys (j k Space scroll, others close)", ReaderKeys.table)
        } else {
            ("  Keys (j k Space scroll, others close)", BrowseKeys.table)
        }
        let keyWidth = table.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let indent = 2 + keyWidth + 3
        return [BrowseLine(text: title, style: .heading), BrowseLine(text: "")]
            + table.flatMap { entry in
                DisplayWidth.wrapped(entry.action, width: max(10, columns - indent)).enumerated().map { index, line in
                    let keys = index == 0 ? DisplayWidth.pad(entry.keys, to: keyWidth) : String(repeating: " ", count: keyWidth)
                    return BrowseLine(text: "  " + keys + "   " + line)
                }
            }
    }
}
