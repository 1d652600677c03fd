import ComicsKit

/// A footnote's mark on the page, as Tab selects it.
public struct ReaderMark: Equatable {
    /// The passage's line it is in, and where in that line's text.
    public let line: Int
    public let range: Range<Int>
    public let label: String
    public let block: Int
    /// Which of its block's marks it is: an HTML paragraph's links to its
    /// notes are in the same order.
    public let ordinal: Int
}

/// The note a mark refers to, in a box over the page.
public struct ReaderNoteBox: Equatable {
    public let label: String
    /// Nil while it is being found.
    public var note: Footnote?
    public var failure: String?
}

extension BrowseReader {
    /// The footnote marks on the page `height` lines tall, top first; an
    /// illustration's caption and a note's own text hold none.
    public func marksInView(height: Int) -> [ReaderMark] {
        guard let passage, passage.lines.indices.contains(topLine) else { return [] }
        var first = topLine
        while first > 0, passage.lines[first - 1].block == passage.lines[topLine].block { first -= 1 }
        var marks: [ReaderMark] = []
        var block = -1, ordinal = 0
        for index in first..<min(passage.lines.count, topLine + height) {
            let line = passage.lines[index]
            if line.block != block { (block, ordinal) = (line.block, 0) }
            guard line.picture == nil, !line.runs.contains(where: { $0.style == .dim }) else { continue }
            for mark in NoteMarks.marks(in: line.text) {
                if index >= topLine {
                    marks.append(ReaderMark(line: index, range: mark.range, label: mark.label, block: line.block, ordinal: ordinal))
                }
                ordinal += 1
            }
        }
        return marks
    }
}

extension BrowseModel {
    /// Tab and Shift-Tab select the next or previous mark on the page
    /// (round again past the last); nil when the page has none.
    static func selectMark(_ reader: inout BrowseReader, forward: Bool, height: Int) -> Bool {
        let marks = reader.marksInView(height: height)
        guard !marks.isEmpty else { return false }
        let current = reader.selectedMark.flatMap { marks.firstIndex(of: $0) }
        let next = current.map { forward ? ($0 + 1) % marks.count : ($0 + marks.count - 1) % marks.count } ?? (forward ? 0 : marks.count - 1)
        reader.selectedMark = marks[next]
        return true
    }

    /// The note box's keys: Enter goes to the note in the text (a jump,
    /// Ctrl-O comes back), any other key closes it.
    static func noteKey(_ reader: inout BrowseReader, _ key: Key, state: inout BrowseState) -> [BrowseEffect] {
        let box = reader.note
        reader.note = nil
        guard key == .enter, let note = box?.note else { return [] }
        reader.selectedMark = nil
        reader.go(toBlock: note.block, height: state.listHeight)
        return []
    }
}

extension BrowseReader {
    /// The paragraph `a` writes a note on: the search hit on the page, or
    /// the first paragraph at the top (a heading or a picture above it
    /// passed over).
    public func notedBlock(height: Int) -> Int {
        guard let lines = passage?.lines.dropFirst(topLine).prefix(height) else { return top.block }
        if let search, let blocks = search.blocks, let current = search.current, blocks.indices.contains(current),
           lines.contains(where: { $0.block == blocks[current] }) {
            return blocks[current]
        }
        let paragraph = lines.first { line in
            line.picture == nil && !line.text.isEmpty && !line.runs.allSatisfy { $0.style == .bold || $0.style == .dim }
        }
        return paragraph?.block ?? top.block
    }
}
