import ComicsKit

/// What every text made from any bytes must be, plain text or HTML: no
/// control character but newline, no search marker or BOM in a block,
/// sections in reading order within the blocks at levels 0 to 5, and an
/// outline no longer than the text.
func checkBookContent(_ content: BookContent) {
    for block in content.blocks {
        for scalar in block.text.unicodeScalars {
            let value = scalar.value
            precondition(scalar == "\n" || !(value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)),
                         "control U+\(String(value, radix: 16)) in a block")
            precondition(value != 0xE000 && value != 0xE001 && value != 0xFEFF, "marker U+\(String(value, radix: 16)) in a block")
        }
    }
    var previous = -1
    for section in content.sections {
        precondition(section.firstBlock > previous && section.firstBlock < content.blocks.count, "sections out of order")
        precondition(section.level >= 0 && section.level <= 5, "level \(section.level)")
        previous = section.firstBlock
    }
    let outline = content.outline()
    precondition(outline.allSatisfy { $0.startWord + $0.words <= content.wordCount }, "an outline longer than the text")
}
