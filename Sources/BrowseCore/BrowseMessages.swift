import ComicsKit
import struct FoundationEssentials.Date

/// What happens to browse.
public enum BrowseEvent: Equatable {
    case key(Key)
    /// The clock, read by the runtime before the input it comes with: a
    /// double click and the reading speed are told from it.
    case time(Date)
    case resized(rows: Int, columns: Int)
    /// What the database answers to a query a screen declared (again
    /// whenever the database changed and the answer with it).
    case answered(BrowseQuery, BrowseAnswer)
    /// A declared query the database could not answer, and why.
    case unanswered(BrowseQuery, String)
    /// A fetch for a listing ended (`refresh` for `r`'s), with why it failed.
    case fetched(BrowseListing, failure: String?, refresh: Bool, at: Date)
    case pictureLoaded(ItemRef, [String], graphics: String?, colors: [[BrowseRun]])
    /// What the picture's pane says instead of a picture, for now or for good.
    case pictureNote(ItemRef, String)
    /// An item asked for could not be had (not upstream, the network
    /// down), and why.
    case itemUnavailable(ItemRef, String)
    /// Something asked could not be done (a favourite not changed, a
    /// setting not kept), or was: said on the status line.
    case said(String)
    /// The reader's text, as the cache has it (`title` when known).
    case readerOpened(ItemRef, TextMap, title: String?)
    /// The reader's text is not in the cache: it is being downloaded.
    case readerDownloading(ItemRef)
    /// The worker downloaded the text the reader waits for.
    case readerDownloaded(ItemRef)
    case readerFailed(ItemRef, String)
    /// The blocks of the reader's text that hold `query`, in order.
    case readerMatches(ItemRef, query: String, [Int])
    /// A search or a jump that could not be made, said on the status line.
    case readerMessage(ItemRef, String)
    /// The block `percent` of the way into the reader's text.
    case readerBlockFound(ItemRef, Int)
    /// The book's bookmarks as the cache has them (`added` just made).
    case readerBookmarks(ItemRef, [Bookmark], added: Bookmark?)
    /// An illustration's picture drawn for the reader's page (or why not).
    case readerPicture(ItemRef, ReaderPictureKey, ReaderPictureDrawing)
    /// The note a mark refers to (nil: none found), or why it could not be read.
    case readerNote(ItemRef, label: String, Footnote?, failure: String?)
    /// The terminal is open, and whether it draws colours: symbols
    /// without them are no picture.
    case terminalOpened(hasColors: Bool)
    /// The reading speed learned from the last page turn.
    case readingSpeed(Double)
    /// How much of the reader's text has come so far.
    case readerProgress(ItemRef, bytes: Int, of: Int?)
    /// `comics read`: the reader opens on a book, and leaving it ends browse.
    case startReading(ItemRef, title: String, from: ReaderStart, searching: String?)
    /// Browse ends (q, a signal, the terminal gone): every reader open
    /// leaves its place saved.
    case leaving
}

/// What the model asks the runtime to do. What the screens show is not
/// asked for: they declare it (`BrowseModel.queries`).
public enum BrowseEffect: Equatable {
    /// The item's picture, fitted to a pane `width` × `height`; an item
    /// not cached is fetched first.
    case showDetail(ItemRef, width: Int, height: Int)
    case toggleFavorite(ItemRef)
    case open(ItemRef)
    /// `r`: the listing's newest, and the rows in view, asked again.
    case refresh(BrowseListing, inView: Range<Int>)
    /// Ctrl-L: the whole screen painted again.
    case redraw
    /// The reader's text from the cache, downloaded first when it is not.
    case openReader(ItemRef)
    /// Where reading stopped, remembered.
    case saveReading(ItemRef, TextPosition)
    /// A page read forward: so many words in so many seconds.
    case learnReadingSpeed(words: Int, seconds: Double)
    /// The blocks of the text that hold the words, found off the screen's thread.
    case searchText(ItemRef, String)
    /// The block a percentage of the way into the text.
    case findBlock(ItemRef, percent: Double)
    /// The books query set, kept for the next time.
    case keepBooksQuery(ListQuery)
    /// `reader.width`, kept for the next time.
    case setReaderWidth(Int)
    /// `reader.theme`, kept for the next time.
    case setReaderTheme(String)
    /// The reader left while its text downloads: the download stops.
    case cancelDownload(ItemRef)
    /// The note the `ordinal`-th mark of `block` refers to, found.
    case findNote(ItemRef, label: String, ordinal: Int, block: Int)
    /// An illustration's picture of the reader's text, drawn to fit.
    case drawReaderPicture(ItemRef, ReaderPictureKey)
    case addBookmark(ItemRef, TextPosition)
    case renameBookmark(ItemRef, Int, String)
    /// A note written on the paragraph at a place, or a note's text changed.
    case addNote(ItemRef, TextPosition, String)
    case editNote(ItemRef, Int, String)
    case removeBookmark(ItemRef, Int)
}
