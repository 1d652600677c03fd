/// A picture of a book's HTML edition, which `get` keeps beside the text
/// so the reader shows it offline.
public struct TextPicture: Equatable, Sendable {
    /// As the illustration's block names it (`images/i_001.jpg`).
    public var path: String
    /// Where it is fetched from; empty when comics may ask nowhere.
    public var url: String
    public var state: State

    public enum State: Equatable, Sendable {
        /// Not fetched yet, or the last try failed: the next `get` asks.
        case wanted(failure: String?)
        case kept(width: Int, height: Int, bytes: Int)
        /// For good: past a cap, on another host, not upstream, not a picture.
        case skipped(String)
    }

    public init(path: String, url: String, state: State) {
        self.path = path
        self.url = url
        self.state = state
    }
}

/// How many of a text's pictures are kept, and what they cost.
public struct TextPictureCount: Equatable, Sendable {
    public var kept = 0
    public var bytes = 0
    public var skipped = 0
    /// Not fetched yet, or failed the last time.
    public var missing = 0

    public init(kept: Int = 0, bytes: Int = 0, skipped: Int = 0, missing: Int = 0) {
        self.kept = kept
        self.bytes = bytes
        self.skipped = skipped
        self.missing = missing
    }

    public var total: Int { kept + skipped + missing }
}

/// What bounds a book's pictures: a picture is skipped past any cap, and
/// a book keeps no more than so many, of so many bytes in all.
public enum TextPictureRules {
    public static let maximumPictures = 500
    public static let maximumBytesPerBook = 64 * 1024 * 1024
    public static let maximumBytesPerPicture = 8 * 1024 * 1024
    /// Far above any book's illustration (Gutenberg's run to 2 megapixels),
    /// below what would cost the drawing child its memory.
    public static let maximumPixels = 25_000_000

    /// The pictures an edition's illustration links name, each once, in
    /// reading order, read against `base` (the address that answered with
    /// the edition): only those on its own scheme, host and port are
    /// asked for; the others, and those past the count, are skipped.
    public static func plan(links: [String], base: String) -> [TextPicture] {
        var seen = Set<String>()
        var pictures: [TextPicture] = []
        let origin = URLOrigin(base)
        for path in links where seen.insert(path).inserted {
            guard pictures.count < maximumPictures else {
                pictures.append(TextPicture(path: path, url: "", state: .skipped("past the \(maximumPictures) pictures a book keeps")))
                continue
            }
            guard let url = resolved(path, against: base), origin != nil, URLOrigin(url) == origin else {
                pictures.append(TextPicture(path: path, url: "", state: .skipped("not beside the edition on its host; not fetched")))
                continue
            }
            pictures.append(TextPicture(path: path, url: url, state: .wanted(failure: nil)))
        }
        return pictures
    }

    /// `path` read against `base` as a browser would, or nil when the
    /// result is not an http(s) address without credentials.
    static func resolved(_ path: String, against base: String) -> String? {
        guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
              var address = WebAddress(base)?.resolving(path), !address.hasCredentials, URLOrigin(address.text) != nil
        else { return nil }
        address.fragment = nil
        return address.text
    }
}

/// A kept picture's size in pixels: the reader lays out its rows by it.
public struct PictureSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
