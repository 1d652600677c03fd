import CHTML

/// A Project Gutenberg HTML edition made into a `BookContent`: the same
/// blocks as a plain text's, its sections from the markup. The markup is a
/// strong hint, not the truth, so the book's own contents list decides
/// which headings are sections where it has one, and what the headings say
/// (CHAPTER, BOOK, numerals) orders their levels where tags do not.
public enum GutenbergHTML {
    /// A section's heading with fewer words under it than this before the
    /// next heading at its level or above is a title page's line, a
    /// contents list's heading or a closing "THE END".
    static let emptyWords = 12

    /// A part's title page in a contents list that gives pages holds its
    /// title and a motto or a picture's caption: fewer words than this.
    static let halfTitleWords = 60

    /// Nil when HTML editions can be read here; otherwise why not (libxml2,
    /// loaded the first time, is missing).
    public static func unavailable() -> String? {
        comics_html_load() == 0 ? nil : "cannot use libxml2 (\(String(cString: comics_html_load_error()))); install the libxml2 package"
    }

    /// The content, and whether its markup gave an outline a reader can
    /// move by (two sections or more); when not, the plain text's rules
    /// serve the book better.
    public static func content(of bytes: [UInt8]) -> (content: BookContent, encoding: TextDecoding.Encoding, hasOutline: Bool) {
        let draft = draft(of: bytes)
        let outlined = draft.outlined()
        return (outlined.content, draft.encoding, outlined.hasOutline)
    }

    /// The edition's blocks, a heading's lines one block; which headings
    /// open sections is found when the draft is outlined.
    public static func draft(of bytes: [UInt8]) -> TextDraft {
        SpelledNumbers.prepareTables()
        let (text, encoding) = TextDecoding.decodeHTML(bytes)
        let read = HTMLBlocks.read(text)
        let work = workRange(of: read.items)
        var namedItems = Array(read.items[work])
        // Each heading the contents list names: how deep its entry stands,
        // and the number its link alone gives it.
        var namedHeadings: [Int: ContentsEntry] = [:]
        // Entries whose anchors stand in a paragraph with no heading near,
        // the list each stands in, and whether the anchor is a page's.
        var unheaded: [(item: Int, label: String, entry: ContentsEntry, list: Int, atPage: Bool)] = []
        // The lists whose entries name headings.
        var listsNamingHeadings = Set<Int>()
        // Paragraphs that open sections under their entries' words.
        var entryTitles: [Int: EntryTitle] = [:]
        // The notes each heading refers to, by its place in the work.
        var headingNotes: [Int: String] = [:]
        for (item, notes) in read.headingNotes where work.contains(item) { headingNotes[item - work.lowerBound] = notes }
        for (index, (target, depth)) in zip(read.contentsTargets, read.contentsDepths).enumerated() {
            let label = read.contentsLabels.indices.contains(index) ? read.contentsLabels[index] : ""
            let list = read.contentsLists.indices.contains(index) ? read.contentsLists[index] : 0
            let givesPage = read.contentsGivesPage.indices.contains(index) && read.contentsGivesPage[index]
            let isBold = read.contentsBold.indices.contains(index) && read.contentsBold[index]
            // A list of illustrations names pictures: the heading after one
            // (a plate's caption set as a heading) is no section for it.
            if read.contentsNamePictures.indices.contains(index) && read.contentsNamePictures[index] { continue }
            // A page's entry whose page begins with no heading, or with one
            // another entry names, names the heading in its page that reads
            // as it (`ARROW-ROOT JELLY. 31` on the page EGG GRUEL. opens).
            let inItsPage = HTMLBlocks.namesAPage(target) ? heading(reading: label, onPage: target, in: read) : nil
            // An index after the text (`Egg gruel, 22`) leads back to pages,
            // which a heading may happen to begin: it names no section. A
            // contents printed there, its pages in the book's order, names
            // the headings on them that read as its entries, and only those.
            let listedBack = HTMLBlocks.namesAPage(target) && read.anchors[target].map { at in
                read.contentsPlaces.indices.contains(index) && at < read.contentsPlaces[index] } == true
            let listedInOrder = read.contentsListedInOrder.indices.contains(index) && read.contentsListedInOrder[index]
            if listedBack && (!listedInOrder || inItsPage == nil) { continue }
            guard var item = listedBack ? inItsPage : heading(named: target, in: read) ?? paragraphHeading(named: target, reading: label, in: read)
                    ?? headingAfterMotto(named: target, reading: label, in: read) ?? inItsPage, work.contains(item)
            else {
                if let item = read.anchors[target], work.contains(item), unheaded.count < SectionOutline.maximumSections {
                    unheaded.append((item - work.lowerBound, label, ContentsEntry(depth: depth, number: nil, givesPage: givesPage, isBold: isBold),
                                      list, HTMLBlocks.namesAPage(target)))
                }
                continue
            }
            if namedHeadings[item - work.lowerBound] != nil, let next = heading(after: item, reading: label, in: read) ?? inItsPage,
               work.contains(next) { item = next }
            if let chapter = chapterUnderDivision(at: item, naming: label, in: read), work.contains(chapter) { item = chapter }
            guard namedHeadings[item - work.lowerBound] == nil, !isNavigation(at: index, of: read.contentsLabels, to: namedItems[item - work.lowerBound])
            else { continue }
            if case let .block(block) = namedItems[item - work.lowerBound] {
                namedItems[item - work.lowerBound] = .heading(tagLevel: 2, lines: [block.text])
                headingNotes[item - work.lowerBound] = block.link
            }
            // A page's number (`23` linking to `#page23`) numbers nothing;
            // an entry's number before the heading's words (`1.
            // Introduction` for INTRODUCTION.) numbers it.
            let number = HTMLBlocks.namesAPage(target) ? nil : numberAlone(label) ?? number(of: label, over: namedItems[item - work.lowerBound])
            namedHeadings[item - work.lowerBound] = ContentsEntry(depth: depth, number: number, givesPage: givesPage, isBold: isBold,
                                                                  isPrintedAtTheEnd: listedBack)
            listsNamingHeadings.insert(list)
        }
        // An edition that sets its sections in no heading at all (a page's
        // anchor mid-paragraph, `On Love | 15`): each entry opens its
        // section at the paragraph its anchor stands in, under the entry's
        // own words. Where the other entries of its list name headings, so
        // does an entry whose anchor the book set for it in running text
        // (`reps`, not a page's `Page_34`, nor one over a heading).
        let noneNamed = namedHeadings.isEmpty
        let headingsInOrder = namedHeadings.keys.sorted()
        if unheaded.count >= 2 || !noneNamed {
            for (item, label, entry, list, atPage) in unheaded where entryTitles[item] == nil
                && (noneNamed || (listsNamingHeadings.contains(list) && !atPage && !Self.headsAHeading(item, in: namedItems)
                    && !(item > 0 && Self.isPicture(namedItems[item - 1])))) {
                // A number alone numbers the paragraphs it opens where the
                // list names headings too (BOOK IX, then its chapters `1`
                // to `46`, each a place in the text, no page).
                guard Self.words(of: label).contains(where: { $0.contains(where: \.isLetter) })
                        || (!noneNamed && HTMLBlocks.isFigures(HTMLBlocks.unwrapped(label))),
                      case let .block(block) = namedItems[item], block.kind == .prose || block.kind == .lines
                else { continue }
                // Among headings, at the tag of the one named before it.
                var tagLevel = 2
                if let before = Self.last(in: headingsInOrder, before: item), case let .heading(level, _) = namedItems[before] { tagLevel = level }
                entryTitles[item] = EntryTitle(words: label, tagLevel: tagLevel)
                namedHeadings[item] = entry
            }
        }
        // Headings that the contents' rows without links read as: the
        // divisions that hold its entries, two or more.
        var groupHeadings = Set<Int>()
        let groupTitles = Set(read.contentsGroupTitles.map { Self.words(of: $0) })
        if !groupTitles.isEmpty {
            for (item, heading) in namedItems.enumerated() where namedHeadings[item] == nil {
                if case let .heading(_, lines) = heading, groupTitles.contains(Self.words(of: lines.joined(separator: " "))) { groupHeadings.insert(item) }
            }
            if groupHeadings.count < 2 { groupHeadings = [] }
        }
        // Sections are named by their headings without note marks.
        var titledItems = namedItems
        for (item, lines) in read.headingTitles where work.contains(item) {
            if case let .heading(tagLevel, _) = titledItems[item - work.lowerBound] {
                titledItems[item - work.lowerBound] = .heading(tagLevel: tagLevel, lines: lines)
            }
        }
        // A contents or a list of illustrations without links goes, its
        // title with it.
        let unlinked = unlinkedLists(in: titledItems)
        if !unlinked.isEmpty {
            let kept = namedItems.indices.filter { !unlinked.contains($0) }
            var moved: [Int: Int] = [:]
            for (new, old) in kept.enumerated() { moved[old] = new }
            namedItems = kept.map { namedItems[$0] }
            titledItems = kept.map { titledItems[$0] }
            namedHeadings = Dictionary(uniqueKeysWithValues: namedHeadings.compactMap { old, entry in moved[old].map { ($0, entry) } })
            entryTitles = Dictionary(uniqueKeysWithValues: entryTitles.compactMap { old, title in moved[old].map { ($0, title) } })
            headingNotes = Dictionary(uniqueKeysWithValues: headingNotes.compactMap { old, notes in moved[old].map { ($0, notes) } })
            groupHeadings = Set(groupHeadings.compactMap { moved[$0] })
        }
        // Constants: the outline's closure may run on another thread.
        let targeted = namedHeadings, items = namedItems, titled = titledItems, titledBlocks = entryTitles, groups = groupHeadings
        let isIndexOfFiles = isIndexOfOtherFiles(read, items: items)
        let blocks = items.indices.map { index in
            switch items[index] {
            case let .block(block): block
            case let .heading(_, lines): TextBlock(.lines, lines.joined(separator: "\n"), link: headingNotes[index])
            }
        }
        return TextDraft(blocks: blocks, encoding: encoding) { blocks in
            var sections = outline(titled, contentsEntries: targeted, titledBlocks: titledBlocks, groups: groups).sorted { $0.item < $1.item }
                .map { TextSection(level: $0.level, title: $0.title, firstBlock: $0.item) }
            let hasOutline = sections.count >= 2 && sections.count <= SectionOutline.maximumSections && !isIndexOfFiles
            if sections.count > SectionOutline.maximumSections { sections = [] }
            // From the contents when most sections open where its links point.
            let listed = sections.count { targeted[$0.firstBlock] != nil }
            let origin: OutlineOrigin = listed * 2 > sections.count ? .contents : .headings
            return OutlinedText(blocks: blocks, sections: sections, origin: hasOutline ? origin : nil, titledByEntries: Set(titledBlocks.keys))
        }
    }

    /// The items of a printed contents or list of illustrations that no
    /// link made one (a `CONTENTS` heading over lines of titles, each
    /// with its page): a list title in the first two fifths of the book,
    /// the paragraphs of short lines after it up to the next heading or
    /// picture, when at least half of them name a heading, a caption or a
    /// short paragraph further on.
    private static func unlinkedLists(in items: [HTMLBlocks.Item]) -> Set<Int> {
        var dropped = Set<Int>()
        let front = max(40, items.count * 2 / 5)
        // Or in the last fifth, naming headings before it (TABLE at the
        // end of a French book).
        let back = max(front, items.count - max(40, items.count / 5))
        // Headings, captions and short paragraphs (a caption set as one),
        // by place, read once and only when a list's title is met.
        var titles: [(index: Int, key: String)]?
        var listsRead = 0
        var index = 0
        while index < items.count, listsRead < maximumUnlinkedLists {
            if index == front, back > front { index = back }
            guard index < items.count else { break }
            let title: String
            switch items[index] {
            case let .heading(_, lines): title = lines.count == 1 ? lines[0] : ""
            case let .block(block): title = block.text
            }
            guard ContentsList.isListTitle(title), !title.utf8.contains(0x0A) else {
                index += 1
                continue
            }
            listsRead += 1
            var end = index + 1
            // Each paragraph's lines: an entry a line, or an entry and
            // the summary of its chapter under it.
            var paragraphs: [[String]] = []
            var lineCount = 0
            while end < items.count, lineCount < maximumUnlinkedEntries, case let .block(block) = items[end],
                  block.kind == .prose || block.kind == .lines {
                let lines = block.text.split(separator: "\n").map { entryWords(String($0)) }
                guard lines.allSatisfy({ $0.count <= maximumEntryWords }) else { break }
                let entries = lines.filter { !$0.isEmpty }.map { " " + $0.joined(separator: " ") + " " }
                if !entries.isEmpty { paragraphs.append(entries) }
                lineCount += entries.count
                end += 1
            }
            if titles == nil {
                // A heading's lines apart too (`I—THE VAGABOND` over its
                // air), without their numerals, as the entries are.
                titles = items.indices.flatMap { place -> [(index: Int, key: String)] in
                    let item = items[place]
                    if case let .block(block) = item, block.kind != .illustration, block.text.utf8.count > maximumTitleBytes { return [] }
                    var keys = [entryWords(itemText(item))]
                    if case let .heading(_, lines) = item, lines.count > 1 { keys += lines.map(entryWords) }
                    return keys.filter { !$0.isEmpty }.map { (place, " " + $0.joined(separator: " ") + " ") }
                }
            }
            let atTheEnd = index >= back
            let later = (titles ?? []).lazy.filter { atTheEnd ? $0.index < index : $0.index >= end }.prefix(maximumLaterTitles).map(\.key)
            var comparisons = 0
            func names(_ entry: String) -> Bool {
                later.contains { title in
                    comparisons += 1
                    return comparisons <= maximumComparisons
                        && (title.contains(entry) || (entry.contains(title) && title.utf8.count(where: { $0 == 0x20 }) > 2))
                }
            }
            // A paragraph names what follows by its first line (a chapter
            // over its summary), or by half its lines (a list in one).
            let named = paragraphs.count { entries in
                names(entries[0]) || entries.dropFirst().count(where: names) * 2 >= entries.count
            }
            // At the book's very end one line is enough: what is left of a
            // list whose linked entries went (ÍNDICE, `Ao leitor`, then a
            // table of links).
            let isLastThing = atTheEnd && end == items.count
            if lineCount >= 2 || (isLastThing && lineCount == 1), named * 2 >= paragraphs.count { dropped.formUnion(index..<end) }
            index = end
        }
        return dropped
    }

    /// Bounds on reading lists without links, whatever an edition holds:
    /// lists read, lines a list, titles further on and comparisons of a
    /// line with one, and the bytes of a title or a caption set as a
    /// paragraph.
    private static let maximumUnlinkedLists = 4
    private static let maximumUnlinkedEntries = 500
    private static let maximumLaterTitles = 5_000
    private static let maximumComparisons = 200_000
    private static let maximumTitleBytes = 300

    /// The most words a line of a contents list holds.
    private static let maximumEntryWords = 24

    /// A contents line's words without its page number, its leaders and
    /// its own number (`IV. A Message from Africa ..... 29`).
    private static func entryWords(_ line: String) -> [String] {
        var entry = words(of: line)
        if let last = entry.last, last.allSatisfy(\.isNumber) || HeadingPattern.romanValue(last, lowercaseToo: true) != nil { entry.removeLast() }
        if let first = entry.first, entry.count > 1, first.allSatisfy(\.isNumber) || HeadingPattern.romanValue(first, lowercaseToo: true) != nil {
            entry.removeFirst()
        }
        return entry
    }

    private static func itemText(_ item: HTMLBlocks.Item) -> String {
        switch item {
        case let .heading(_, lines): lines.joined(separator: " ")
        case let .block(block): block.text
        }
    }

    /// An edition split into files is here only as their index: it links
    /// to other files of the book ten times or more, and has fewer than a
    /// hundred words of its own for each such link.
    static func isIndexOfOtherFiles(_ read: HTMLBlocks, items: [HTMLBlocks.Item]) -> Bool {
        guard read.linksToOtherFiles >= 10 else { return false }
        let words = items.reduce(0) { total, item in
            if case let .block(block) = item { return total + block.wordCount } else { return total }
        }
        return words < read.linksToOtherFiles * 100
    }

    /// The heading an anchor names: the one it stands in, or the next one
    /// when no text comes between them (an anchor closing the paragraph
    /// before a heading names the heading).
    static func heading(named anchor: String, in read: HTMLBlocks) -> Int? {
        guard let index = read.anchors[anchor], let textBefore = read.textBeforeAnchor[anchor] else { return nil }
        for candidate in index..<min(read.items.count, index + 3) {
            guard case .heading = read.items[candidate] else { continue }
            if candidate == index || read.textBeforeHeading[candidate] == textBefore { return candidate }
            return nil
        }
        return nil
    }

    /// The chapter's heading straight after a division's (`Book I`, then
    /// `I.`) where the chapter's anchor stands before both and its entry
    /// names a chapter (`CHAPTER I`): the division holds the chapters, and
    /// the entry names the chapter.
    private static func chapterUnderDivision(at item: Int, naming label: String, in read: HTMLBlocks) -> Int? {
        guard read.items.indices.contains(item + 1), case let .heading(_, next) = read.items[item + 1],
              case let .heading(_, lines) = read.items[item], let division = lines.lazy.compactMap(HeadingPattern.match).first,
              division.kind <= .book, division.kind != .outermost,
              let named = HeadingPattern.match(label) ?? HeadingPattern.numberAlone(label), named.kind >= .chapter,
              let chapter = next.lazy.compactMap({ HeadingPattern.match($0) ?? HeadingPattern.numberAlone($0) }).first, chapter.kind >= .chapter
        else { return nil }
        return item + 1
    }

    /// A paragraph that reads as the contents entry does, and as a heading
    /// (`CHAPTER I.`), where the entry points, pictures alone between: an
    /// edition that sets its headings in no heading tag. The entry may
    /// leave the heading's number to a cell of its own (`I.` | `The birth
    /// of the Prince` for `Chapter I. The birth of the Prince`). One that
    /// says the entry's words and nothing else (`FOREWORD`, `NOTES`) at
    /// the anchor itself is a heading too, unless it stands under a
    /// picture: there it is the picture's caption.
    static func paragraphHeading(named anchor: String, reading label: String, in read: HTMLBlocks) -> Int? {
        let wanted = Self.words(of: label)
        guard !wanted.isEmpty, let index = read.anchors[anchor] else { return nil }
        for candidate in index..<min(read.items.count, index + 4) {
            guard case let .block(block) = read.items[candidate] else { return nil }
            if block.kind == .illustration { continue }
            // A picture's caption reads as its entry in a list of
            // illustrations too, but not as a heading.
            guard block.kind == .prose || block.kind == .lines, block.text.utf8.count <= 200 else { return nil }
            let heading = Self.words(of: block.text)
            let numberWords = heading.count - wanted.count
            let saysTheEntry = numberWords == 0 && candidate == index && !(index > 0 && Self.isPicture(read.items[index - 1]))
            guard (0...Self.mostNumberWords).contains(numberWords), heading.suffix(wanted.count).elementsEqual(wanted),
                  HeadingPattern.match(block.text) != nil || saysTheEntry
            else { return nil }
            return candidate
        }
        return nil
    }

    /// Whether a heading comes before the running text after `item` (a
    /// motto over a heading the entry does not read as): the entry's
    /// place is that heading's, not a section of its own.
    private static func headsAHeading(_ item: Int, in items: [HTMLBlocks.Item]) -> Bool {
        for next in items[item...].prefix(mostItemsBeforeText) {
            switch next {
            case .heading: return true
            case let .block(block) where block.kind == .prose: return false
            case .block: continue
            }
        }
        return false
    }

    /// The first heading from a page's anchor on, within a page's items,
    /// that says the entry's words after its number at most, or says its
    /// number and nothing else (`CAPITOLO I` for `I.—Come l'anima …`).
    private static func heading(reading label: String, onPage anchor: String, in read: HTMLBlocks) -> Int? {
        let wanted = words(of: label)
        guard let start = read.anchors[anchor], wanted.contains(where: { $0.contains(where: \.isLetter) }) else { return nil }
        let number = leadingNumber(of: label)
        for index in start..<min(read.items.count, start + mostItemsOnAPage) {
            guard case let .heading(_, marked) = read.items[index] else { continue }
            // Its words without its notes' marks (`M. DE SENECTERRE[209].`).
            let text = (read.headingTitles[index] ?? marked).joined(separator: " ")
            let heading = words(of: text)
            if (0...mostNumberWords).contains(heading.count - wanted.count) && heading.suffix(wanted.count).elementsEqual(wanted) { return index }
            if let number, heading.count <= mostNumberWords, let line = HeadingPattern.match(text), line.number == number, line.title == nil {
                return index
            }
        }
        return nil
    }

    /// The number an entry opens with, set off from its words (`I.—Come
    /// l'anima …`, `12. The Inn`).
    private static func leadingNumber(of label: String) -> Int? {
        let trimmed = label.trimmingWhitespace()
        let first = trimmed.prefix { $0.isLetter || $0.isNumber }
        guard !first.isEmpty, let after = trimmed.dropFirst(first.count).first, after == "." || after == "—" || after == ")" else { return nil }
        return Int(first) ?? HeadingPattern.romanValue(String(first))
    }

    /// The most items a printed page holds.
    private static let mostItemsOnAPage = 60

    /// The greatest of ascending `items` less than `item`.
    private static func last(in items: [Int], before item: Int) -> Int? {
        var (low, high) = (0, items.count)
        while low < high {
            let middle = (low + high) / 2
            if items[middle] < item { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? items[low - 1] : nil
    }

    /// The most items between an entry's anchor and its section's text.
    private static let mostItemsBeforeText = 8

    private static func isPicture(_ item: HTMLBlocks.Item) -> Bool {
        if case let .block(block) = item { return block.kind == .illustration }
        return false
    }

    /// The most words a heading's number takes before its title (`Chapter
    /// the First`).
    private static let mostNumberWords = 3

    /// The heading straight after one another entry names, when it reads
    /// as this entry does: two anchors side by side before a group's
    /// heading (`songs`, `songs1`, then THREE SONGS OF SHATTERING and
    /// `I`), or an entry linking to the one before it by mistake.
    private static func heading(after named: Int, reading label: String, in read: HTMLBlocks) -> Int? {
        let wanted = Self.words(of: label)
        guard !wanted.isEmpty else { return nil }
        for candidate in (named + 1)..<min(read.items.count, named + 3) {
            switch read.items[candidate] {
            case .heading:
                return Self.words(of: itemText(read.items[candidate])) == wanted ? candidate : nil
            case let .block(block) where block.kind == .illustration && block.text.isEmpty:
                continue
            case .block:
                return nil
            }
        }
        return nil
    }

    /// The heading an anchor before a motto names (`<a id="part1">`, a
    /// few lines of verse, then `I. THE BURIAL OF THE DEAD`): the first
    /// heading after it, when it reads as the contents entry does, or
    /// when its number and the subtitle straight under it do (`CHAPTER
    /// I.`, then `LOUISIANA.`, for the entry `LOUISIANA`).
    private static func headingAfterMotto(named anchor: String, reading label: String, in read: HTMLBlocks) -> Int? {
        let wanted = Self.words(of: label)
        guard !wanted.isEmpty, let index = read.anchors[anchor] else { return nil }
        var mottoWords = 0
        for candidate in index..<min(read.items.count, index + 8) {
            switch read.items[candidate] {
            case let .heading(_, lines):
                let heading = Self.words(of: lines.joined(separator: " "))
                if heading == wanted { return candidate }
                guard read.items.indices.contains(candidate + 1), case let .heading(_, subtitle) = read.items[candidate + 1],
                      heading.count <= Self.mostNumberWords, Self.words(of: subtitle.joined(separator: " ")) == wanted,
                      HeadingPattern.match(lines.joined(separator: " ")) != nil
                else { return nil }
                return candidate
            case let .block(block):
                mottoWords += block.wordCount
                if mottoWords > Self.mottoWords { return nil }
            }
        }
        return nil
    }

    /// The most words a motto between an anchor and its heading holds.
    private static let mottoWords = 80

    /// Letters and digits, lowercased, each run a word.
    private static func words(of text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// After a `*** START OF …` block and before an `*** END OF …` one (the
    /// older editions keep both in the markup; the newer ones in sections
    /// the walk leaves out), without the producers' credits at the front.
    static func workRange(of items: [HTMLBlocks.Item]) -> Range<Int> {
        /// The lines of an item that begin (after spaces) with a byte
        /// `opens`: only those can be a marker.
        func lines(_ item: HTMLBlocks.Item, beginning opens: (UInt8) -> Bool) -> [Substring] {
            let text: String
            switch item {
            case let .block(block): text = block.text
            case let .heading(_, lines): text = lines.joined(separator: "\n")
            }
            func begins(_ line: Substring) -> Bool { line.utf8.first { $0 != 0x20 }.map(opens) ?? false }
            // Most items are one line, read without splitting.
            guard ByteScan.contains(0x0A, in: Substring(text)) else { return begins(Substring(text)) ? [Substring(text)] : [] }
            return text.split(separator: "\n").filter(begins)
        }
        let star: (UInt8) -> Bool = { $0 == UInt8(ascii: "*") }
        let starOrE: (UInt8) -> Bool = { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "e") }
        var start = 0
        for index in items.indices.prefix(max(items.count / 2, min(items.count, 50)))
        where lines(items[index], beginning: star).contains(where: { GutenbergFrame.isStartMarker($0.trimmingWhitespace().uppercased()) }) {
            start = index + 1
            break
        }
        var end = items.count
        for index in start..<items.count where lines(items[index], beginning: starOrE).contains(where: GutenbergFrame.isEndMarker) {
            end = index
            break
        }
        var seen = 0
        while start < end, seen < 8, case let .block(block) = items[start],
              GutenbergFrame.isFrontNoise(block.text.trimmingWhitespace().lowercased()) {
            start += 1
            seen += 1
        }
        return start..<end
    }

    struct Section: Equatable {
        var item: Int
        var level: Int
        var title: String
    }

    /// A paragraph's section title from its contents entry: the entry's
    /// words, at the tag of the heading beside it.
    struct EntryTitle {
        var words: String
        var tagLevel: Int
    }

    /// A contents list's entry for a heading.
    struct ContentsEntry {
        var depth: Int
        /// The number its link alone gives the heading (`I.`).
        var number: HeadingLine?
        /// It gives the heading's page (a part's title often gives none).
        var givesPage = false
        /// Its link is in bold (a part's title, where the rest are plain).
        var isBold = false
        /// It stands in a contents printed after the text, which names a
        /// heading only where the heading reads as its entry.
        var isPrintedAtTheEnd = false
    }

    private struct Candidate {
        var item: Int
        var tagLevel: Int
        var lines: [String]
        var pattern: HeadingLine?
        /// The contents list's entry for it, if it names it.
        var entry: ContentsEntry?
        /// Ordered by tag, then by what the heading says it is.
        var rank = 0
        /// The words under it begin at its own item: a paragraph a contents
        /// entry opens is the section's text, not its heading.
        var ownWordsStart: Int { titlesItsParagraph ? item : item + 1 }
        var titlesItsParagraph = false

        var title: String { SectionOutline.title(lines) }
        var targeted: Bool { entry != nil }
        var contentsDepth: Int? { entry?.depth }

        /// What the heading says it is, as a rank (books above chapters);
        /// nil for what names no division or stands beside them all.
        var kindRank: Int? {
            guard let kind = pattern?.kind, kind != .outermost, kind != .numeral else { return nil }
            return kind.rawValue
        }
    }

    /// The headings that open sections, and their levels from 0.
    static func outline(_ items: [HTMLBlocks.Item], contentsEntries: [Int: ContentsEntry], titledBlocks: [Int: EntryTitle] = [:],
                        groups: Set<Int> = []) -> [Section] {
        var candidates: [Candidate] = items.indices.compactMap { index in
            let heading: (tagLevel: Int, lines: [String])
            switch items[index] {
            case let .heading(tagLevel, lines):
                heading = (tagLevel, lines)
            case .block:
                // A paragraph a contents entry opens, under its words.
                guard let title = titledBlocks[index] else { return nil }
                heading = (title.tagLevel, [title.words])
            }
            let (tagLevel, lines) = heading
            let pattern = lines.lazy.compactMap(readHeading).first
                ?? lines.first.flatMap { HeadingPattern.numberAlone($0) ?? HeadingPattern.numberedTitle($0) }
            return Candidate(item: index, tagLevel: tagLevel, lines: lines, pattern: pattern, entry: contentsEntries[index],
                             titlesItsParagraph: titledBlocks[index] != nil)
        }
        withoutNumeralsInAnAlphabet(&candidates)
        let divisions = HeadingLine.Kind.divisionsInOrder(of: candidates.lazy.compactMap { $0.pattern?.kind })
        for index in candidates.indices {
            if let kind = candidates[index].pattern?.kind, let read = divisions[kind] { candidates[index].pattern?.kind = read }
        }
        var words = [Int](repeating: 0, count: items.count + 1)
        for (index, item) in items.enumerated() {
            if case let .block(block) = item { words[index + 1] = words[index] + block.wordCount } else { words[index + 1] = words[index] }
        }
        // Subtitles first: a chapter's title in a tag of its own names the
        // chapter even where the contents list links to the number alone.
        candidates = withoutSubtitles(candidates, words: words)
        let targeted = candidates.filter(\.targeted)
        // A list whose first section opens past half the book's words (its
        // chapters listed by page, only the errata and the transcriber's
        // note by link) names the back matter alone: the headings outline
        // the book.
        let byContents = targeted.count >= 2 && words[targeted[0].item] * 2 <= words[items.count]
        if byContents, let firstTargeted = targeted.first?.item, let deepestTag = targeted.map(\.tagLevel).max() {
            // The book's own contents list names its sections; chapters it
            // leaves out under the parts it lists are still sections, and
            // so is one its list misses among others of its tag and kind.
            let listedKinds = Set(targeted.compactMap { candidate in candidate.pattern.map { "\(candidate.tagLevel) \($0.kind)" } })
            // A contents printed after the text misses some headings of
            // the tags it names (`Note III.—Sources de l'histoire` for
            // NOTE III.—LES SOURCES DE L'HISTOIRE): they are sections too.
            let tagsListedAtTheEnd = Set(targeted.filter { $0.entry?.isPrintedAtTheEnd == true }.map(\.tagLevel))
            candidates = candidates.filter { candidate in
                guard !candidate.targeted, !groups.contains(candidate.item) else { return true }
                guard candidate.item > firstTargeted else { return false }
                if tagsListedAtTheEnd.contains(candidate.tagLevel) { return true }
                guard let kind = candidate.pattern?.kind else { return false }
                return candidate.tagLevel > deepestTag || listedKinds.contains("\(candidate.tagLevel) \(kind)")
            }
        }
        if byContents {
            rankByContents(&candidates, words: words, groups: groups)
        } else {
            rank(&candidates)
        }
        candidates = withoutEmptyHeadings(candidates, words: words, end: items.count)
        candidates = withoutLoneTitle(candidates, words: words)
        if !byContents { candidates = withoutTitlePage(candidates, words: words) }
        if !byContents { besideTheFirstDivision(&candidates, words: words, end: items.count) }
        let ranks = Array(Set(candidates.map(\.rank))).sorted()
        return candidates.map { candidate in
            // Six levels at most, as six heading tags give.
            Section(item: candidate.item, level: min(5, ranks.firstIndex(of: candidate.rank) ?? 0), title: candidate.title)
        }
    }

    /// A way back to the top (`Goto Top`) or a letter of an index's
    /// alphabet (`A` linking to `Adagio, the, 62.`) moves the reader about;
    /// it names no section. A dictionary's `A` linking to its heading `A`
    /// does, and so does a numeral's letter (`I` linking to `CHAPTER I.`)
    /// between entries that are no letters.
    private static func isNavigation(at index: Int, of labels: [String], to item: HTMLBlocks.Item) -> Bool {
        guard labels.indices.contains(index) else { return false }
        if HTMLBlocks.isWayBackToContents(labels[index]) { return true }
        let labelWords = words(of: labels[index])
        func isLetters(_ words: [String]) -> Bool { !words.isEmpty && words.allSatisfy { $0.count == 1 && $0.allSatisfy(\.isLetter) } }
        guard isLetters(labelWords) else { return false }
        let numeralLetters: Set<String> = ["i", "v", "x", "l", "c", "d", "m"]
        let besideLetters = [index - 1, index + 1].contains { labels.indices.contains($0) && isLetters(words(of: labels[$0])) }
        guard besideLetters || !labelWords.allSatisfy(numeralLetters.contains) else { return false }
        return words(of: itemText(item)) != labelWords
    }

    /// A numeral alone (`I.`, `XII`): a contents entry's link that numbers
    /// the heading it points to. A bare figure (`23`) is as often its page.
    private static func numberAlone(_ label: String) -> HeadingLine? {
        guard let pattern = HeadingPattern.match(label), pattern.kind == .numeral, pattern.title == nil,
              label.contains(where: { !$0.isNumber && !$0.isWhitespace })
        else { return nil }
        return pattern
    }

    /// The number a contents entry gives a heading that ends with the rest
    /// of its words (`1. Introduction` over INTRODUCTION., `6. The
    /// battalion` over SCHOOL OF THE BATTALION.).
    private static func number(of label: String, over item: HTMLBlocks.Item) -> HeadingLine? {
        let parts = label.trimmingWhitespace().split(separator: " ", maxSplits: 1)
        guard item.isHeading, parts.count == 2, parts[0].hasSuffix("."),
              let number = numberAlone(String(parts[0])) ?? HeadingPattern.numberAlone(parts[0]),
              case let title = words(of: String(parts[1])), !title.isEmpty,
              words(of: itemText(item)).reversed().starts(with: title.reversed())
        else { return nil }
        return number
    }

    /// What a heading's line says it is. Markup says the line is a
    /// heading, so a long one (`CHAPTER XXXVI. THE CHIEF FEATURES OF
    /// WHICH …`, 180 characters) is read by its first words.
    private static func readHeading(_ line: String) -> HeadingLine? {
        guard line.count > HeadingPattern.longest else { return HeadingPattern.match(line) }
        let start = line.prefix(HeadingPattern.longest)
        return HeadingPattern.match(start.lastIndex(of: " ").map { start[..<$0] } ?? start)
    }

    /// A letter among letters in their order (a glossary's `C` and `D`
    /// between `B` and `E`, or `D` after Spanish `CH`) is a letter, not a
    /// roman numeral, whether its heading or its contents entry says it: it
    /// numbers nothing, and the letters after it are not its parts.
    private static func withoutNumeralsInAnAlphabet(_ candidates: inout [Candidate]) {
        func letter(_ candidate: Candidate) -> String? {
            guard candidate.lines.count == 1 else { return nil }
            var line = Substring(candidate.lines[0].trimmingWhitespace())
            if line.last == "." { line.removeLast() }
            guard (1...2).contains(line.count), line.allSatisfy({ $0.isLetter && $0.isUppercase }) else { return nil }
            // A pair that is no numeral is a letter of its own (`CH`, `LL`).
            return line.count == 1 || HeadingPattern.romanValue(String(line)) == nil ? String(line) : nil
        }
        let letters = candidates.map(letter)
        for index in candidates.indices where candidates[index].pattern != nil || candidates[index].entry?.number != nil {
            guard let this = letters[index], index > 0, index + 1 < candidates.count,
                  let before = letters[index - 1], let after = letters[index + 1], before < this, this < after
            else { continue }
            candidates[index].pattern = nil
            candidates[index].entry?.number = nil
        }
    }

    /// A deeper heading that always comes straight after a heading above
    /// it, with no text between (a subtitle, a motto), divides nothing: it
    /// stays text, and names a bare `CHAPTER 1` above it; so does any one
    /// straight after a bare `CHAPTER 1` or `SCENE I.` (a title or a
    /// setting the patterns do not read), unless a deeper one follows it.
    private static func withoutSubtitles(_ candidates: [Candidate], words: [Int]) -> [Candidate] {
        var followsParent = Set<Int>()
        /// Straight after a bare `CHAPTER 1` or `SCENE I.`.
        var namesTheOneAbove = Set<Int>()
        var byTag: [Int: Int] = [:]
        for (index, candidate) in candidates.enumerated() {
            byTag[candidate.tagLevel, default: 0] += 1
            // What says it is a division (BOOK I, CHAPTER 2), and what has
            // headings under it, is no subtitle.
            guard index > 0, !candidate.targeted, candidate.pattern == nil else { continue }
            let parent = candidates[index - 1]
            guard words[candidate.item] == words[parent.ownWordsStart] else { continue }
            let holdsDeeper = index + 1 < candidates.count && candidates[index + 1].tagLevel > candidate.tagLevel
            // A bare `CHAPTER I` is named by the heading straight after it,
            // in whatever tag (`<h4>CHAPTER I</h4><h3>In Chancery</h3>`,
            // `<h3>CHAPTER I</h3><h4>EARLY PROMISE</h4>`), unless others
            // of a deeper one's tag follow it under the same heading (the
            // scenes of an act the patterns do not read). An epilogue needs
            // no name: a deeper heading after it is its motto.
            let deeperAlone = !holdsDeeper && parent.pattern?.kind != .outermost
                && !candidates[(index + 1)...].prefix { $0.tagLevel > parent.tagLevel }.contains { $0.tagLevel == candidate.tagLevel }
            if parent.pattern != nil, parent.pattern?.title == nil, parent.tagLevel >= candidate.tagLevel || deeperAlone {
                namesTheOneAbove.insert(index)
                continue
            }
            if holdsDeeper { continue }
            if parent.tagLevel < candidate.tagLevel { followsParent.insert(index) }
        }
        var subtitleTags = Set<Int>()
        for (tag, count) in byTag {
            let following = followsParent.filter { candidates[$0].tagLevel == tag }.count
            if following == count { subtitleTags.insert(tag) }
        }
        guard !subtitleTags.isEmpty || !namesTheOneAbove.isEmpty else { return candidates }
        var result: [Candidate] = []
        for (index, candidate) in candidates.enumerated() {
            if (followsParent.contains(index) && subtitleTags.contains(candidate.tagLevel)) || namesTheOneAbove.contains(index) {
                if var parent = result.last, parent.pattern != nil, parent.pattern?.title == nil, parent.lines.count == 1 {
                    parent.lines += candidate.lines
                    result[result.count - 1] = parent
                }
                continue
            }
            result.append(candidate)
        }
        return result
    }

    /// The tag first; among headings of one tag, what their words say
    /// (books above chapters, an epilogue beside the books); a heading the
    /// patterns do not read takes the highest kind of its tag.
    private static func rank(_ candidates: inout [Candidate]) {
        var kindsByTag: [Int: Set<HeadingLine.Kind>] = [:]
        for candidate in candidates {
            if let kind = candidate.pattern?.kind, kind != .outermost, kind != .numeral {
                kindsByTag[candidate.tagLevel, default: []].insert(kind)
            }
        }
        for index in candidates.indices {
            let candidate = candidates[index]
            let kinds = kindsByTag[candidate.tagLevel] ?? []
            let top = kinds.min()?.rawValue ?? 0
            var kindRank = top
            if let kind = candidate.pattern?.kind, kind != .outermost, kind != .numeral { kindRank = kind.rawValue }
            // A numeral alone numbers chapters under the parts of its tag
            // (PART I, then I, II, III in the same `h3`).
            if candidate.pattern?.kind == .numeral { kindRank = max(top, HeadingLine.Kind.chapter.rawValue) }
            candidates[index].rank = candidate.tagLevel * 16 + kindRank
        }
    }

    /// Where the book's contents list names the sections, its nesting and
    /// what its headings say (books above chapters) give their levels, not
    /// the tags they happen to be in; a prologue or an epilogue stands
    /// beside the outermost divisions, a preface beside the numbered entry
    /// next to it. A heading the list leaves out under one it names
    /// (chapters under listed books) takes the rank of a listed one of its
    /// tag and kind, else stands below the listed one above it. A heading
    /// the list prints as a row without a link (`groups`) holds the
    /// entries after it: above the next one listed, by as many ranks as
    /// group headings stand in deeper tags than its own.
    private static func rankByContents(_ candidates: inout [Candidate], words: [Int], groups: Set<Int>) {
        /// What the heading says it is, else the number its entry gives
        /// it (`I.` over `VANCOUVER.`, `1. Introduction` over an
        /// INTRODUCTION. numbered among chapters); a numeral alone (`I.
        /// THE EVE OF THE WAR`) numbers chapters.
        func said(_ candidate: Candidate) -> HeadingLine? {
            candidate.pattern?.kind == .outermost ? candidate.entry?.number ?? candidate.pattern : candidate.pattern ?? candidate.entry?.number
        }
        let listed = candidates.indices.filter { candidates[$0].targeted }
        let depths = listed.map { candidates[$0].contentsDepth ?? 0 }
        let partsOfChapters = numeralsUnderNamedChapters(listed.map { said(candidates[$0]) }, depths: depths)
            .reduce(into: Set<Int>()) { $0.insert(candidates[listed[$1]].item) }
        func kindRank(_ candidate: Candidate) -> Int? {
            guard let kind = said(candidate)?.kind, kind != .outermost else { return nil }
            if partsOfChapters.contains(candidate.item) { return HeadingLine.Kind.scene.rawValue }
            return kind == .numeral ? HeadingLine.Kind.chapter.rawValue : kind.rawValue
        }
        func isUnnumbered(_ candidate: Candidate) -> Bool { candidate.pattern == nil && candidate.entry?.number == nil }
        /// Depth first, then kind; odd ranks fall between two kinds.
        func rank(_ depth: Int, _ kind: Int) -> Int { depth * 32 + kind * 2 }
        /// Straight before the next listed entry at its depth, with fewer
        /// than `most` words of its own before it.
        func straightBeforeNext(_ position: Int, ownWordsUnder most: Int) -> Bool {
            let candidate = candidates[listed[position]]
            return position + 1 < listed.count && listed[position + 1] == listed[position] + 1 && depths[position + 1] == depths[position]
                && words[candidates[listed[position + 1]].item] - words[candidate.ownWordsStart] < most
        }
        // Unnumbered entries with no words of their own, each straight
        // before a numbered one at its depth, hold what follows them
        // (INFERNO, PURGATORIO above their cantos); one alone is a title
        // (IVANHOE. before chapter I).
        var holding = Set(listed.indices.filter { position in
            isUnnumbered(candidates[listed[position]]) && straightBeforeNext(position, ownWordsUnder: emptyWords)
                && kindRank(candidates[listed[position] + 1]) != nil
        })
        // So do unnumbered entries that give no page (an epilogue too),
        // each straight before one that gives its page, in a list whose
        // entries mostly give theirs: a verse collection's parts, a
        // half-title and its motto apiece.
        let givingPage = listed.map { candidates[$0].entry?.givesPage == true }
        if givingPage.count(where: { $0 }) * 2 >= listed.count {
            holding.formUnion(listed.indices.filter { position in
                let candidate = candidates[listed[position]]
                let unnumbered = candidate.entry?.number == nil && (candidate.pattern == nil || candidate.pattern?.kind == .outermost)
                return unnumbered && straightBeforeNext(position, ownWordsUnder: halfTitleWords) && !givingPage[position] && givingPage[position + 1]
            })
        }
        // So do unnumbered entries in bold, each straight before one in
        // plain type at its depth, where most are plain: a collection's
        // series above their poems.
        let bold = listed.map { candidates[$0].entry?.isBold == true }
        var boldAtDepth: [Int: Int] = [:], plainAtDepth: [Int: Int] = [:]
        for (position, isBold) in bold.enumerated() {
            if isBold { boldAtDepth[depths[position], default: 0] += 1 } else { plainAtDepth[depths[position], default: 0] += 1 }
        }
        holding.formUnion(listed.indices.filter { position in
            isUnnumbered(candidates[listed[position]]) && straightBeforeNext(position, ownWordsUnder: halfTitleWords) && bold[position] && !bold[position + 1]
                && (boldAtDepth[depths[position]] ?? 0) < (plainAtDepth[depths[position]] ?? 0)
        })
        if holding.count < 2 { holding = [] }
        let chapter = HeadingLine.Kind.chapter.rawValue
        for position in holding {
            candidates[listed[position]].rank = rank(depths[position], kindRank(candidates[listed[position + 1]]) ?? chapter) - 1
        }
        /// The kind of the nearest listed entry at `depth` from `start` on
        /// in `steps`, past deeper ones, before any shallower one.
        func kindBeside(_ start: Int, by step: Int, depth: Int) -> Int? {
            var position = start
            while position >= 0, position < listed.count, depths[position] >= depth {
                if depths[position] == depth, let kind = kindRank(candidates[listed[position]]) { return kind }
                position += step
            }
            return nil
        }
        // A prologue, an epilogue, an introduction stand beside the
        // outermost divisions listed at their depth, or what holds them.
        var outermostRank: [Int: Int] = [:]
        for (position, index) in listed.enumerated() {
            let depth = depths[position]
            guard let outer = holding.contains(position) ? candidates[index].rank : kindRank(candidates[index]).map({ rank(depth, $0) })
            else { continue }
            outermostRank[depth] = min(outer, outermostRank[depth] ?? outer)
        }
        // One or two unnumbered entries (a preface) take the kind of the
        // numbered one beside them at their depth, the next else the one
        // before, or stand under the one before when their headings are in
        // a deeper tag; a longer run of them numbers nothing, and stands
        // as chapters.
        var runStart = 0
        while runStart < listed.count {
            let depth = depths[runStart]
            let candidate = candidates[listed[runStart]]
            if holding.contains(runStart) {
                runStart += 1
                continue
            }
            if let kind = kindRank(candidate) {
                candidates[listed[runStart]].rank = rank(depth, kind)
                runStart += 1
                continue
            }
            if candidate.pattern?.kind == .outermost {
                candidates[listed[runStart]].rank = outermostRank[depth] ?? rank(depth, chapter)
                runStart += 1
                continue
            }
            var runEnd = runStart
            while runEnd < listed.count, depths[runEnd] == depth, isUnnumbered(candidates[listed[runEnd]]), !holding.contains(runEnd) { runEnd += 1 }
            runEnd = max(runEnd, runStart + 1)
            let run = runStart..<runEnd
            let before = runStart > 0 && depths[runStart - 1] == depth ? candidates[listed[runStart - 1]] : nil
            if let before, kindRank(before) != nil, run.allSatisfy({ candidates[listed[$0]].tagLevel > before.tagLevel }) {
                // Under a division it numbers; those in a deeper tag than
                // the run's first under those (`d) Typische Träume`, then
                // `α)`, `β)`). An introduction in a flat list stands
                // beside what follows, whatever its tag.
                let shallowest = run.map { candidates[listed[$0]].tagLevel }.min() ?? 0
                for position in run { candidates[listed[position]].rank = before.rank + 1 + candidates[listed[position]].tagLevel - shallowest }
            } else if let before, let kind = kindRank(before), kind >= chapter, run.count > 2, runEnd < listed.count,
                      depths[runEnd] == depth, let after = kindRank(candidates[listed[runEnd]]), after >= chapter, after <= kind {
                // A longer run between two chapters is the chapter's parts
                // (a treatise's topics under CHAPTER IV); after a chapter's
                // numbered part and before the next chapter, it stands
                // with the numbered parts.
                let partsKind = after == kind ? kind + 1 : kind
                for position in run { candidates[listed[position]].rank = rank(depth, partsKind) }
            } else {
                let beside = kindBeside(runEnd, by: 1, depth: depth) ?? kindBeside(runStart - 1, by: -1, depth: depth)
                let kind = run.count <= 2 ? beside ?? chapter : chapter
                for position in run { candidates[listed[position]].rank = rank(depth, kind) }
            }
            runStart = runEnd
        }
        var listedRanks: [String: Int] = [:]
        for candidate in candidates where candidate.targeted {
            if let kind = candidate.kindRank, listedRanks["\(candidate.tagLevel) \(kind)"] == nil {
                listedRanks["\(candidate.tagLevel) \(kind)"] = candidate.rank
            }
            // A contents printed at the end ranks the headings of a tag it
            // names and misses as the first it names.
            if candidate.entry?.isPrintedAtTheEnd == true, listedRanks["\(candidate.tagLevel) at the end"] == nil {
                listedRanks["\(candidate.tagLevel) at the end"] = candidate.rank
            }
        }
        // Groups of one kind stand alike whatever their tags (`Book I` in
        // an `h3`, `Book II` in an `h2`), in the shallowest of them.
        let grouped = candidates.filter { groups.contains($0.item) }
        var kindTags: [Int: Int] = [:]
        for group in grouped { if let kind = group.kindRank { kindTags[kind] = min(group.tagLevel, kindTags[kind] ?? group.tagLevel) } }
        func groupTag(_ group: Candidate) -> Int { group.kindRank.flatMap { kindTags[$0] } ?? group.tagLevel }
        let groupTags = Set(grouped.map(groupTag))
        var listedNext: Candidate?
        for index in candidates.indices.reversed() {
            if candidates[index].targeted {
                listedNext = candidates[index]
            } else if groups.contains(candidates[index].item), let next = listedNext {
                let tag = groupTag(candidates[index])
                candidates[index].rank = next.rank - 1 - groupTags.count { $0 > tag }
            }
        }
        var listedAbove: Candidate?
        for index in candidates.indices {
            let candidate = candidates[index]
            if candidate.targeted {
                listedAbove = candidate
                continue
            }
            if groups.contains(candidate.item) { continue }
            if let kind = candidate.kindRank, let rank = listedRanks["\(candidate.tagLevel) \(kind)"] {
                candidates[index].rank = rank
            } else if candidate.kindRank == nil, let rank = listedRanks["\(candidate.tagLevel) at the end"] {
                candidates[index].rank = rank
            } else if let parent = listedAbove {
                let depth = parent.contentsDepth ?? 0
                if let kind = candidate.kindRank, let parentKind = parent.kindRank, kind > parentKind {
                    candidates[index].rank = rank(depth, kind)
                } else {
                    candidates[index].rank = parent.rank + 1
                }
            }
        }
    }

    /// Numerals counted afresh from one under a chapter its word names, up
    /// to the next such chapter at its depth, are that chapter's parts, not
    /// chapters (a treatise's `I.`, `2.`, `3.` under CHAPTER XVIII until
    /// CHAPTER XIX); numerals after the last chapter (its notes, I to VI)
    /// or after a division of another kind stay chapters. The positions
    /// of those parts, among entries that say what they are.
    private static func numeralsUnderNamedChapters(_ said: [HeadingLine?], depths: [Int]) -> [Int] {
        func namesChapter(_ position: Int) -> Bool { said[position]?.kind == .chapter }
        var parts: [Int] = []
        for chapter in said.indices where namesChapter(chapter) {
            var under: [Int] = []
            var position = chapter + 1
            while position < said.count, depths[position] >= depths[chapter], !(depths[position] == depths[chapter] && namesChapter(position)) {
                if depths[position] == depths[chapter], let heading = said[position] {
                    guard heading.kind == .numeral, !under.isEmpty || heading.number == 1 else { break }
                    under.append(position)
                }
                position += 1
            }
            if position < said.count, depths[position] == depths[chapter], namesChapter(position) { parts += under }
        }
        return parts
    }

    /// Front matter in a larger tag than the book's divisions (a PREFACE
    /// in `h1`, DRAMATIS PERSONAE in `h2` above acts in `h3`) stands beside
    /// the first division, not above them all: a heading before the first
    /// one the patterns read, with text of its own, takes that one's rank.
    private static func besideTheFirstDivision(_ candidates: inout [Candidate], words: [Int], end: Int) {
        guard let first = candidates.firstIndex(where: { $0.pattern != nil }) else { return }
        for index in 0..<first where candidates[index].rank < candidates[first].rank {
            let next = index + 1 < candidates.count ? candidates[index + 1].item : end
            if words[next] - words[candidates[index].ownWordsStart] >= emptyWords { candidates[index].rank = candidates[first].rank }
        }
    }

    /// Walks back from the end: a heading is kept when it has words of its
    /// own before the next kept heading (any, for one the contents list
    /// names), or that heading is under it.
    private static func withoutEmptyHeadings(_ candidates: [Candidate], words: [Int], end: Int) -> [Candidate] {
        var kept: [Candidate] = []
        var nextItem = end
        var nextRank: Int?
        for candidate in candidates.reversed() {
            let own = words[nextItem] - words[candidate.ownWordsStart]
            let isParent = nextRank.map { $0 > candidate.rank } ?? false
            // What the book's contents list names needs only some words.
            guard own >= (candidate.targeted ? 1 : emptyWords) || isParent else { continue }
            kept.append(candidate)
            nextItem = candidate.item
            nextRank = candidate.rank
        }
        return kept.reversed()
    }

    /// A title page set in headings, each line in a smaller tag than the
    /// last (the author, the publisher, the printer's notice), divides
    /// nothing: a heading at the front with no words of its own, naming no
    /// division, whose one part is the next heading, is no section.
    private static func withoutTitlePage(_ candidates: [Candidate], words: [Int]) -> [Candidate] {
        var result = candidates[...]
        while let first = result.first, first.pattern == nil, let second = result.dropFirst().first,
              words[second.item] - words[first.ownWordsStart] < emptyWords {
            let parts = result.dropFirst().prefix { $0.rank > first.rank }
            guard let top = parts.map(\.rank).min(), parts.count(where: { $0.rank == top }) == 1 else { break }
            result = result.dropFirst()
        }
        return Array(result)
    }

    /// The book's title at the top of the markup, above every other
    /// heading and alone at its level, divides nothing (unless the
    /// contents list names it); nor does a line of the title page under
    /// it that is alone in the same way, naming no division and with no
    /// words of its own (the author's name over PART I and PART II).
    private static func withoutLoneTitle(_ candidates: [Candidate], words: [Int]) -> [Candidate] {
        // Whether each stands above every heading after it, alone: one
        // pass, however many lines the title page has.
        var aboveTheRest = [Bool](repeating: false, count: candidates.count)
        var lowestAfter = Int.max
        for index in candidates.indices.reversed() {
            aboveTheRest[index] = candidates[index].rank < lowestAfter
            lowestAfter = min(lowestAfter, candidates[index].rank)
        }
        var start = 0
        while start + 1 < candidates.count, !candidates[start].targeted, aboveTheRest[start],
              start == 0 || (candidates[start].pattern == nil
                  && words[candidates[start + 1].item] - words[candidates[start].ownWordsStart] < emptyWords) {
            start += 1
        }
        return Array(candidates[start...])
    }
}
