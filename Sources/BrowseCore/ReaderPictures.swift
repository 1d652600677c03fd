import ComicsKit

/// A picture of the text drawn to fit so many columns and rows: a picture
/// laid out at another width is another drawing.
public struct ReaderPictureKey: Hashable, Sendable {
    public let path: String
    public let columns: Int
    public let rows: Int

    public init(path: String, columns: Int, rows: Int) {
        self.path = path
        self.columns = columns
        self.rows = rows
    }
}

/// One of the rows a picture takes in the page.
public struct ReaderPictureRow: Equatable {
    public let key: ReaderPictureKey
    public let row: Int

    public init(key: ReaderPictureKey, row: Int) {
        self.key = key
        self.row = row
    }
}

/// A picture as the page has it: on its way (the text is shown around
/// its place meanwhile), drawn, or why it cannot be.
public enum ReaderPictureDrawing: Equatable {
    case drawing
    /// Rows of symbols, or graphics (kitty, iTerm2, sixel) written over
    /// blank rows.
    case drawn(rows: [[BrowseRun]], graphics: String?)
    case failed(String)
}

/// How an illustration's picture is fitted to the page: the column's
/// width, and the rows its shape asks for (a cell is about twice as tall
/// as it is wide), at most `maximumRows`; a picture taller than that is
/// narrowed to keep its shape.
public enum ReaderPictureFit {
    public static func key(path: String, size: PictureSize, column: Int, maximumRows: Int) -> ReaderPictureKey {
        let width = Double(max(1, size.width)), height = Double(max(1, size.height))
        let maximumRows = max(1, maximumRows)
        var columns = max(1, column)
        var rows = Int((Double(columns) * height / width / 2).rounded())
        if rows > maximumRows {
            rows = maximumRows
            columns = max(1, min(column, Int((Double(rows) * 2 * width / height).rounded())))
        }
        return ReaderPictureKey(path: path, columns: columns, rows: max(1, rows))
    }
}

extension BrowseReader {
    /// The pictures with a row in the page `height` lines tall, top first.
    public func picturesInView(height: Int) -> [ReaderPictureKey] {
        guard let passage else { return [] }
        var keys: [ReaderPictureKey] = []
        for line in passage.lines.dropFirst(topLine).prefix(height) {
            if let key = line.picture?.key, keys.last != key { keys.append(key) }
        }
        return keys
    }
}

extension BrowseReader {
    /// The picture shown alone (Enter on it), fitted to the whole screen.
    public func fullScreenPicture(columns: Int, height: Int) -> ReaderPictureKey? {
        fullPicture.map {
            ReaderPictureFit.key(
                path: $0.path, size: PictureSize(width: $0.columns, height: $0.rows * 2), column: max(1, columns - 2), maximumRows: height)
        }
    }
}

extension BrowseModel {
    /// Each picture in view (or shown alone) that is not drawn is asked
    /// for once; drawings out of view are forgotten past a few, so memory
    /// stays flat over a whole book.
    static func picturesWanted(_ state: inout BrowseState) -> [BrowseEffect] {
        guard state.showsPictures, case var .reader(reader) = state.visible, reader.status == .ready,
              reader.contents == nil, reader.marks == nil, !state.showsHelp
        else { return [] }
        let keys = reader.fullScreenPicture(columns: state.columns, height: state.listHeight).map { [$0] }
            ?? reader.picturesInView(height: state.listHeight)
        var effects: [BrowseEffect] = []
        for key in keys where reader.pictures[key] == nil {
            reader.pictures[key] = .drawing
            effects.append(.drawReaderPicture(reader.ref, key))
        }
        let kept = 12
        let prunes = reader.pictures.count > kept
        if prunes { reader.pictures = reader.pictures.filter { keys.contains($0.key) } }
        if !effects.isEmpty || prunes { state.screens[state.screens.count - 1] = .reader(reader) }
        return effects
    }
}
