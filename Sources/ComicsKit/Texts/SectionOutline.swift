/// Finds a work's real headings among its paragraphs and nests them.
///
/// A heading is a short paragraph (or the last line of an illustration's
/// caption) that `HeadingPattern` reads. The contents list at the front
/// repeats the headings, so a heading with (almost) nothing under it before
/// the next one at its level or above, or one that a later heading repeats
/// with hardly any text of its own, is part of a contents list and stays
/// text. The contents list then names headings no pattern knows
/// (`ETYMOLOGY.`): a later line alone that reads the same opens a section
/// too. Numerals alone count only in sequence. More than
/// `maximumSections` is no outline but a flood: the book is one section.
enum SectionOutline {
    static let maximumSections = 10_000
    /// Fewer words than this under a heading before the next at its level
    /// or above: a contents line.
    static let emptyWords = 12
    /// A heading repeated later, with fewer words than this of its own.
    static let repeatedWords = 200

    struct Candidate {
        var paragraph: Int
        var heading: HeadingLine
        /// The lines the title is made of (the heading, and a subtitle line).
        var titleLines: [String]
        /// The kinds and numbers of the headings above it (VOLUME 2, BOOK 1):
        /// CHAPTER I of another book is another chapter.
        var ancestors: [Int] = []
        var level = 0

        /// True when the title took the paragraph after the heading's.
        func hasSubtitle(in paragraphs: [TextBlocks.Paragraph]) -> Bool {
            paragraphs[paragraph].kind != .illustration && titleLines.count > paragraphs[paragraph].lines.count
        }

        var key: Key { Key(kind: heading.kind, number: heading.number, ancestors: ancestors) }
    }

    struct Key: Hashable {
        var kind: HeadingLine.Kind
        var number: Int
        var ancestors: [Int]
    }

    /// `headingLines`: each paragraph's `headingLine(of:)`, worked out
    /// beforehand on every core. `fromContents`: the text's contents list
    /// gave the sections.
    static func outline(
        _ paragraphs: [TextBlocks.Paragraph], headingLines: [HeadingLine?]
    ) -> (headings: [Int: [String]], sections: [TextSection], fromContents: Bool) {
        var candidates = found(in: paragraphs, headingLines: headingLines)
        var words = paragraphs.map { paragraph in paragraph.lines.reduce(0) { $0 + TextBlock(.prose, $1).wordCount } }
        for candidate in candidates where candidate.hasSubtitle(in: paragraphs) {
            words[candidate.paragraph + 1] = 0
        }
        let kept = keptAfterContents(candidates, words: words)
        var contentsNamed = contentsEntries(candidates, kept: kept, paragraphs: paragraphs)
        candidates = kept
        contentsNamed.removeAll { entry in candidates.contains { $0.paragraph == entry.paragraph } }
        candidates = (candidates + contentsNamed).sorted { $0.paragraph < $1.paragraph }
        var fromContents = false
        if let listed = ContentsList.outline(paragraphs, toBeat: candidates.count), listed.count > candidates.count {
            candidates = contentsCandidates(listed)
            fromContents = true
        }
        guard !candidates.isEmpty, candidates.count <= maximumSections else { return ([:], [], false) }
        assignLevels(&candidates)
        var headings: [Int: [String]] = [:]
        var sections: [TextSection] = []
        for candidate in candidates {
            headings[candidate.paragraph] = candidate.titleLines
            sections.append(TextSection(level: candidate.level, title: title(candidate.titleLines), firstBlock: candidate.paragraph))
        }
        return (headings, sections, fromContents)
    }

    /// The line of a paragraph that could be a heading (the paragraph's
    /// first, or an illustration caption's last), read as one.
    static func headingLine(of paragraph: TextBlocks.Paragraph) -> HeadingLine? {
        candidateLine(of: paragraph).flatMap { HeadingPattern.match($0) }
    }

    private static func candidateLine(of paragraph: TextBlocks.Paragraph) -> String? {
        switch paragraph.kind {
        case .illustration:
            return paragraph.captionLastLine
        case .prose, .lines:
            // A heading with its title is a few words (a contents entry
            // may wrap); a paragraph of running text that happens to begin
            // "Book I. of the Iliad …" is no heading.
            guard paragraph.lines.count <= 3,
                  paragraph.lines.count == 1 || paragraph.lines.reduce(0, { $0 + TextBlock(.prose, $1).wordCount }) <= 20
            else { return nil }
            return paragraph.lines[0]
        case .heading, .footnote:
            return nil
        }
    }

    private static func found(in paragraphs: [TextBlocks.Paragraph], headingLines: [HeadingLine?]) -> [Candidate] {
        var candidates: [Candidate] = []
        var lastNumeral = 0
        var lastChapter: (kind: HeadingLine.Kind, number: Int)?
        var parents: [HeadingLine.Kind: Int] = [:]
        let divisions = HeadingLine.Kind.divisionsInOrder(of: headingLines.lazy.compactMap { $0?.kind })
        for (index, paragraph) in paragraphs.enumerated() {
            guard var heading = headingLines[index], let line = candidateLine(of: paragraph) else { continue }
            heading.kind = divisions[heading.kind] ?? heading.kind
            if heading.kind == .numeral {
                // A titled numeral that goes on from the chapters before it
                // (`ADVENTURE VI.`, then `VII. THE ADVENTURE OF …`) is one of them.
                if heading.title != nil, let last = lastChapter, heading.number == last.number + 1 {
                    heading.kind = last.kind
                } else {
                    guard heading.number == lastNumeral + 1 || heading.number == 1 else { continue }
                    lastNumeral = heading.number
                }
            }
            if heading.kind >= .chapter, heading.kind != .numeral { lastChapter = (heading.kind, heading.number) }
            var titleLines = paragraph.kind == .illustration ? [line.trimmingWhitespace()] : paragraph.lines.map { $0.trimmingWhitespace() }
            if heading.title == nil, paragraph.lines.count == 1, index + 1 < paragraphs.count,
               let subtitle = subtitle(paragraphs[index + 1]) {
                titleLines.append(subtitle)
            }
            let ancestors = parents.filter { $0.key < heading.kind }.sorted { $0.key < $1.key }.flatMap { [$0.key.rawValue, $0.value] }
            let candidate = Candidate(paragraph: index, heading: heading, titleLines: titleLines, ancestors: ancestors)
            parents[heading.kind] = heading.number
            for kind in parents.keys where heading.kind < kind { parents[kind] = nil }
            candidates.append(candidate)
        }
        return withConsistentSubtitles(candidates, paragraphs: paragraphs)
    }

    /// Some books give every chapter a title paragraph of its own
    /// (Candide: "CHAPITRE XIV." then two lines saying what happens). When
    /// nearly every bare heading is followed by such a short paragraph, it
    /// is the title, even when it reads as a sentence.
    private static func withConsistentSubtitles(_ candidates: [Candidate], paragraphs: [TextBlocks.Paragraph]) -> [Candidate] {
        func shortParagraph(after candidate: Candidate) -> [String]? {
            let next = candidate.paragraph + 1
            guard candidate.heading.title == nil, candidate.titleLines.count == 1, next < paragraphs.count else { return nil }
            let paragraph = paragraphs[next]
            guard paragraph.kind == .prose || paragraph.kind == .lines, paragraph.lines.count <= 2,
                  paragraph.lines.reduce(0, { $0 + TextBlock(.prose, $1).wordCount }) <= 20,
                  HeadingPattern.match(paragraph.lines[0]) == nil, !HeadingPattern.isKeyword(paragraph.lines[0])
            else { return nil }
            return [paragraph.lines.map { $0.trimmingWhitespace() }.joined(separator: " ")]
        }
        let bare = candidates.filter { $0.heading.title == nil && $0.titleLines.count == 1 && $0.heading.kind != .numeral }
        let titled = bare.filter { shortParagraph(after: $0) != nil }
        guard bare.count >= 3, titled.count * 10 >= bare.count * 8 else { return candidates }
        return candidates.map { candidate in
            guard candidate.heading.kind != .numeral, let subtitle = shortParagraph(after: candidate) else { return candidate }
            var titled = candidate
            titled.titleLines += subtitle
            return titled
        }
    }

    /// The line after a bare `CHAPTER 1` that names it, when the book puts
    /// its title there: one short line, not a sentence, not a heading.
    private static func subtitle(_ paragraph: TextBlocks.Paragraph) -> String? {
        guard paragraph.kind != .illustration, paragraph.kind != .footnote, paragraph.lines.count == 1 else { return nil }
        let line = paragraph.lines[0].trimmingWhitespace()
        guard line.count <= 60, line.split(separator: " ").count <= 8, HeadingPattern.match(line) == nil,
              let first = line.unicodeScalars.first, first.properties.isUppercase,
              !line.hasSuffix(","), !line.hasSuffix(";"), !HeadingPattern.isKeyword(line)
        else { return nil }
        let sentenceEnd = line.hasSuffix(".") && line.split(separator: " ").count > 4
        return sentenceEnd || line.hasSuffix("?") || line.hasSuffix("!") || line.hasSuffix("”") || line.hasSuffix("\"") ? nil : line
    }

    /// Walks back from the end: each heading is measured against the
    /// nearest later one that is kept.
    private static func keptAfterContents(_ candidates: [Candidate], words: [Int]) -> [Candidate] {
        var kept: [Candidate] = []
        var keysAfter = Set<Key>()
        var wordsBefore = [Int](repeating: 0, count: words.count + 1)
        for (index, count) in words.enumerated() { wordsBefore[index + 1] = wordsBefore[index] + count }
        let headingParagraphs = Set(candidates.map(\.paragraph))
        var headingWordsBefore = [Int](repeating: 0, count: words.count + 1)
        for index in words.indices {
            headingWordsBefore[index + 1] = headingWordsBefore[index] + (headingParagraphs.contains(index) ? words[index] : 0)
        }
        var nextKept: Candidate?
        var end = words.count
        for candidate in candidates.reversed() {
            let from = candidate.paragraph + 1
            let bodyWords = (wordsBefore[end] - wordsBefore[from]) - (headingWordsBefore[end] - headingWordsBefore[from])
            let emptyBeforeSibling = bodyWords < emptyWords && nextKept.map { $0.heading.kind <= candidate.heading.kind } ?? false
            let repeated = bodyWords < repeatedWords && keysAfter.contains(candidate.key)
            if emptyBeforeSibling || repeated { continue }
            kept.append(candidate)
            keysAfter.insert(candidate.key)
            nextKept = candidate
            end = candidate.paragraph
        }
        return droppingListEnds(in: kept.reversed(), all: candidates)
    }

    /// The last line of a contents list has the front matter under it, not
    /// nothing: a heading that follows contents lines and is repeated later
    /// is one of them.
    private static func droppingListEnds(in kept: [Candidate], all: [Candidate]) -> [Candidate] {
        let keptParagraphs = Set(kept.map(\.paragraph))
        var laterKeys: [Key: Int] = [:]
        for candidate in kept { laterKeys[candidate.key, default: 0] += 1 }
        var result: [Candidate] = []
        var previousDropped = false
        var allIndex = 0
        for candidate in kept {
            while all[allIndex].paragraph < candidate.paragraph {
                previousDropped = !keptParagraphs.contains(all[allIndex].paragraph)
                allIndex += 1
            }
            allIndex += 1
            laterKeys[candidate.key, default: 1] -= 1
            if previousDropped && laterKeys[candidate.key, default: 0] > 0 { continue }
            result.append(candidate)
            previousDropped = false
        }
        return droppingTitlePageDivisions(result)
    }

    /// A volume or book heading that stands alone (`TOME XXXIII` on a title
    /// page) divides nothing: it stays text.
    private static func droppingTitlePageDivisions(_ candidates: [Candidate]) -> [Candidate] {
        var counts: [HeadingLine.Kind: Int] = [:]
        for candidate in candidates { counts[candidate.heading.kind, default: 0] += 1 }
        guard let lowest = counts.keys.filter({ $0 != .outermost }).max() else { return candidates }
        return candidates.filter { candidate in
            let kind = candidate.heading.kind
            return kind == .outermost || kind == lowest || counts[kind, default: 0] > 1
        }
    }

    /// Headings only the contents list names: its other lines, found
    /// again later alone in a paragraph, in order.
    private static func contentsEntries(_ all: [Candidate], kept: [Candidate], paragraphs: [TextBlocks.Paragraph]) -> [Candidate] {
        guard let firstKept = kept.first?.paragraph else { return [] }
        let keptParagraphs = Set(kept.map(\.paragraph))
        let dropped = all.filter { !keptParagraphs.contains($0.paragraph) && $0.paragraph < firstKept }
        guard let firstDropped = dropped.first?.paragraph, let lastDropped = dropped.last?.paragraph else { return [] }
        var start = firstDropped
        for index in stride(from: firstDropped - 1, through: max(0, firstDropped - 40), by: -1) {
            if ContentsList.isContentsTitle(paragraphs[index]) {
                start = index + 1
                break
            }
        }
        let droppedParagraphs = Set(dropped.map(\.paragraph))
        var entries: [(key: String, at: Int)] = []
        for index in start...lastDropped where !droppedParagraphs.contains(index) && paragraphs[index].lines.count == 1 {
            let key = comparable(paragraphs[index].lines[0])
            if !key.isEmpty && entries.count < 200 { entries.append((key, index)) }
        }
        guard !entries.isEmpty else { return [] }
        let wanted = Set(entries.map(\.key))
        var alone: [String: [Int]] = [:]
        for index in (lastDropped + 1)..<paragraphs.count
        where paragraphs[index].lines.count == 1 && paragraphs[index].kind != .illustration
            && paragraphs[index].lines[0].utf8.count <= HeadingPattern.longest {
            let key = comparable(paragraphs[index].lines[0])
            if wanted.contains(key) { alone[key, default: []].append(index) }
        }
        var found: [Candidate] = []
        var searchFrom = lastDropped + 1
        for entry in entries {
            guard let index = alone[entry.key]?.first(where: { $0 >= searchFrom }) else { continue }
            let listedNext = dropped.first { $0.paragraph > entry.at }?.heading.kind ?? .chapter
            let line = paragraphs[index].lines[0].trimmingWhitespace()
            found.append(Candidate(paragraph: index, heading: HeadingLine(kind: listedNext, number: 0, title: nil), titleLines: [line]))
            searchFrom = index + 1
        }
        return found
    }

    /// The book's own contents list, found in the body, as headings: levels
    /// from the list's indentation where it has more than one, else from
    /// what the headings say.
    private static func contentsCandidates(_ listed: [ContentsList.Found]) -> [Candidate] {
        let indents = Array(Set(listed.map(\.indent))).sorted()
        let kinds: [HeadingLine.Kind] = [.volume, .book, .chapter]
        return listed.map { entry in
            var kind = HeadingPattern.match(entry.titleLines[0])?.kind ?? .chapter
            if indents.count > 1, let rank = indents.firstIndex(of: entry.indent) {
                kind = kinds[max(0, kinds.count - indents.count) + min(rank, kinds.count - 1)]
            }
            return Candidate(paragraph: entry.paragraph, heading: HeadingLine(kind: kind, number: 0, title: nil), titleLines: entry.titleLines)
        }
    }

    /// Letters and digits, lower-cased: `EXTRACTS (Supplied by …).` and
    /// `EXTRACTS. (Supplied by …).` read the same.
    static func comparable(_ line: String) -> String {
        String(line.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// Levels by kind, among the kinds the book uses: a book of chapters
    /// alone has them at 0; War and Peace has books at 0, chapters at 1.
    /// Prologues and epilogues stand at 0; headings found through the
    /// contents list take the level of the heading listed after them.
    private static func assignLevels(_ candidates: inout [Candidate]) {
        let kinds = Set(candidates.map(\.heading.kind)).filter { $0 != .outermost }.sorted()
        for index in candidates.indices {
            let kind = candidates[index].heading.kind
            candidates[index].level = kind == .outermost ? 0 : kinds.firstIndex(of: kind) ?? 0
        }
    }

    static func title(_ lines: [String]) -> String {
        var title = ""
        for line in lines {
            let words = line.split(separator: " ").joined(separator: " ")
            if title.isEmpty {
                title = words
            } else {
                title += (title.last.map { ".:;!?".contains($0) } ?? false) ? " \(words)" : ". \(words)"
            }
        }
        return UpstreamText.capped(title, 200)
    }
}
