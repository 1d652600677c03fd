/// A key as browse understands it.
public enum Key: Equatable {
    case character(Character)
    /// Ctrl and a letter ("f" for Ctrl-F), but those that are Enter, Tab and Backspace.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab, delete
    /// Shift-Tab (`CSI Z`).
    case backTab
    /// F1, the help key of many programs (where the terminal lets it through).
    case f1
    /// The mouse wheel, a screen row and column (from 0) pressed, and a
    /// second press there soon after (the session tells them apart).
    case wheelUp, wheelDown
    case click(row: Int, column: Int)
    case doubleClick(row: Int, column: Int)
}
