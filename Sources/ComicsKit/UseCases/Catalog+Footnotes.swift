/// A footnote of a book's text, found from a mark that refers to it.
public struct Footnote: Equatable, Sendable {
    public let block: Int
    public let text: String

    public init(block: Int, text: String) {
        self.block = block
        self.text = text
    }
}

extension Catalog {
    /// The note the `ordinal`-th mark (`label`) of `block` refers to: one
    /// its HTML links name, as the book itself says (the one among them
    /// that opens with the label, else the `ordinal`-th: a paragraph may
    /// hold a bracketed letter that is no link); else, in a plain text, the
    /// first note after the mark that opens with its label (notes numbered
    /// again each chapter), else the last before it.
    public func footnote(_ ref: ItemRef, label: String, ordinal: Int, inBlock block: Int) throws -> Footnote? {
        guard let content = try store.textPassage(ref, from: 0, upTo: nil) else { return nil }
        let blocks = content.blocks
        guard blocks.indices.contains(block) else { return nil }
        let anchors = blocks[block].link?.split(separator: " ").map(String.init) ?? []
        let notes = blocks.indices.filter { blocks[$0].kind == .footnote }
        let found: Int?
        let linked = notes.filter { note in anchors.contains { $0 == blocks[note].link } }
        if !linked.isEmpty {
            found = linked.first { NoteMarks.note(blocks[$0].text, answers: label) }
                ?? (anchors.indices.contains(ordinal) ? linked.first { blocks[$0].link == anchors[ordinal] } : nil)
        } else {
            let answering = notes.filter { NoteMarks.note(blocks[$0].text, answers: label) }
            found = answering.first { $0 > block } ?? answering.last
        }
        return found.map { Footnote(block: $0, text: blocks[$0].text) }
    }
}
