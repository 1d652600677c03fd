/// Reads one xkcd `info.0.json` document into an item, surviving the
/// archive's quirks: numbers sent as strings, HTML markup and entities in
/// titles, text mis-encoded anywhere, empty transcripts, `extra_parts` on
/// interactive comics, and an `img` with no file name.
public enum XKCDComicDecoder {
    public static func decode(_ body: [UInt8]) throws(DocumentError) -> Item {
        let document = try UpstreamDocument.object(body)
        guard let number = document["num"]?.lenientIntValue else { throw DocumentError(reason: "no comic number") }
        guard (1...SourceName.xkcd.largestID).contains(number) else {
            throw DocumentError(reason: "comic number \(number) is outside 1 to \(SourceName.xkcd.largestID)")
        }
        // `title` is the authored one, markup and all; `safe_title` (the
        // same words without it) stands in when `title` leaves nothing.
        let title = [document["title"], document["safe_title"]].lazy
            .map { cleaned("title", text($0) ?? "") }.first { !$0.isEmpty } ?? ""
        let attributes: [Attribute] = [
            Attribute("date", date(document).map(JSONValue.string) ?? .null),
            Attribute("alt", .string(cleaned("alt", text(document["alt"]) ?? ""))),
            Attribute("transcript", .string(cleaned("transcript", text(document["transcript"]) ?? ""))),
            Attribute("image_url", imageURL(text(document["img"])).map(JSONValue.string) ?? .null),
            // Where a comic links to (a large version, a related page); mostly empty.
            Attribute("link", webURL(text(document["link"])).map(JSONValue.string) ?? .null),
            Attribute("interactive", .bool(isInteractive(document["extra_parts"]))),
        ]
        return Item(
            ref: ItemRef(source: .xkcd, id: number), title: title.isEmpty ? "#\(number)" : title,
            url: pageURL(of: number), attributes: attributes)
    }

    static func pageURL(of number: Int) -> String { "https://xkcd.com/\(number)/" }

    /// A text field as people should read it: every field has its
    /// mis-encoded runs repaired; the title loses its markup and, like the
    /// alt text, has its HTML entities decoded. A migration applies it to
    /// what older versions stored.
    /// Upstream text can never carry search's highlight markers, and no
    /// field is longer than a person would read (`UpstreamText.capped`).
    static func cleaned(_ field: String, _ text: String) -> String {
        let cleaned = switch field {
        case "title": HTMLEntities.decode(Mojibake.repair(HTMLMarkup.removingTags(text))).trimmingWhitespace()
        case "alt": HTMLEntities.decode(Mojibake.repair(text))
        case "transcript": Mojibake.repair(text)
        default: text
        }
        return UpstreamText.capped(SearchMatch.unmarked(cleaned), field == "title" ? UpstreamText.titleLimit : UpstreamText.textLimit)
    }

    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case let .string(text)?: text
        case let .int(number)?: String(number)
        default: nil
        }
    }

    /// `YYYY-MM-DD`, or nil when the parts are missing or impossible.
    private static func date(_ document: JSONValue) -> String? {
        guard let year = document["year"]?.lenientIntValue, let month = document["month"]?.lenientIntValue,
              let day = document["day"]?.lenientIntValue,
              (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        func padded(_ number: Int, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The image URL, or nil when it names no file (`https://imgs.xkcd.com/comics/`).
    private static func imageURL(_ text: String?) -> String? {
        guard let text, text.hasPrefix("http://") || text.hasPrefix("https://"),
              let lastSlash = text.lastIndex(of: "/"), text[text.index(after: lastSlash)...].contains(".")
        else { return nil }
        return text
    }

    /// An http(s) link, or nil for the empty string and anything else.
    private static func webURL(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace(), text.hasPrefix("http://") || text.hasPrefix("https://") else { return nil }
        return text
    }

    private static func isInteractive(_ extraParts: JSONValue?) -> Bool {
        switch extraParts {
        case nil, .null?: false
        case let .object(members)?: !members.isEmpty
        default: true
        }
    }
}
