import ComicsKit

/// Every key browse answers, with what it does: the help overlay and the
/// README list this one table.
public enum BrowseKeys {
    public static let table: [(keys: String, action: String)] = [
        ("j k ↓ ↑", "move down or up"),
        ("Space b PgDn PgUp", "move a screen down or up (also Ctrl-F, Ctrl-B)"),
        ("Ctrl-D Ctrl-U", "move half a screen down or up"),
        ("g G Home End", "the first or the last row"),
        ("0-9", "go to a comic by its number, or a book by its place (also :)"),
        ("Enter l →", "open the selected item"),
        ("Esc h ←", "back"),
        ("n p", "the next or previous item, in a detail screen"),
        ("f", "favourite or unfavourite the item"),
        ("F", "the favourites of every source"),
        ("L", "the reading list: books downloaded or begun, the last read first, with how far"),
        ("/", "search what is cached (best first; 500 results at a time, more as you near the last)"),
        (":", "books: set a query (words, language:en, topic:poetry, sort:ascending); xkcd: go to a number"),
        ("s", "switch source (xkcd, books)"),
        ("r", "refresh from the network now"),
        ("o", "open the item's page in a browser"),
        ("R", "read the book's text, from where you stopped (downloaded first if needed; also Enter on a book's detail screen)"),
        ("] [ t :", "in the reader: the next or previous section, the contents, a section number or a percentage"),
        ("/ ? n N", "in the reader: search the text forward or backward, then the next or previous hit"),
        ("+ -", "in the reader: a wider or narrower text (kept as reader.width)"),
        ("c", "in the reader: the colours, the terminal's own, dark or light (kept as reader.theme)"),
        ("m '", "in the reader: bookmark the page; the bookmarks (Enter goes, r renames, d deletes, ' again goes back from the last jump)"),
        ("? F1", "this help (in the reader H or F1: the reader's keys)"),
        ("Ctrl-L", "draw the screen again"),
        ("mouse", "the wheel scrolls, a click selects, a double click opens (off: --no-mouse)"),
        ("q", "back one screen; quit from the first"),
        ("Q", "quit from anywhere"),
    ]
}

/// The reader's keys: its help overlay and `comics read --help` list this
/// one table.
public enum ReaderKeys {
    public static let table: [(keys: String, action: String)] = [
        ("Space b", "a page down or up (also PgDn PgUp, Ctrl-F Ctrl-B; Ctrl-D Ctrl-U half)"),
        ("j k", "a line down or up (also ↓ ↑, Enter, the wheel)"),
        ("Enter", "a picture in the page shown alone on the whole screen (also a click on it); any key back"),
        ("] [", "the next or previous section"),
        ("g G", "the start or the end of the book"),
        ("t :", "the contents (Enter goes, or type a section's number); a section number (:0 the front matter) or a percentage (:40%)"),
        ("/ ? n N", "search forward or backward (the words found highlighted), the next or previous hit"),
        ("m '", "a bookmark here, named after its section and its part; the bookmarks (Enter goes, r renames, d deletes)"),
        ("a A", "a note on the paragraph at the top (or the search hit in view), marked ✎ in the margin; the notes (Enter goes, r edits, d deletes)"),
        ("''", "back to where the last jump came from"),
        ("Tab Shift-Tab", "the next or previous footnote mark on the page ([1], [*]); Enter shows its note in a box (Enter there goes to it, any key closes)"),
        ("Ctrl-O Ctrl-I", "back and forward through the jumps (contents, :, a search hit, a bookmark, a note, g, G); Ctrl-I is Tab to a terminal: forward when the page has no mark"),
        ("+ -", "a wider or narrower text, kept as reader.width"),
        ("c", "the colours: the terminal's own, dark, light (kept as reader.theme)"),
        ("H F1", "these keys"),
        ("r", "a download that failed: try again"),
        ("q Esc", "leave (Esc over a message dismisses it); the place is saved at each page and on every way out (Q quits browse)"),
    ]
}
