import BrowseCore
import ComicsKit
import struct FoundationEssentials.Date

/// A state as the lines of a frame, top to bottom, each at most `columns`
/// wide (wide characters counted as two, long text cut with "…"). Pure, so
/// what a person would see is tested without a terminal.
enum BrowseView {
    static func frame(_ state: BrowseState, now: Date) -> [BrowseLine] {
        let height = state.listHeight
        var lines: [BrowseLine]
        switch state.visible {
        case let .list(list): lines = rows(list, height: height, columns: state.columns, freshness: state.freshness(of: list.listing.window?.source))
        case let .detail(detail): lines = detailLines(detail, height: height)
        case let .reader(reader):
            lines = readerLines(reader, height: height, columns: state.columns, theme: state.colorForbidden ? .terminal : state.readerTheme)
        }
        if state.showsHelp { lines = Array(BrowseHelp.lines(state).dropFirst(state.helpTop)) }
        lines += Array(repeating: BrowseLine(text: ""), count: max(0, height - lines.count))
        lines = lines.prefix(height).map { BrowseLine(text: fit($0.text, state.columns), style: $0.style, colors: $0.colors) }
        return lines + [BrowseLine(text: fit(status(state, now: now), state.columns), style: .status)]
    }

    /// The page: the lines from the top, in a column centred on the screen.
    private static func readerLines(_ reader: BrowseReader, height: Int, columns: Int, theme: ReaderTheme) -> [BrowseLine] {
        switch reader.status {
        case .opening: return [BrowseLine(text: "  opening \(reader.ref)…", style: .dim)]
        case let .downloading(bytes, expected):
            var progress = ""
            if bytes > 0 {
                progress = " " + ByteCount.describe(bytes)
                if let expected, expected > 0 { progress += " of \(ByteCount.describe(expected)) (\(min(100, bytes * 100 / expected))%)" }
            }
            return [BrowseLine(text: "  downloading the text of \(reader.ref)…\(progress) (Esc cancels)", style: .dim)]
        case let .failed(reason):
            return [BrowseLine(text: "  " + TerminalText.sanitize(reason, singleLine: true)), BrowseLine(text: ""),
                    BrowseLine(text: "  r tries again, q leaves", style: .dim)]
        case .ready: break
        }
        if let contents = reader.contents, let outline = reader.map?.outline {
            return contentsLines(outline, contents, height: height, columns: columns)
        }
        if let marks = reader.marks { return bookmarkLines(reader.listedMarks, marks, notes: reader.listsNotes, height: height) }
        if reader.map?.blockCount == 0 {
            return [BrowseLine(text: "  nothing to read in \(reader.ref) once its header and licence are cut", style: .dim)]
        }
        guard let passage = reader.passage, passage.width == reader.column(for: columns) else {
            return [BrowseLine(text: "  …", style: .dim)]
        }
        let colors = theme.colors
        if let full = reader.fullScreenPicture(columns: columns, height: height) {
            let indent = max(0, (columns - full.columns) / 2)
            return (0..<full.rows).map { row in pictureRow(reader.pictures[full], ReaderPictureRow(key: full, row: row), indent: indent, colors: colors) }
        }
        let margin = String(repeating: " ", count: max(0, (columns - passage.width) / 2))
        let matching = Set(reader.search?.blocks ?? [])
        // Every row of the page in the theme's background, blank ones too.
        let blank = BrowseRun(text: String(repeating: " ", count: columns), foreground: colors.text, background: colors.background)
        let noted = Set(reader.notes.map(\.position.block))
        var marks: [Int: [Range<Int>]] = [:]
        for mark in reader.marksInView(height: height) where mark != reader.selectedMark { marks[mark.line, default: []].append(mark.range) }
        var lines = passage.lines.enumerated().dropFirst(reader.topLine).prefix(height).map { index, line -> BrowseLine in
            if let picture = line.picture {
                let indent = margin.count + max(0, (passage.width - picture.key.columns) / 2)
                var drawn = pictureRow(reader.pictures[picture.key], picture, indent: indent, colors: colors)
                let used = DisplayWidth.of(drawn.text)
                if used < columns, var runs = drawn.colors {
                    runs.append(BrowseRun(text: String(repeating: " ", count: columns - used), foreground: colors.text, background: colors.background))
                    drawn = BrowseLine(text: drawn.text, colors: runs)
                }
                return drawn
            }
            var found = matching.contains(line.block) ? reader.search?.terms?.matches(in: line.text) ?? [] : []
            if let selected = reader.selectedMark, selected.line == index { found.append(selected.range) }
            // A paragraph with a note: a mark in the margin by its first line.
            let hasNote = line.offset == 0 && !line.text.isEmpty && noted.contains(line.block) && margin.count >= 2
            let left = hasNote ? String(margin.dropLast(2)) + "✎ " : margin
            var runs = [BrowseRun(text: left, foreground: hasNote ? colors.dim : colors.text, background: colors.background)]
                + highlighted(line.runs, found, marked: marks[index] ?? [], colors: colors)
            let used = DisplayWidth.of(margin + line.text)
            if used < columns { runs.append(BrowseRun(text: String(repeating: " ", count: columns - used), foreground: colors.text, background: colors.background)) }
            return BrowseLine(text: margin + line.text, colors: runs)
        }
        if theme != .terminal {
            lines += Array(repeating: BrowseLine(text: "", colors: [blank]), count: max(0, height - lines.count))
        }
        if let box = reader.note {
            let width = min(passage.width + 4, columns)
            let indent = String(repeating: " ", count: max(0, (columns - width) / 2))
            for (row, text) in noteBox(box, width: width, height: height).enumerated() where row + 1 < height {
                let line = BrowseLine(text: indent + text, colors: [BrowseRun(text: indent + text, foreground: colors.text, background: colors.background)])
                if row + 1 < lines.count { lines[row + 1] = line } else { lines.append(line) }
            }
        }
        return lines
    }

    /// The note Enter opened, in a box `width` columns wide, at most
    /// `height` - 2 rows tall (a longer note is cut with "…").
    private static func noteBox(_ box: ReaderNoteBox, width: Int, height: Int) -> [String] {
        let inner = max(1, width - 4)
        func framed(_ left: String, _ title: String, _ right: String) -> String {
            let title = fit(title, max(0, width - 2))
            return left + title + String(repeating: "─", count: max(0, width - 2 - DisplayWidth.of(title))) + right
        }
        var body = box.note.map { TextLayout.noteLines($0.text, width: inner) } ?? [box.failure ?? "finding the note…"]
        let room = max(1, height - 4)
        if body.count > room { body = Array(body.prefix(room - 1)) + ["…"] }
        let rows = body.map { "│ " + $0 + String(repeating: " ", count: max(0, inner - DisplayWidth.of($0))) + " │" }
        let closing = box.note == nil ? " any key closes " : " Enter goes to it · any key closes "
        return [framed("┌", " note [\(box.label)] ", "┐")] + rows + [framed("└", closing, "┘")]
    }

    /// One row of a picture in the reader: its symbols once drawn; until
    /// then, and for graphics written over it, blank, the first row saying
    /// what is under way or why there is no picture.
    private static func pictureRow(
        _ drawing: ReaderPictureDrawing?, _ row: ReaderPictureRow, indent: Int, colors: (text: Int, heading: Int, dim: Int, background: Int)
    ) -> BrowseLine {
        let margin = BrowseRun(text: String(repeating: " ", count: indent), foreground: colors.text, background: colors.background)
        var note: String?
        switch drawing {
        case let .drawn(rows, nil):
            let runs = row.row < rows.count ? rows[row.row] : []
            return BrowseLine(text: margin.text + runs.map(\.text).joined(), colors: [margin] + runs)
        case .drawn: break
        case let .failed(reason): note = reason
        case .drawing, nil: note = "drawing the picture…"
        }
        let text = row.row == 0 ? note ?? "" : ""
        return BrowseLine(
            text: margin.text + text,
            colors: [margin, BrowseRun(text: text, foreground: colors.dim, background: colors.background, isDim: true)])
    }

    /// A line's runs cut where the words found (and the footnote marks)
    /// begin and end, those found drawn highlighted, the marks bold.
    private static func highlighted(
        _ runs: [ReaderRun], _ found: [Range<Int>], marked: [Range<Int>], colors: (text: Int, heading: Int, dim: Int, background: Int)
    ) -> [BrowseRun] {
        var result: [BrowseRun] = []
        var offset = 0
        for run in runs {
            let bytes = Array(run.text.utf8)
            var start = 0
            // Cut points inside this run: the edges of the words found.
            let edges = (found + marked).flatMap { [$0.lowerBound - offset, $0.upperBound - offset] }.filter { $0 > 0 && $0 < bytes.count }
            for end in (edges + [bytes.count]).sorted() where end > start {
                let piece = String(decoding: bytes[start..<end], as: UTF8.self)
                let isMatch = found.contains { $0.contains(offset + start) }
                let isMark = marked.contains { $0.contains(offset + start) }
                let foreground = run.style == .bold ? colors.heading : run.style == .dim ? colors.dim : colors.text
                result.append(BrowseRun(
                    text: piece, foreground: foreground, background: colors.background, isBold: run.style == .bold || isMatch || isMark,
                    isItalic: run.style == .italic, isDim: run.style == .dim, isHighlighted: isMatch))
                start = end
            }
            offset += bytes.count
        }
        return result
    }

    /// The bookmarks, numbered, each with the first words of its paragraph.
    private static func bookmarkLines(_ bookmarks: [Bookmark], _ marks: ReaderContents, notes: Bool, height: Int) -> [BrowseLine] {
        guard !bookmarks.isEmpty else {
            let none = notes ? "  no notes yet: a writes one on the paragraph at the top (or the search hit in view)"
                : "  no bookmarks yet: m marks the page; ' goes back from the last jump"
            return [BrowseLine(text: none, style: .dim)]
        }
        return bookmarks.enumerated().dropFirst(marks.top).prefix(height).map { index, mark in
            let number = " \(String(mark.number).count < 2 ? " " : "")\(mark.number)  "
            let name = TerminalText.sanitize(mark.name, singleLine: true)
            // A note first, then where it is; a bookmark's name, then its words.
            let text = if let note = mark.note {
                number + TerminalText.sanitize(note, singleLine: true) + (name.isEmpty ? "" : " · " + name)
            } else {
                number + name + (mark.anchor.isEmpty ? "" : " · " + TerminalText.sanitize(mark.anchor, singleLine: true) + "…")
            }
            return BrowseLine(text: text, style: index == marks.selected ? .selected : .plain)
        }
    }

    /// The table of contents: each section indented by its level, where
    /// it begins in a column of its own at the right, the one selected in
    /// reverse.
    private static func contentsLines(_ outline: [OutlineEntry], _ contents: ReaderContents, height: Int, columns: Int) -> [BrowseLine] {
        let total = max(1, outline.last.map { $0.startWord + $0.words } ?? 1)
        let numberWidth = String(outline.count).count
        let titleWidth = max(4, min(76, columns) - numberWidth - 9)
        return outline.enumerated().dropFirst(contents.top).prefix(height).map { index, entry in
            let number = String(entry.number)
            let title = String(repeating: "  ", count: min(entry.section.level, 6)) + TerminalText.sanitize(entry.section.title, singleLine: true)
            let percent = String(entry.startWord * 100 / total) + "%"
            let text = String(repeating: " ", count: numberWidth - number.count + 1) + number + "  "
                + DisplayWidth.pad(DisplayWidth.truncate(title, to: titleWidth), to: titleWidth)
                + String(repeating: " ", count: max(1, 5 - percent.count)) + percent
            return BrowseLine(text: text, style: index == contents.selected ? .selected : .plain)
        }
    }

    /// How far into the book, the section (under the one holding it), the
    /// minutes left in it, the hit in view, and the book.
    /// On a narrow screen the section loses the one holding it, then the
    /// hit and the keys' note come before the minutes: whatever is cut
    /// from the end matters least.
    private static func readerStatus(_ reader: BrowseReader, height: Int, speed: Double, columns: Int) -> [String] {
        // How far first: a narrow screen cuts the line from its end.
        let percent = reader.percent(height: height).map { "\($0)%" }
        var section: String?, inBook: String?
        if let entry = reader.section {
            let outline = reader.map?.outline ?? []
            let parent = outline.prefix(max(0, entry.number - 1)).last { $0.section.level < entry.section.level }
            let title = TerminalText.sanitize(entry.section.title, singleLine: true)
            section = "§\(entry.number) " + title
            inBook = parent.map { "§\(entry.number) " + TerminalText.sanitize($0.section.title, singleLine: true) + " › " + title } ?? section
        }
        let minutes = reader.section == nil ? nil : reader.minutesLeft(speed: speed, height: height).map { "\($0) min left" }
        var hit: String?
        if let search = reader.search, let blocks = search.blocks, let current = search.current,
           let lines = reader.passage?.lines.dropFirst(reader.topLine).prefix(height), lines.contains(where: { $0.block == blocks[current] }) {
            hit = "hit \(current + 1) of \(blocks.count)"
        }
        let contentsNote = reader.contents.map { $0.typed.isEmpty ? "contents: Enter goes, or type a number" : "contents: §\($0.typed), Enter goes" }
        let pictureNote = reader.fullPicture.map { _ in "a picture: any key goes back" }
            ?? reader.selectedMark.map { "note [\($0.label)]: Enter shows it, Tab the next" }
        let marksNote = reader.marks.map { _ in
            reader.listsNotes ? "notes: Enter goes, r edits, d deletes" : "bookmarks: Enter goes, r renames, d deletes, ' goes back"
        }
        let note: String? = contentsNote ?? pictureNote ?? marksNote
        let book = reader.title.isEmpty ? "\(reader.ref)" : TerminalText.sanitize(reader.title, singleLine: true)
        // The part the section is in goes after the book's title and the
        // minutes: "CHAPTER VII" alone is in every book.
        let variants = [
            [percent, inBook, minutes, hit, note, book], [percent, inBook, hit, note, minutes, book], [percent, inBook, hit, note, minutes],
            [percent, inBook, hit, note], [percent, section, hit, note, minutes, book], [percent, hit, note, section, minutes, book],
        ].map { $0.compactMap { $0 } }
        return variants.first { DisplayWidth.of(" " + $0.joined(separator: " · ")) <= columns } ?? variants[variants.count - 1]
    }

    /// The text and picture rows in view; a picture's rows keep their colours.
    private static func detailLines(_ detail: BrowseDetail, height: Int) -> [BrowseLine] {
        let firstPictureRow = detail.lines.count + 1
        return detail.shownLines.enumerated().dropFirst(detail.top).prefix(height).map { index, text in
            let pictureRow = index - firstPictureRow
            let colors = detail.pictureColors.indices.contains(pictureRow) ? detail.pictureColors[pictureRow] : nil
            return BrowseLine(text: text, colors: colors)
        }
    }

    private static func fit(_ text: String, _ columns: Int) -> String {
        DisplayWidth.pad(DisplayWidth.truncate(text, to: columns), to: columns)
    }

    /// The rows in view: a position whose item is not cached yet is a
    /// placeholder (its number, when known, then "…") until it is.
    private static func rows(_ list: BrowseList, height: Int, columns: Int, freshness: BrowseFreshness) -> [BrowseLine] {
        let positions = list.top..<min(list.count, list.top + max(1, height / list.rowHeight))
        let showsSource = !list.listing.isPaged
        let label = { (ref: ItemRef) in showsSource ? "\(ref.source.rawValue):\(ref.id)" : String(ref.id) }
        let labels = positions.map { list.ref(at: $0).map(label) ?? "" }
        // Columns keep their widths while rows scroll: the reference as
        // wide as the widest of the whole listing (xkcd's newest number),
        // the detail as wide as it may be, or as every row's (a date).
        let widest = list.listing.isPaged
            ? max(String(list.count).count, (list.window.rows.values.map { label($0.ref).count }.max() ?? 0))
            : list.rows.map { label($0.ref).count }.max() ?? 0
        let idWidth = max(4, widest, labels.map(\.count).max() ?? 0)
        let details = list.listing.isPaged ? list.window.rows.values.map(\.detail) : list.rows.map(\.detail)
        let widths = Set(details.map { DisplayWidth.of($0) }).subtracting([0])
        let room = min(28, (columns - idWidth - 4) / 3)
        // Details all of a width (dates) are shown whole or not at all: a
        // date cut to "2021-01-…" says less than none; authors are cut.
        let detailWidth = widths.count == 1 ? (widths.first.map { $0 <= room ? $0 : 0 } ?? 0) : details.isEmpty ? 0 : room
        var lines = zip(positions, labels).map { position, id -> [BrowseLine] in
            let row = list.row(at: position)
            let mark = row?.isFavorite == true ? "★" : " "
            var text = mark + " " + String(repeating: " ", count: max(0, idWidth - id.count)) + id + "  "
            guard let row else {
                let missing = list.window.absent[position]?.reason ?? "…"
                return [BrowseLine(text: text + missing, style: position == list.selected ? .selected : .dim)]
            }
            if detailWidth >= 8 {
                text += DisplayWidth.pad(DisplayWidth.truncate(row.detail, to: detailWidth), to: detailWidth) + "  "
            }
            let style: BrowseLine.Style = position == list.selected ? .selected : .plain
            // A book's text downloaded (▤), and how far it has been read.
            let read = row.reading.map { ($0.downloaded ? "  ▤" : "  ") + ($0.percent.map { " \($0)%" } ?? "") } ?? ""
            guard list.rowHeight == 2 else {
                // The mark stays in view: a long title gives way to it.
                let title = read.isEmpty ? row.title : DisplayWidth.truncate(row.title, to: max(4, columns - DisplayWidth.of(text) - DisplayWidth.of(read)))
                return [BrowseLine(text: text + title + read, style: style)]
            }
            // A search result: its matches in bold, the snippet under the title.
            let indent = DisplayWidth.of(text)
            return [marked(text + row.title, columns: columns, style: style),
                    marked(String(repeating: " ", count: indent) + row.snippet, columns: columns, style: .dim)]
        }.flatMap { $0 }
        if list.isLoading && lines.count < height { lines.append(BrowseLine(text: "  loading…", style: .dim)) }
        if list.count == 0 && !list.isLoading {
            lines += emptyReason(list, freshness: freshness, columns: columns).map { BrowseLine(text: $0, style: .dim) }
        }
        return lines
    }

    /// A line whose text marks matches (`SearchMatch.start`…`end`) as
    /// bold runs, fitted to the width as `fit` fits plain text.
    private static func marked(_ text: String, columns: Int, style: BrowseLine.Style) -> BrowseLine {
        let room = DisplayWidth.of(SearchMatch.unmarked(text)) > columns ? columns - 1 : columns
        var runs: [BrowseRun] = []
        var isBold = false
        var used = 0
        var plain = ""
        for character in text {
            if character == SearchMatch.start || character == SearchMatch.end {
                isBold = character == SearchMatch.start
                continue
            }
            let width = DisplayWidth.of(String(character))
            guard used + width <= room else { break }
            if runs.last?.isBold == isBold {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append(BrowseRun(text: String(character), foreground: -1, background: -1, isBold: isBold))
            }
            plain.append(character)
            used += width
        }
        if room < columns {
            runs.append(BrowseRun(text: "…", foreground: -1, background: -1))
            plain += "…"
            used += 1
        }
        let padding = String(repeating: " ", count: max(0, columns - used))
        runs.append(BrowseRun(text: padding, foreground: -1, background: -1))
        return BrowseLine(text: plain + padding, style: style, colors: runs)
    }

    /// Why a screen is empty, wrapped to the width.
    private static func emptyReason(_ list: BrowseList, freshness: BrowseFreshness, columns: Int) -> [String] {
        let reason: String
        switch (list.listing, freshness) {
        case _ where list.failure != nil: reason = "cannot read the cache: " + (list.failure ?? "")
        case (.favorites, _): reason = "no favourites yet: f marks one"
        case (.reading, _): reason = "no book begun or downloaded yet: R on a book reads it"
        case (.search, _): reason = "nothing cached matches"
        case let (_, .failed(failure, _, _)): reason = "nothing cached, and " + failure
        case (_, .offline): reason = "nothing cached, and --offline forbids the network"
        case (.books, _) where list.window.count == 0: reason = "no book matches this query; : changes it"
        case _ where list.window.count == 0: reason = "nothing here upstream; r asks again"
        default: reason = "loading…"
        }
        return DisplayWidth.wrapped(reason, width: max(10, columns - 2)).map { "  " + $0 }
    }

    /// Source and query, position, freshness; or the prompt, or a message.
    static func status(_ state: BrowseState, now: Date) -> String {
        if let prompt = state.prompt {
            // What was entered and refused is said over the prompt until the next key.
            if let message = state.message { return " " + TerminalText.sanitize(message, singleLine: true) }
            return promptLine(prompt, kind: state.promptKind, cursor: state.promptCursor, columns: state.columns)
        }
        if let message = state.message { return " " + TerminalText.sanitize(message, singleLine: true) }
        var parts: [String] = []
        switch state.visible {
        case let .list(list):
            parts.append(title(of: list.listing))
            if list.count > 0 {
                parts.append(grouped(list.selected + 1) + " of " + grouped(list.total ?? list.count))
            }
            if list.listing.isPaged, list.count > 0, list.selected == list.count - 1 { parts.append("end of results") }
            parts.append(freshness(state.freshness(of: list.listing.window?.source), oldest: list.listing.isPaged ? list.window.oldest(in: list.top..<(list.top + BrowseModel.rowsInView(list, state))) : nil, now: now))
        case let .detail(detail):
            parts.append("\(detail.ref)" + (detail.isFavorite ? " ★" : ""))
            parts.append(freshness(state.freshness(of: detail.ref.source), oldest: nil, now: now))
        case let .reader(reader):
            parts += readerStatus(reader, height: state.listHeight, speed: state.readingSpeed, columns: state.columns)
        }
        var line = " " + parts.filter { !$0.isEmpty }.joined(separator: " · ")
        // A failure's reason is worth more than "end of results".
        if DisplayWidth.of(line) > state.columns, parts.contains("end of results") {
            line = " " + parts.filter { !$0.isEmpty && $0 != "end of results" }.joined(separator: " · ")
        }
        // The reminder of the keys gives its room to what is true first;
        // in the reader, `?` searches backward.
        let reminder = if case let .reader(reader) = state.visible {
            reader.status == .ready ? " · t contents · H keys" : " · Esc back"
        } else {
            " · ? keys"
        }
        return DisplayWidth.of(line) + DisplayWidth.of(reminder) <= state.columns ? line + reminder : line
    }

    private static func title(of listing: BrowseListing) -> String {
        switch listing {
        case let .source(source): source.rawValue
        case let .books(query): "books: " + describe(query)
        case .favorites: "favourites"
        case .reading: "reading list"
        case let .search(terms): "search: " + TerminalText.sanitize(terms, singleLine: true)
        }
    }

    private static func describe(_ query: ListQuery) -> String {
        var parts: [String] = []
        if let search = query.search { parts.append(TerminalText.sanitize(search, singleLine: true)) }
        if !query.languages.isEmpty { parts.append("language " + query.languages.joined(separator: ",")) }
        if let topic = query.topic { parts.append("topic " + TerminalText.sanitize(topic, singleLine: true)) }
        if let sort = query.sort { parts.append("sort " + sort.rawValue) }
        return parts.joined(separator: ", ")
    }

    /// A failure and its reason first, then "refreshing…", then the age of
    /// the oldest row in view.
    static func freshness(_ freshness: BrowseFreshness, oldest: Date?, now: Date) -> String {
        let updated = oldest.map { "updated " + age(from: $0, to: now) } ?? ""
        switch freshness {
        case .quiet: return updated
        case .refreshing: return "refreshing…"
        case .offline: return "offline" + (updated.isEmpty ? "" : ": " + updated)
        case let .failed(reason, at, refreshing):
            return (refreshing ? "refresh" : "fetch") + " failed " + age(from: at, to: now) + ": " + reason + "; r retries"
        }
    }

    /// The prompt's label and text, the cursor always in view: a label too
    /// long for the width gives way to a short one, and text too long
    /// shows its end up to the cursor.
    private static func promptLine(_ prompt: String, kind: BrowsePromptKind, cursor: Int, columns: Int) -> String {
        let (label, short) = switch kind {
        case .search: ("search: ", "/")
        case .booksQuery: ("books query (words language:en topic:… sort:…, or a number): ", "query: ")
        case .jump: ("go to: ", ":")
        case .readerGo: ("go to (a section number, or 40%): ", ":")
        case let .readerSearch(forward): (forward ? "/" : "?", forward ? "/" : "?")
        case .bookmarkName: ("bookmark's name: ", "name: ")
        case .noteText(nil): ("a note on this paragraph: ", "note: ")
        case .noteText: ("the note: ", "note: ")
        }
        let characters = Array(prompt)
        let cursor = max(0, min(cursor, characters.count))
        // The label keeps ten columns for the text, or gives way.
        let shown = DisplayWidth.of(label) + 10 <= columns ? label : short
        var before = String(characters[..<cursor])
        while !before.isEmpty, DisplayWidth.of(shown) + 1 + DisplayWidth.of(before) + 1 > columns {
            before.removeFirst()
        }
        let cut = before.count < cursor ? "…" : ""
        return shown + cut + before + "▏" + String(characters[cursor...])
    }

    /// "just now", "3 min ago", "5 hours ago", "2 days ago".
    static func age(from date: Date, to now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<172_800: return "\(seconds / 3600) hour\(seconds / 3600 == 1 ? "" : "s") ago"
        default: return "\(seconds / 86400) days ago"
        }
    }

    private static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
