@testable import ComicsKit
import Foundation
import XCTest

@testable import BrowseCore
@testable import comics

/// The reader's model and page without a terminal: keys move through a
/// passage laid out by the same rules as `read`, and the page shows it.
final class ReaderModelTests: XCTestCase {
    private let ref = ItemRef(source: .books, id: 11)

    private func blocks(_ count: Int) -> [TextBlock] {
        [TextBlock(.heading, "CHAPTER I.")] + (1..<count).map { index in
            TextBlock(.prose, "Paragraph \(index) of the book, where the White Rabbit runs by with _his_ watch, long enough to fill three lines of a narrow column.")
        }
    }

    /// A reader over `count` blocks, all of them laid out.
    private func state(_ count: Int = 40, rows: Int = 10, columns: Int = 50) -> BrowseState {
        var state = BrowseState(rows: rows, columns: columns, source: .books)
        let text = blocks(count)
        let words = text.reduce(0) { $0 + $1.wordCount }
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: Date(), originalBytes: 1, sectionCount: 1, wordCount: words)
        let map = TextMap(
            info: info, outline: [OutlineEntry(number: 1, section: TextSection(level: 0, title: "CHAPTER I.", firstBlock: 0), startWord: 0, words: words)],
            blockCount: count, position: nil)
        state.screens.append(.reader(BrowseReader(ref: ref, title: "Alice")))
        _ = BrowseModel.handle(&state, .readerOpened(ref, map, title: "Alice"))
        guard case let .reader(reader) = state.visible else { return state }
        let passage = ReaderLayout.passage(TextPassage(firstBlock: 0, blocks: text, wordsBefore: 0), width: reader.column(for: columns), sectionStarts: [])
        _ = BrowseModel.handle(&state, .passageRead(ref, passage))
        return state
    }

    private func reader(_ state: BrowseState) -> BrowseReader? {
        if case let .reader(reader) = state.visible { return reader }
        return nil
    }

    func testPagesMoveWithinTheTextAndStopAtItsEnds() throws {
        var state = state()
        let lines = try XCTUnwrap(reader(state)?.passage?.lines.count)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("k"))), [], "nothing before the start")
        XCTAssertEqual(reader(state)?.topLine, 0)
        let effects = BrowseModel.handle(&state, .key(.character(" ")))
        XCTAssertEqual(reader(state)?.topLine, state.listHeight - 1, "a page less a line of context")
        XCTAssertEqual(effects, [.saveReading(ref, try XCTUnwrap(reader(state)?.top))], "a page turn saves the place")
        _ = BrowseModel.handle(&state, .key(.character("G")))
        XCTAssertEqual(reader(state)?.topLine, lines - state.listHeight, "G: the last page, full")
        _ = BrowseModel.handle(&state, .key(.character("j")))
        XCTAssertEqual(reader(state)?.topLine, lines - state.listHeight, "nothing after the end")
        _ = BrowseModel.handle(&state, .key(.character("g")))
        XCTAssertEqual(reader(state)?.top, TextPosition(block: 0))
    }

    func testThePageIsACentredColumnWithItalicsAndHighlightedHits() throws {
        var state = state(columns: 60)
        let frame = BrowseView.frame(state, now: Date())
        let heading = try XCTUnwrap(frame.first { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty })
        XCTAssertEqual(heading.text.trimmingCharacters(in: .whitespaces), "CHAPTER I.")
        XCTAssertTrue(heading.text.hasPrefix(" C"), "centred: a 58-column text with a column each side")
        XCTAssertTrue(frame.dropLast().allSatisfy { DisplayWidth.of($0.text) <= 60 })
        XCTAssertTrue(frame.contains { $0.colors?.contains { $0.text == "his" && $0.isItalic } == true }, "_his_ in italics, without its underscores")
        XCTAssertFalse(frame.contains { $0.text.contains("_") })

        _ = BrowseModel.handle(&state, .key(.character("/")))
        for character in "rabbits" { _ = BrowseModel.handle(&state, .key(.character(character))) }
        XCTAssertEqual(BrowseModel.handle(&state, .key(.enter)), [.searchText(ref, "rabbits")])
        _ = BrowseModel.handle(&state, .readerMatches(ref, query: "rabbits", [1, 2, 3]))
        XCTAssertEqual(reader(state)?.search?.current, 0)
        let searched = BrowseView.frame(state, now: Date())
        XCTAssertTrue(searched.contains { $0.colors?.contains { $0.text == "Rabbit" && $0.isHighlighted } == true }, "the stem found, as the index finds it")
        XCTAssertFalse(searched.contains { $0.colors?.contains { $0.isHighlighted && $0.text != "Rabbit" } == true })
        XCTAssertTrue(searched.last?.text.contains("hit 1 of 3") == true, searched.last?.text ?? "")
        _ = BrowseModel.handle(&state, .key(.character("n")))
        XCTAssertEqual(reader(state)?.top.block, 2)
        _ = BrowseModel.handle(&state, .key(.character("N")))
        XCTAssertEqual(reader(state)?.top.block, 1)
    }

    /// A narrow screen keeps the hit in the status line before the
    /// section's book, the minutes and the title.
    func testANarrowStatusLineKeepsTheHit() throws {
        for columns in [40, 50, 120] {
            var state = state(columns: columns)
            guard case var .reader(reader) = state.visible, var map = reader.map else { return XCTFail("no reader") }
            let words = map.info.wordCount
            map.outline = [
                OutlineEntry(number: 1, section: TextSection(level: 0, title: "BOOK THE FIRST: A VERY LONG PART TITLE", firstBlock: 0), startWord: 0, words: words),
                OutlineEntry(number: 2, section: TextSection(level: 1, title: "CHAPTER I. A long chapter title too", firstBlock: 0), startWord: 0, words: words),
            ]
            reader.map = map
            state.screens[state.screens.count - 1] = .reader(reader)
            _ = BrowseModel.handle(&state, .readerMatches(ref, query: "rabbit", []))
            _ = BrowseModel.readerSearch(&state, "rabbit", forward: true)
            _ = BrowseModel.handle(&state, .readerMatches(ref, query: "rabbit", [1, 2, 3]))
            let status = try XCTUnwrap(BrowseView.frame(state, now: Date()).last?.text)
            XCTAssertTrue(status.contains("hit 1 of 3"), "\(columns) columns: \(status)")
            XCTAssertLessThanOrEqual(DisplayWidth.of(status), columns)
            XCTAssertEqual(status.contains("BOOK THE FIRST"), columns >= 120, "\(columns) columns: \(status)")
        }
    }

    func testIllustrationsAndFootnotesAreMarkedAndDim() {
        let text = [
            TextBlock(.heading, "CHAPTER I."), TextBlock(.illustration, "The Rabbit"),
            TextBlock(.prose, "Alice saw it.[1]"), TextBlock(.footnote, "[Footnote 1: A white one.]"),
        ]
        let lines = ReaderLayout.passage(TextPassage(firstBlock: 0, blocks: text, wordsBefore: 0), width: 40, sectionStarts: []).lines
        let drawn = lines.filter { !$0.text.isEmpty }
        XCTAssertEqual(drawn.map(\.text), ["CHAPTER I.", "[Illustration: The Rabbit]", "Alice saw it.[1]", "[Footnote 1: A white one.]"])
        XCTAssertEqual(drawn.map { $0.runs.map(\.style) }, [[.bold], [.dim], [.plain], [.dim]])
    }

    /// A title under its heading (a heading block that opens no section,
    /// as a plain text's title paragraph under `CHAPITRE II.`) follows it
    /// with no blank line, as `read` prints it; a heading that opens a
    /// section (a chapter under its book) stands apart.
    func testATitleUnderItsHeadingFollowsIt() {
        let text = [
            TextBlock(.prose, "Before."), TextBlock(.heading, "BOOK ONE"), TextBlock(.heading, "CHAPITRE II."),
            TextBlock(.heading, "Ce que devint Candide."), TextBlock(.prose, "Candide marcha."),
        ]
        let lines = ReaderLayout.passage(TextPassage(firstBlock: 0, blocks: text, wordsBefore: 0), width: 40, sectionStarts: [1, 2]).lines.map(\.text)
        XCTAssertEqual(lines, ["Before.", "", "", "BOOK ONE", "", "", "CHAPITRE II.", "Ce que devint Candide.", "", "Candide marcha."])
    }

    /// `read --at N --search TERMS`: the page opens at N, the search starts
    /// from there, and '' goes back to where reading had stopped.
    func testOpeningAtAParagraphWithASearchStartsThereAndRemembersTheSavedPlace() throws {
        var state = BrowseState(rows: 10, columns: 50, source: .books)
        let text = blocks(40)
        let words = text.reduce(0) { $0 + $1.wordCount }
        let info = TextInfo(ref: ref, url: "u", encoding: "utf-8", fetchedAt: Date(), originalBytes: 1, sectionCount: 1, wordCount: words)
        let saved = ReadingPosition(position: TextPosition(block: 5), anchor: "", percent: 10, section: 1, at: Date())
        let map = TextMap(info: info, outline: [], blockCount: 40, position: saved)
        XCTAssertEqual(BrowseModel.openReader(&state, ref, title: "Alice", from: .block(30), searching: "rabbit"), [.openReader(ref)])
        XCTAssertEqual(BrowseModel.handle(&state, .readerOpened(ref, map, title: nil)), [.searchText(ref, "rabbit")], "the search under way")
        XCTAssertEqual(reader(state)?.top, TextPosition(block: 30))
        XCTAssertEqual(reader(state)?.previous, TextPosition(block: 5), "'' goes to where reading stopped")
        _ = BrowseModel.handle(&state, .passageRead(ref, ReaderLayout.passage(TextPassage(firstBlock: 0, blocks: text, wordsBefore: 0), width: 48, sectionStarts: [])))
        _ = BrowseModel.handle(&state, .readerMatches(ref, query: "rabbit", [2, 30, 31]))
        XCTAssertEqual(reader(state)?.search?.current, 1, "the hit at the paragraph, not the first of the book")
        XCTAssertEqual(reader(state)?.top.block, 30)

        var fromStart = BrowseState(rows: 10, columns: 50, source: .books)
        _ = BrowseModel.openReader(&fromStart, ref, title: "Alice", from: .beginning)
        XCTAssertEqual(BrowseModel.handle(&fromStart, .readerOpened(ref, map, title: nil)), [])
        XCTAssertEqual(reader(fromStart)?.top, TextPosition(block: 0))
        var past = BrowseState(rows: 10, columns: 50, source: .books)
        _ = BrowseModel.openReader(&past, ref, title: "Alice", from: .block(1_000))
        _ = BrowseModel.handle(&past, .readerOpened(ref, map, title: nil))
        XCTAssertEqual(reader(past)?.top, TextPosition(block: 39), "past the end: the last paragraph")
    }

    func testTheStatusSaysTheMinutesLeftInTheSectionAtTheSpeedLearned() throws {
        var state = state()
        let words = try XCTUnwrap(reader(state)?.map?.info.wordCount)
        XCTAssertTrue(BrowseView.frame(state, now: Date()).last?.text.contains("\(Int((Double(words) / 250).rounded(.up))) min left") == true)
        _ = BrowseModel.handle(&state, .readingSpeed(Double(words)))
        XCTAssertTrue(BrowseView.frame(state, now: Date()).last?.text.contains("· 1 min left") == true, "the learned speed")
        XCTAssertEqual(ReadingSpeed.learned(250, words: 300, seconds: 60), 260, "a fifth of the way to 300 words a minute")
        XCTAssertEqual(ReadingSpeed.learned(250, words: 300, seconds: 1), 250, "a page skipped teaches nothing")
        XCTAssertEqual(ReadingSpeed.learned(250, words: 300, seconds: 1_200), 250, "nor a page left open")
        XCTAssertEqual(ReadingSpeed.learned(250, words: 5_000, seconds: 60), 250, "nor a jump")
    }

    /// A line of verse wider than the column goes on below four columns
    /// further in than it began, at every width, losing no word.
    func testVerseWiderThanTheColumnHangs() {
        var generator = SystemRandomNumberGenerator()
        let words = ["Tyger", "tyger,", "burning", "bright,", "In", "the", "forests", "of", "the", "night;", "immortal", "symmetry?"]
        for _ in 0..<300 {
            let width = Int.random(in: 20...60, using: &generator)
            let indentation = String(repeating: " ", count: Int.random(in: 0...6, using: &generator))
            let line = indentation + (0..<Int.random(in: 1...20, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
            let terminal = Terminal(isTerminal: false, width: width, height: nil, cellSize: nil, colorForbidden: true)
            let laid = TextLayout(width: width, terminal: terminal).lines(of: TextBlock(.lines, line))
            XCTAssertTrue(laid.allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(laid)")
            XCTAssertEqual(laid.flatMap { $0.split(separator: " ") }, line.split(separator: " "), "no word lost")
            XCTAssertTrue(laid[0].hasPrefix(indentation), "\(laid)")
            for continuation in laid.dropFirst() {
                XCTAssertEqual(continuation.prefix { $0 == " " }.count, indentation.count + 4, "hanging: \(laid)")
            }
        }
    }

    /// A note's lines hang under its first word, past its label, at every
    /// width, losing no word; a note with no label (or one too wide for
    /// the column) wraps as prose.
    func testANoteWrapsUnderItsFirstWord() {
        var generator = SystemRandomNumberGenerator()
        let words = ["The", "note", "says", "more", "of", "Pangloss,", "précepteur", "de", "la", "maison;", "longword" + String(repeating: "x", count: 30)]
        for _ in 0..<300 {
            let width = Int.random(in: 20...60, using: &generator)
            let label = ["[1]", "12.", "(*)", "†", "[Footnote 3:", "[A]", "Note"].randomElement(using: &generator)!
            let note = label + " " + (0..<Int.random(in: 1...30, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
            let terminal = Terminal(isTerminal: false, width: width, height: nil, cellSize: nil, colorForbidden: true)
            let laid = TextLayout(width: width, terminal: terminal).lines(of: TextBlock(.footnote, note))
            XCTAssertTrue(laid.allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(laid)")
            XCTAssertEqual(laid.flatMap { $0.split(separator: " ") }.joined(), note.split(separator: " ").joined(), "no word lost")
            // A label as wide as a third of the column hangs nothing.
            let indent = label == "Note" || DisplayWidth.of(label) >= width / 3 ? 0 : DisplayWidth.of(label) + 1
            XCTAssertTrue(laid[0].hasPrefix(indent > 0 ? label + " " : label), "\(laid)")
            for continuation in laid.dropFirst() {
                XCTAssertEqual(continuation.prefix { $0 == " " }.count, indent, "under its first word: \(laid)")
            }
        }
    }

    /// A failed download: r tries again; leaving `comics read` unread
    /// keeps why, for the command to fail with.
    func testAFailedDownloadIsTriedAgainOrLeftWithItsReason() {
        var state = BrowseState(rows: 10, columns: 80, source: .books)
        state.leavesWithReader = true
        _ = BrowseModel.openReader(&state, ref, title: "Alice")
        _ = BrowseModel.handle(&state, .readerFailed(ref, "127.0.0.1 did not answer in time"))
        XCTAssertTrue(BrowseView.frame(state, now: Date()).contains { $0.text.contains("r tries again, q leaves") })
        XCTAssertEqual(BrowseModel.handle(&state, .key(.character("r"))), [.openReader(ref)])
        XCTAssertEqual(reader(state)?.status, .opening)
        _ = BrowseModel.handle(&state, .readerFailed(ref, "127.0.0.1 did not answer in time"))
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertTrue(state.isFinished)
        XCTAssertEqual(state.unread, "127.0.0.1 did not answer in time")
    }

    /// With a hit count, the status line keeps the part a chapter is in
    /// ("CHAPTER XI" is in every book) and gives up the book's title.
    func testTheStatusKeepsThePartBesideAHitCount() throws {
        var state = state(80, rows: 10, columns: 80)
        guard case var .reader(reader) = state.visible, var map = reader.map else { return XCTFail("no reader") }
        map.outline = [
            OutlineEntry(number: 1, section: TextSection(level: 0, title: "BOOK ONE: 1805", firstBlock: 0), startWord: 0, words: 100),
            OutlineEntry(number: 2, section: TextSection(level: 1, title: "CHAPTER XI", firstBlock: 0), startWord: 0, words: 100),
        ]
        reader.map = map
        reader.title = "War and Peace, a long title for the status line"
        state.screens[state.screens.count - 1] = .reader(reader)
        _ = BrowseModel.handle(&state, .key(.character("/")))
        for character in "rabbit" { _ = BrowseModel.handle(&state, .key(.character(character))) }
        _ = BrowseModel.handle(&state, .key(.enter))
        _ = BrowseModel.handle(&state, .readerMatches(ref, query: "rabbit", [1, 2, 3]))
        let status = try XCTUnwrap(BrowseView.frame(state, now: Date()).last?.text)
        XCTAssertTrue(status.contains("§2 BOOK ONE: 1805 › CHAPTER XI · hit 1 of 3"), status)
        XCTAssertLessThanOrEqual(DisplayWidth.of(status), 80)
    }

    /// In the contents, a section's number typed then Enter goes there.
    func testTheContentsGoToASectionByItsNumber() throws {
        var state = state(400)
        guard case var .reader(reader) = state.visible, var map = reader.map else { return XCTFail("no reader") }
        map.outline = (0..<250).map { index in
            OutlineEntry(number: index + 1, section: TextSection(level: 0, title: "CHAPTER \(index + 1)", firstBlock: index), startWord: index * 20, words: 20)
        }
        reader.map = map
        state.screens[state.screens.count - 1] = .reader(reader)
        for key in ["t", "2", "0", "0"] { _ = BrowseModel.handle(&state, .key(.character(Character(key)))) }
        XCTAssertTrue(BrowseView.frame(state, now: Date()).last?.text.contains("contents: §200, Enter goes") == true)
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertNil(self.reader(state)?.contents)
        XCTAssertEqual(self.reader(state)?.section?.number, 200)
        for key in ["t", "9", "9", "9", "3"] { _ = BrowseModel.handle(&state, .key(.character(Character(key)))) }
        XCTAssertEqual(self.reader(state)?.contents?.typed, "93", "no section 999: its last digit started again")
        XCTAssertEqual(self.reader(state)?.contents?.selected, 92)
        _ = BrowseModel.handle(&state, .key(.backspace))
        _ = BrowseModel.handle(&state, .key(.character("q")))
        XCTAssertNil(self.reader(state)?.contents, "anything else closes the contents")
        XCTAssertEqual(self.reader(state)?.section?.number, 200, "and stays")
    }

    /// `n` before a search says so; Esc over an error dismisses it alone.
    func testNBeforeASearchAndEscOverAnErrorSayAndStay() {
        var state = state()
        _ = BrowseModel.handle(&state, .key(.character("n")))
        XCTAssertEqual(state.message, "no search yet: / or ? searches")
        _ = BrowseModel.handle(&state, .key(.character(":")))
        for key in "999" { _ = BrowseModel.handle(&state, .key(.character(key))) }
        _ = BrowseModel.handle(&state, .key(.enter))
        XCTAssertEqual(state.message, "a section 0–1, or a percentage (40%)")
        XCTAssertEqual(BrowseModel.handle(&state, .key(.escape)), [])
        XCTAssertNil(state.message)
        XCTAssertNotNil(reader(state), "still reading")
        _ = BrowseModel.handle(&state, .key(.escape))
        XCTAssertNil(reader(state), "a second Esc leaves")
    }

    /// G and `:100%` show the end: 100%, and no minutes left to read.
    func testTheLastPageSaysAllOfItAndNoMinutesLeft() throws {
        var state = state()
        _ = BrowseModel.handle(&state, .key(.character("G")))
        let status = try XCTUnwrap(BrowseView.frame(state, now: Date()).last?.text)
        XCTAssertTrue(status.hasPrefix(" 100% · "), status)
        XCTAssertFalse(status.contains("min left"), status)
        _ = BrowseModel.handle(&state, .key(.character("k")))
        let before = try XCTUnwrap(BrowseView.frame(state, now: Date()).last?.text)
        XCTAssertFalse(before.hasPrefix(" 100%"), "a line before the end is not all of it: \(before)")
        XCTAssertTrue(before.contains("1 min left"), before)
    }

    /// On a part's heading, the minutes count to its first chapter, not
    /// through every chapter of the part.
    func testTheMinutesOfAPartsHeadingCountToItsFirstChapter() throws {
        var state = state(400)
        guard case var .reader(reader) = state.visible, var map = reader.map else { return XCTFail("no reader") }
        let words = map.info.wordCount
        let chapter = blocks(400).prefix(51).reduce(0) { $0 + $1.wordCount }
        map.outline = [
            OutlineEntry(number: 1, section: TextSection(level: 0, title: "PART ONE", firstBlock: 0), startWord: 0, words: words),
            OutlineEntry(number: 2, section: TextSection(level: 1, title: "CHAPTER I", firstBlock: 51), startWord: chapter, words: words - chapter),
        ]
        reader.map = map
        state.screens[state.screens.count - 1] = .reader(reader)
        let minutes = Int((Double(chapter) / 250).rounded(.up))
        XCTAssertLessThan(minutes, Int((Double(words) / 250).rounded(.up)) / 2)
        let status = try XCTUnwrap(BrowseView.frame(state, now: Date()).last?.text)
        XCTAssertTrue(status.contains("§1 PART ONE · \(minutes) min left"), "\(minutes) minutes to the chapter: \(status)")
    }

    func testADownloadSaysHowFarItIsAndEscStopsIt() throws {
        var state = BrowseState(rows: 10, columns: 80, source: .books)
        state.screens.append(.reader(BrowseReader(ref: ref, title: "Alice")))
        if case var .reader(reader) = state.visible {
            reader.status = .downloading()
            state.screens[1] = .reader(reader)
        }
        _ = BrowseModel.handle(&state, .readerProgress(ref, bytes: 1 << 20, of: 4 << 20))
        XCTAssertTrue(BrowseView.frame(state, now: Date())[0].text.contains("1.0 MiB of 4.0 MiB (25%) (Esc cancels)"),
                      BrowseView.frame(state, now: Date())[0].text)
        XCTAssertEqual(BrowseModel.handle(&state, .key(.escape)), [.cancelDownload(ref)])
        XCTAssertEqual(state.screens.count, 1, "back to the list at once")
    }

    func testAnotherWidthFindsTheSameLineAgain() throws {
        var state = state(columns: 80)
        for _ in 0..<7 { _ = BrowseModel.handle(&state, .key(.character("j"))) }
        let top = try XCTUnwrap(reader(state)?.top)
        let text = blocks(40)
        for columns in [40, 80] {
            _ = BrowseModel.handle(&state, .resized(rows: 10, columns: columns))
            let width = try XCTUnwrap(reader(state)?.column(for: columns))
            XCTAssertEqual(reader(state)?.blocksToRead(columns: columns, height: state.listHeight) != nil, true, "laid out again")
            _ = BrowseModel.handle(&state, .passageRead(ref, ReaderLayout.passage(TextPassage(firstBlock: 0, blocks: text, wordsBefore: 0), width: width, sectionStarts: [])))
        }
        XCTAssertEqual(reader(state)?.top, top, "the same place after 40 columns and back")
    }
}
