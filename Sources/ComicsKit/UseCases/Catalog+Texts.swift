import struct FoundationEssentials.Date

/// What `get` did for one book.
public enum TextDownload: Equatable, Sendable {
    case downloaded(TextInfo)
    /// It was in the cache already; nothing was fetched.
    case alreadyHad(TextInfo)

    public var info: TextInfo {
        switch self {
        case let .downloaded(info), let .alreadyHad(info): info
        }
    }
}

/// Where a person is with a book: its text downloaded or not, where
/// reading stopped, and when it was last read (or got).
public struct ReadingState: Equatable, Sendable {
    public var downloaded: Bool
    public var position: ReadingPosition?
    public var lastRead: Date
}

/// How fast a person reads, learned from their own page turns: a page
/// read in a plausible time moves the estimate a fifth of the way to what
/// it showed; a page skipped or left open teaches nothing.
public enum ReadingSpeed {
    public static let standard = 250.0

    public static func learned(_ current: Double, words: Int, seconds: Double) -> Double {
        guard words > 0, (3...600).contains(seconds) else { return current }
        let shown = Double(words) * 60 / seconds
        guard (60...1_500).contains(shown) else { return current }
        return current * 0.8 + shown * 0.2
    }
}

/// A downloaded text as the reader first needs it.
public struct TextMap: Equatable, Sendable {
    public var info: TextInfo
    public var outline: [OutlineEntry]
    public var blockCount: Int
    public var position: ReadingPosition?
}

/// One section of a book's text, as `read --section` shows it.
public struct OpenedSection: Sendable {
    public var info: TextInfo
    public var entry: OutlineEntry
    /// The section's blocks, nested sections' included.
    public var blocks: [TextBlock]
    /// Where in `blocks` the section and those nested in it begin.
    public var sectionStarts: Set<Int>
}

/// A book's text as `read` shows it, and where its reader stopped.
public struct OpenedText: Sendable {
    public var info: TextInfo
    public var content: BookContent
    /// The book's title, when its record is cached.
    public var title: String?
    /// Mapped onto this text: a position saved against another edition
    /// lands on the same paragraph, or as far into the book.
    public var position: ReadingPosition?
}

extension Catalog {
    /// Downloads a book's text into the cache, unless it is there already
    /// (with `--refresh`, again: a new edition; the place where reading
    /// stopped finds its paragraph in it).
    /// `edition` asks for that edition alone; a text of another edition
    /// downloaded before is replaced.
    public func getText(_ ref: ItemRef, edition: TextEdition? = nil) throws -> TextDownload {
        try requireText(ref)
        if mode != .refresh, let info = try store.textInfo(ref), edition == nil || info.edition == edition {
            return .alreadyHad(info)
        }
        return .downloaded(try downloadText(ref, only: edition))
    }

    /// The text, cache-first: a downloaded text is used as it is; one that
    /// is not is downloaded first.
    public func openText(_ ref: ItemRef) throws -> OpenedText {
        let info = try downloadedText(ref)
        guard let content = try store.textContent(ref) else {
            throw ComicsError.notFound("the text of \(ref) is no longer in the cache")
        }
        let position = try store.readingPosition(ref).map { Self.mapped($0, onto: content) }
        let title = try store.cachedItems([ref])[ref]?.item.title
        return OpenedText(info: info, content: content, title: title, position: position)
    }

    /// One section (numbered as `toc` shows it; 0 is the front matter
    /// before the first), its blocks alone read from the text; cache-first
    /// like `openText`. Nil when the text has no such section.
    public func openSection(_ ref: ItemRef, number: Int) throws -> OpenedSection? {
        let info = try downloadedText(ref)
        let outline = try store.outline(ref)
        if number == 0 {
            let end = outline.first?.section.firstBlock
            guard end.map({ $0 > 0 }) ?? true, let blocks = try store.textPassage(ref, from: 0, upTo: end)?.blocks, !blocks.isEmpty else { return nil }
            let frontMatter = OutlineEntry(
                number: 0, section: TextSection(level: 0, title: "Front matter", firstBlock: 0), startWord: 0,
                words: outline.first?.startWord ?? info.wordCount)
            return OpenedSection(info: info, entry: frontMatter, blocks: blocks, sectionStarts: [])
        }
        guard outline.indices.contains(number - 1) else { return nil }
        let entry = outline[number - 1]
        let next = outline[number...].first { $0.section.level <= entry.section.level }
        guard let blocks = try store.textPassage(ref, from: entry.section.firstBlock, upTo: next?.section.firstBlock)?.blocks else {
            throw ComicsError.notFound("the text of \(ref) is no longer in the cache")
        }
        let nested = outline[number...].prefix { $0.section.level > entry.section.level }
        let starts = Set(([entry] + nested).map { $0.section.firstBlock - entry.section.firstBlock })
        return OpenedSection(info: info, entry: entry, blocks: blocks, sectionStarts: starts)
    }

    /// What the reader needs before it reads a line: the outline, how many
    /// blocks, and where reading stopped, mapped onto this text. Nil when
    /// the text is not downloaded (this asks no server).
    public func textMap(_ ref: ItemRef) throws -> TextMap? {
        try requireText(ref)
        guard let info = try store.textInfo(ref), let blockCount = try store.textBlockCount(ref) else { return nil }
        var position = try store.readingPosition(ref)
        if let saved = position {
            let block = saved.position.block
            let here = try store.textPassage(ref, from: block, upTo: block + 1)?.blocks.first
            if !Self.isStill(here, anchor: saved.anchor), let content = try store.textContent(ref) {
                position = Self.mapped(saved, onto: content)
            }
        }
        // Sections open in order: those past the text's end are a suffix.
        let outline = try store.outline(ref).prefix { $0.section.firstBlock < max(1, blockCount) }
        return TextMap(info: info, outline: Array(outline), blockCount: blockCount, position: position)
    }

    /// Blocks `first` up to `end` of a downloaded text, from the cache.
    public func textPassage(_ ref: ItemRef, from first: Int, upTo end: Int?) throws -> TextPassage? {
        try store.textPassage(ref, from: first, upTo: end)
    }

    /// The text in the cache, downloaded first when it is not (the
    /// reader's worker asks this; the screen's own catalog never does).
    public func downloadTextIfNeeded(_ ref: ItemRef) throws -> TextInfo {
        try downloadedText(ref)
    }

    /// Remembers where a person stopped in the reader. Asked at every page
    /// turned, so it reads only the block there and the outline, not the
    /// text's map (whose saved place may need the whole text to find).
    public func recordReading(_ ref: ItemRef, at position: TextPosition) throws {
        guard let info = try store.textInfo(ref),
              let passage = try store.textPassage(ref, from: position.block, upTo: position.block + 1),
              let block = passage.block(position.block)
        else { return }
        let text = block.text
        let percent = Double(passage.words(before: position.block)) * 100 / Double(max(1, info.wordCount))
        let section = try store.outline(ref).last { $0.section.firstBlock <= position.block }?.number
        try store.setReadingPosition(ref, ReadingPosition(
            position: TextPosition(block: position.block, offset: min(max(0, position.offset), text.utf8.count)),
            anchor: Self.anchor(of: text), percent: min(100, percent), section: section, at: clock.now))
    }

    /// Words a minute, as learned so far (250 until then).
    public func readingSpeed() throws -> Double {
        try store.setting(SettingKey.readingSpeed).flatMap(Double.init).map { min(1_500, max(60, $0)) } ?? ReadingSpeed.standard
    }

    /// A page of `words` read in `seconds`, learned from; the speed now.
    public func learnReadingSpeed(words: Int, seconds: Double) throws -> Double {
        let current = try readingSpeed()
        let learned = ReadingSpeed.learned(current, words: words, seconds: seconds)
        if learned != current { try store.setSetting(SettingKey.readingSpeed, to: String(Int(learned.rounded()))) }
        return learned
    }

    /// The reading list: books with a text downloaded or a place where
    /// reading stopped, the last read first.
    public func readingList() throws -> [(ref: ItemRef, state: ReadingState)] {
        let texts = Dictionary(try store.textInfos().map { ($0.ref, $0) }, uniquingKeysWith: { first, _ in first })
        let positions = try store.allReadingPositions()
        return Set(texts.keys).union(positions.keys).map { ref in
            let text = texts[ref], position = positions[ref]
            let dates = [position?.at, text?.readAt, text?.fetchedAt].compactMap { $0 }
            return (ref, ReadingState(downloaded: text != nil, position: position, lastRead: dates.max() ?? .distantPast))
        }.sorted { ($0.state.lastRead, $1.ref.id) > ($1.state.lastRead, $0.ref.id) }
    }

    /// The reading state of each of `refs` that has one (a books list's marks).
    public func readingStates(_ refs: [ItemRef]) throws -> [ItemRef: ReadingState] {
        let books = refs.filter { $0.source == .books }
        guard !books.isEmpty else { return [:] }
        let texts = try store.textInfos(books)
        let positions = try store.readingPositions(books)
        var states: [ItemRef: ReadingState] = [:]
        for text in texts {
            states[text.ref] = ReadingState(downloaded: true, position: positions[text.ref], lastRead: text.readAt ?? text.fetchedAt)
        }
        for (ref, position) in positions where states[ref] == nil {
            states[ref] = ReadingState(downloaded: false, position: position, lastRead: position.at)
        }
        return states
    }

    /// A book's bookmarks, each found again in the text downloaded now: a
    /// new edition moves one whose paragraph is not where it was to the
    /// paragraph that begins the same way, else as far into the book (and
    /// keeps it there). The text is read whole only when one has moved.
    public func bookmarks(_ ref: ItemRef) throws -> [Bookmark] {
        var bookmarks = try store.bookmarks(ref)
        // A few are checked block by block; many against the text read once.
        var content = bookmarks.count > 8 ? try store.textContent(ref) : nil
        for index in bookmarks.indices {
            let bookmark = bookmarks[index]
            let block = bookmark.position.block
            let here = if let content {
                content.blocks.indices.contains(block) ? content.blocks[block] : nil
            } else {
                try store.textPassage(ref, from: block, upTo: block + 1)?.blocks.first
            }
            if Self.isStill(here, anchor: bookmark.anchor) { continue }
            if content == nil { content = try store.textContent(ref) }
            guard let content, !content.blocks.isEmpty else { return bookmarks }
            let moved = Self.found(bookmark.position, anchor: bookmark.anchor, percent: bookmark.percent, in: content)
            bookmarks[index].position = moved
            try store.moveBookmark(ref, number: bookmark.number, to: moved)
        }
        return bookmarks
    }

    /// What a rebuild salvaged of where reading stopped and the bookmarks,
    /// into the new database (the texts are downloaded again when read).
    public func restore(readingPositions: [(ref: ItemRef, position: ReadingPosition)], bookmarks: [(ref: ItemRef, bookmark: Bookmark)]) throws {
        for (ref, position) in readingPositions { try store.setReadingPosition(ref, position) }
        for (ref, bookmark) in bookmarks { _ = try store.addBookmark(ref, bookmark) }
    }

    /// Marks a place in a passage the reader shows, named after its section;
    /// a place already marked gives its bookmark back, not a second one.
    public func addBookmark(_ ref: ItemRef, at position: TextPosition, in passage: TextPassage, map: TextMap) throws -> Bookmark {
        let existing = try store.bookmarks(ref)
        if let same = existing.first(where: { $0.position == position && $0.note == nil }) { return same }
        guard existing.count < Bookmark.limit else {
            throw ComicsError.usage("\(ref) has \(Bookmark.limit) bookmarks, as many as a book keeps", hint: "d in the list deletes one")
        }
        let text = passage.block(position.block)?.text ?? ""
        let path = Self.sectionPath(map.outline, at: position.block).map { TerminalText.sanitize($0.section.title, singleLine: true) }
        // Every book has a CHAPTER XXI: the parts it is in name which.
        let name = path.isEmpty ? String(text.prefix(40)) : String(path.joined(separator: " › ").prefix(200))
        let percent = Double(passage.words(before: position.block)) * 100 / Double(max(1, map.info.wordCount))
        return try store.addBookmark(ref, Bookmark(
            number: 0, position: position, anchor: Self.anchor(of: text), percent: min(100, percent),
            name: name.isEmpty ? "bookmark" : name, at: clock.now))
    }

    /// The sections a block is in, outermost first: the innermost holding
    /// it, and each one before it of a lower level.
    static func sectionPath(_ outline: [OutlineEntry], at block: Int) -> [OutlineEntry] {
        guard let innermost = outline.lastIndex(where: { $0.section.firstBlock <= block }) else { return [] }
        var path = [outline[innermost]]
        for entry in outline[..<innermost].reversed() where entry.section.level < path[0].section.level {
            path.insert(entry, at: 0)
        }
        return path
    }

    /// A bookmark's name, as a person typed it (one line, at most 200 characters).
    public func renameBookmark(_ ref: ItemRef, number: Int, to name: String) throws {
        let name = String(TerminalText.sanitize(name, singleLine: true).trimmingWhitespace().prefix(200))
        guard !name.isEmpty else { throw ComicsError.usage("a bookmark needs a name", hint: nil) }
        try store.renameBookmark(ref, number: number, to: name)
    }

    public func removeBookmark(_ ref: ItemRef, number: Int) throws {
        try store.removeBookmark(ref, number: number)
    }

    /// The first block at least `percent` of the way into a downloaded
    /// text, by words.
    public func textBlock(_ ref: ItemRef, atPercent percent: Double, of map: TextMap) throws -> Int? {
        // Rounded up: the block found is shown as at least `percent`.
        try store.textBlock(ref, atWord: Int((Double(map.info.wordCount) * min(100, max(0, percent)) / 100).rounded(.up)))
    }

    /// The blocks of a downloaded text that hold the query, in order.
    public func textMatches(_ terms: String, in ref: ItemRef) throws -> [Int] {
        try checkSearchSize(terms)
        return try store.textMatches(terms, in: ref)
    }

    /// The outline alone, without reading the text.
    public func textOutline(_ ref: ItemRef) throws -> (info: TextInfo, outline: [OutlineEntry]) {
        (try downloadedText(ref), try store.outline(ref))
    }

    /// What the cache knows of the book's text, downloading it first when
    /// it has none (cache-first).
    private func downloadedText(_ ref: ItemRef) throws -> TextInfo {
        try requireText(ref)
        if let info = try store.textInfo(ref) { return info }
        return try downloadText(ref)
    }

    public func textInfo(_ ref: ItemRef) throws -> TextInfo? {
        try store.textInfo(ref)
    }

    public func readingPositions(_ refs: [ItemRef]) throws -> [ItemRef: ReadingPosition] {
        try store.readingPositions(refs.filter { $0.source == .books })
    }

    /// Remembers where a person stopped, and that the book was read now.
    public func recordReading(_ ref: ItemRef, at position: TextPosition, in content: BookContent) throws {
        try store.setReadingPosition(ref, Self.readingPosition(position, in: content, at: clock.now))
    }

    /// Remembers that a person read from the start of a section.
    public func recordReading(_ opened: OpenedSection) throws {
        let section = opened.entry
        let percent = Double(section.startWord) * 100 / Double(max(1, opened.info.wordCount))
        try store.setReadingPosition(opened.info.ref, ReadingPosition(
            position: TextPosition(block: section.section.firstBlock), anchor: Self.anchor(of: opened.blocks.first?.text ?? ""),
            percent: min(100, percent), section: section.number > 0 ? section.number : nil, at: clock.now))
    }

    /// A position with what outlives the text: the paragraph's first
    /// words, how far into the book, and the section.
    static func readingPosition(_ position: TextPosition, in content: BookContent, at date: Date) -> ReadingPosition {
        let block = min(max(0, position.block), max(0, content.blocks.count - 1))
        let text = content.blocks.indices.contains(block) ? content.blocks[block].text : ""
        let offset = min(max(0, position.offset), text.utf8.count)
        let total = max(1, content.wordCount)
        let before = content.blocks.prefix(block).reduce(0) { $0 + $1.wordCount }
        let percent = min(100, Double(before) * 100 / Double(total))
        return ReadingPosition(
            position: TextPosition(block: block, offset: offset), anchor: anchor(of: text), percent: percent,
            section: content.sectionIndex(containing: block).map { $0 + 1 }, at: date)
    }

    static func anchor(of text: String) -> String {
        String(text.prefix(60))
    }

    /// The same paragraph when this text has it (where it was, or the
    /// nearest one that begins the same way), else as far into the book.
    static func mapped(_ reading: ReadingPosition, onto content: BookContent) -> ReadingPosition {
        var mapped = reading
        mapped.position = found(reading.position, anchor: reading.anchor, percent: reading.percent, in: content)
        mapped.section = content.sectionIndex(containing: mapped.position.block).map { $0 + 1 }
        return mapped
    }

    /// A saved place is where it was while its block (nil: none there)
    /// still begins with the first words it had.
    private static func isStill(_ block: TextBlock?, anchor: String) -> Bool {
        guard let block else { return false }
        return anchor.isEmpty || begins(block.text, with: anchor)
    }

    /// Whether `text` begins with `anchor`, letters of either case: an HTML
    /// edition's small capitals (`MR. BENNET`) are a plain text's `Mr. Bennet`.
    private static func begins(_ text: String, with anchor: String) -> Bool {
        text.hasPrefix(anchor) || text.prefix(anchor.count).lowercased() == anchor.lowercased()
    }

    /// A place saved against some edition of a text, in `content`: where
    /// it was when its block still begins with `anchor`, else the nearest
    /// block that does to `percent` of the way in, else that far in.
    static func found(_ position: TextPosition, anchor: String, percent: Double, in content: BookContent) -> TextPosition {
        let blocks = content.blocks
        let block = position.block
        if isStill(blocks.indices.contains(block) ? blocks[block] : nil, anchor: anchor) {
            return position
        }
        let total = max(1, content.wordCount)
        var wordsBefore = 0
        var proportional = max(0, blocks.count - 1)
        for (index, candidate) in blocks.enumerated() {
            if Double(wordsBefore) * 100 / Double(total) >= percent { proportional = index; break }
            wordsBefore += candidate.wordCount
        }
        let matches = anchor.isEmpty ? [] : blocks.indices.filter { begins(blocks[$0].text, with: anchor) }
        let chosen = matches.min { abs($0 - proportional) < abs($1 - proportional) } ?? proportional
        return TextPosition(block: chosen, offset: matches.isEmpty ? 0 : position.offset)
    }

    /// Where the book's text is, from its record (cache-first): what fails
    /// before a download would (no such book, no edition to read,
    /// offline), failing before the reader's screen opens to download it.
    public func textAddress(_ ref: ItemRef) throws -> String {
        try textAddresses(ref, only: nil)[0].url
    }

    /// The editions to try, in order: the one asked for alone (`only`), or
    /// the configured one first and the other after it (an HTML edition
    /// whose markup gives no chapters gives way to the plain text).
    private func textAddresses(_ ref: ItemRef, only: TextEdition?) throws -> [TextAddress] {
        try requireText(ref)
        let record = try show(.item(ref))
        let formats: [(type: String, url: String)] = {
            guard case let .object(members)? = record.item["formats"] else { return [] }
            return members.compactMap { type, url in url.stringValue.map { (type, $0) } }
        }()
        var html = GutenbergTexts.htmlURLs(in: formats).first.map { (TextEdition.html, $0) }
        if html != nil, let reason = GutenbergHTML.unavailable() {
            if only == .html { throw ComicsError(.unexpected, "\(ref)'s HTML edition cannot be read here: \(reason)") }
            log?("\(reason); reading plain texts only")
            html = nil
        }
        let text = GutenbergTexts.plainTextURLs(in: formats).first.map { (TextEdition.text, $0) }
        let preferred = try only ?? TextEdition(rawValue: configValue(.textsEdition).value) ?? .html
        let order = preferred == .html ? [html, text] : [text, html]
        let addresses = (only == nil ? order : [order[0]]).compactMap { $0 }
        guard !addresses.isEmpty else {
            let kinds = MessageText.listed(formats.map(\.type))
            let wanted = only.map { $0 == .html ? "HTML edition" : "plain-text edition" } ?? "plain-text or HTML edition"
            throw ComicsError.notFound("\(ref) has no \(wanted) to read" + (kinds.isEmpty ? "" : "; it has \(kinds)"))
        }
        guard mode != .offline else {
            throw ComicsError.network("the text of \(ref) is not downloaded, and --offline forbids the network")
        }
        return addresses
    }

    private func requireText(_ ref: ItemRef) throws {
        guard ref.source == .books else {
            throw ComicsError.usage("\(ref) is a comic; only books have texts to read", hint: "give a book, such as books:1342")
        }
    }

    /// Fetches the record (cache-first), then its text: the HTML edition
    /// unless told otherwise, the plain text when that has no edition, no
    /// file, or markup without chapters; the HTML edition after all when
    /// the plain text has no chapters either (a picture book keeps its
    /// pictures) or no file.
    private func downloadText(_ ref: ItemRef, only: TextEdition? = nil) throws -> TextInfo {
        let addresses = try textAddresses(ref, only: only)
        guard let texts else { throw ComicsError.network("comics cannot download texts here") }
        /// The HTML edition passed over for its lack of chapters.
        var passedOver: (address: TextAddress, draft: TextDraft, bytes: Int, answeredFrom: String)?
        func keep(_ html: (address: TextAddress, draft: TextDraft, bytes: Int, answeredFrom: String)) throws -> TextInfo {
            guard let info = try saveText(html.draft, of: ref, from: html.address, bytes: html.bytes, answeredFrom: html.answeredFrom, passedOver: nil)
            else { throw ComicsError.notFound("no edition of \(ref) could be read") }
            return info
        }
        for (index, address) in addresses.enumerated() {
            let isLast = index == addresses.count - 1
            log?("downloading the \(address.edition == .html ? "HTML edition" : "plain text") of \(ref) from \(MessageText.withoutCredentials(address.url))")
            let bytes: [UInt8], answeredFrom: String
            switch texts.download(address.url) {
            case let .success(file): (bytes, answeredFrom) = file
            case let .failure(error):
                if error.kind == .notFound && !isLast { continue }
                if error.kind == .notFound, let html = passedOver { return try keep(html) }
                throw error
            }
            let draft = address.edition == .html ? GutenbergHTML.draft(of: bytes) : GutenbergText.draft(of: bytes)
            let mayFallBack = (address.edition == .html && !isLast) || passedOver != nil
            if let saved = try saveText(draft, of: ref, from: address, bytes: bytes.count, answeredFrom: answeredFrom,
                                        passedOver: passedOver?.address.edition, unlessWithoutOutline: mayFallBack) {
                return saved
            }
            if let html = passedOver {
                log?("the plain text of \(ref) marks no chapters either; keeping its HTML edition")
                return try keep(html)
            }
            log?("the HTML edition of \(ref) marks no chapters; trying its plain text")
            passedOver = (address, draft, bytes.count, answeredFrom)
        }
        throw ComicsError.notFound("no edition of \(ref) could be read")
    }

    /// Stores a downloaded edition and plans its pictures; nil, with
    /// nothing stored, when `unlessWithoutOutline` and it has no chapters.
    private func saveText(
        _ draft: TextDraft, of ref: ItemRef, from address: TextAddress, bytes: Int, answeredFrom: String, passedOver: TextEdition?,
        unlessWithoutOutline: Bool = false
    ) throws -> TextInfo? {
        let fetchedAt = clock.now
        let saved = try store.saveText(draft.blocks, of: ref) {
            let outlined = draft.outlined()
            if unlessWithoutOutline && !outlined.hasOutline { return nil }
            let outline = outlined.content.outline()
            let info = TextInfo(
                ref: ref, url: address.url, encoding: draft.encoding.rawValue, fetchedAt: fetchedAt, originalBytes: bytes,
                sectionCount: outline.count, wordCount: outlined.content.wordCount, outlineOrigin: outlined.origin,
                passedOver: passedOver)
            return FinishedText(content: outlined.content, outline: outline, info: info)
        }
        guard let saved else { return nil }
        let links = address.edition == .html ? draft.blocks.compactMap { $0.kind == .illustration ? $0.link : nil } : []
        try store.replacePictures(ref, TextPictureRules.plan(links: links, base: answeredFrom))
        return try store.textInfo(ref) ?? saved.info
    }
}

/// Where one edition of a book can be downloaded.
private typealias TextAddress = (edition: TextEdition, url: String)

/// One place in a downloaded text that a search found.
public struct TextSearchResult: Equatable, Sendable {
    public var hit: TextHit
    /// The book's title, when its record is cached.
    public var bookTitle: String?
    /// The innermost section holding the hit, if the book has sections.
    public var section: OutlineEntry?
}

extension Catalog {
    /// Searches inside one book's text (`--in`, downloading it first when
    /// needed) or every downloaded text (`--texts`), best match first.
    public func searchTexts(_ terms: String, in ref: ItemRef?, limit: Int) throws -> (results: [TextSearchResult], total: Int) {
        try checkSearchSize(terms)
        if let ref { _ = try downloadedText(ref) }
        let (hits, total) = try store.searchTexts(terms, in: ref, limit: limit)
        var outlines: [ItemRef: [OutlineEntry]] = [:]
        let records = try store.cachedItems(Array(Set(hits.map(\.ref))))
        let results = try hits.map { hit in
            if outlines[hit.ref] == nil { outlines[hit.ref] = try store.outline(hit.ref) }
            let section = outlines[hit.ref]?.last { $0.section.firstBlock <= hit.block }
            return TextSearchResult(hit: hit, bookTitle: records[hit.ref]?.item.title, section: section)
        }
        return (results, total)
    }
}
