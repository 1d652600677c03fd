import ComicsKit

/// libFuzzer target for `fav import`'s reader and the CSV/TSV writers,
/// compiled into the comics module. Any text as an export file: it may be
/// refused, but must not crash, and every reference it accepts is a
/// positive id of a known source. Any text as a cell: written as CSV and
/// TSV and read back, it is the same (less the controls the writers drop),
/// and no written cell begins like a formula.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    if let refs = try? FavoritesFile.parse(text, label: "input") {
        for ref in refs {
            precondition(ref.id > 0, "accepted a reference with id \(ref.id)")
        }
    }
    let cell = String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
        scalar == "\t" || scalar == "\n" || !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || TerminalText.isBidiControl(scalar))
    }))
    let record = JSONValue.object([("source", .string("xkcd")), ("id", .int(1)), ("title", .string(cell))])
    for (format, separator) in [(OutputFormat.csv, Character(",")), (.tsv, "\t")] {
        let written = Records.render([record], as: format, columns: ["source", "id", "title"])
        let rows = format == .csv ? (try? DelimitedText.rows(written, separator: separator, label: "csv")) : DelimitedText.tsvRows(written)
        precondition(rows?.last?.last == cell, "\(format) did not read back \(cell.debugDescription) from \(written.debugDescription)")
        // Bytes, not characters: a combining mark at the cell's start is one character with the separator.
        let prefix = Array("source\(separator)id\(separator)title\(format == .csv ? "\r\n" : "\n")xkcd\(separator)1\(separator)".utf8)
        precondition(written.utf8.starts(with: prefix), "\(format) wrote no record")
        let first = String(decoding: written.utf8.dropFirst(prefix.count), as: UTF8.self).unicodeScalars.first { $0 != "\"" }
        precondition(!(first.map { ["=", "+", "-", "@", "\t"].contains($0) } ?? false), "\(format) wrote a formula")
    }
    return 0
}
