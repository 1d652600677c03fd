/// A note as `comics notes` prints it: the book, the section and the
/// paragraph it was written on.
public struct NoteEntry: Equatable, Sendable {
    public var ref: ItemRef
    public var bookTitle: String?
    public var note: Bookmark
    /// The innermost section holding the paragraph, when the text is here.
    public var section: OutlineEntry?
    /// The paragraph's first sentence, from the text when it is downloaded,
    /// else its first words as the note keeps them.
    public var quote: String
}

extension Catalog {
    /// Writes a note on the paragraph at `position`, named after its
    /// section as a bookmark is.
    public func addNote(_ ref: ItemRef, at position: TextPosition, text: String, in passage: TextPassage, map: TextMap) throws -> Bookmark {
        let existing = try store.bookmarks(ref)
        guard existing.count < Bookmark.limit else {
            throw ComicsError.usage("\(ref) has \(Bookmark.limit) bookmarks and notes, as many as a book keeps", hint: "d in the list deletes one")
        }
        let paragraph = passage.block(position.block)?.text ?? ""
        let path = Self.sectionPath(map.outline, at: position.block).map { TerminalText.sanitize($0.section.title, singleLine: true) }
        let percent = Double(passage.words(before: position.block)) * 100 / Double(max(1, map.info.wordCount))
        return try store.addBookmark(ref, Bookmark(
            number: 0, position: position, anchor: Self.anchor(of: paragraph), percent: min(100, percent),
            name: String(path.joined(separator: " › ").prefix(200)), at: clock.now, note: text))
    }

    public func editNote(_ ref: ItemRef, number: Int, to text: String) throws {
        try store.setNote(ref, number: number, to: text)
    }

    /// The notes of one book, or of every book, each found again in the
    /// text downloaded now (as bookmarks are).
    public func notes(_ only: ItemRef?) throws -> [NoteEntry] {
        let refs = try only.map { [$0] } ?? Array(Set(try store.allNotes().map(\.ref))).sorted { ($0.source.rawValue, $0.id) < ($1.source.rawValue, $1.id) }
        let records = try store.cachedItems(refs)
        var entries: [NoteEntry] = []
        for ref in refs {
            let notes = try bookmarks(ref).filter { $0.note != nil }
            guard !notes.isEmpty else { continue }
            let outline = try store.outline(ref)
            for note in notes {
                let block = try store.textPassage(ref, from: note.position.block, upTo: note.position.block + 1)?.blocks.first
                entries.append(NoteEntry(
                    ref: ref, bookTitle: records[ref]?.item.title, note: note,
                    section: outline.last { $0.section.firstBlock <= note.position.block },
                    quote: Self.firstSentence(of: block?.text ?? note.anchor)))
            }
        }
        return entries
    }

    /// A paragraph's first sentence, at most 300 characters: up to a `.`,
    /// `!` or `?` before a space and a capital, unless the word it ends is
    /// a short capitalised one (`Mr.`, `MR.`, `M.`, `St.`): an abbreviation.
    static func firstSentence(of text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        var end = words.count
        for (index, word) in words.enumerated().dropLast() {
            guard let last = word.last, ".!?".contains(last),
                  words[index + 1].first.map({ $0.isUppercase || "“‘\"'".contains($0) }) == true
            else { continue }
            let letters = word.filter(\.isLetter)
            if last == ".", letters.count <= 3, letters.first?.isUppercase == true, word.first?.isLetter == true { continue }
            end = index + 1
            break
        }
        let sentence = words.prefix(end).joined(separator: " ")
        return sentence.count > 300 ? String(sentence.prefix(299)) + "…" : sentence
    }
}
