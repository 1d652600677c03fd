import ComicsKit
import Glibc

/// Reads back what `comics fav list` exports: a JSON array, NDJSON, CSV or
/// TSV, told apart by their first character and header. Only `source` and
/// `id` matter; every other field is refetched rather than trusted.
enum FavoritesFile {
    /// Larger files are refused before they are read whole.
    static let maximumBytes = 64 << 20

    /// More records than this in one file are refused before any is read:
    /// each not cached costs upstream a request.
    static let maximumRecords = Catalog.largestFavoriteCount

    static func load(_ name: String) throws -> [ItemRef] {
        let bytes = name == "-" ? try readStandardInput() : try readFile(name)
        let label = name == "-" ? "standard input" : name
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw problem("\(label) is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return try parse(text, label: label)
    }

    static func parse(_ text: String, label: String) throws -> [ItemRef] {
        let trimmed = text.drop { $0.isWhitespace }
        switch trimmed.first {
        case nil:
            return []
        case "[":
            guard case let .array(records) = try json(text, label: label) else {
                throw problem("\(label) is not a JSON array of favourites")
            }
            try checkCount(records.count, label: label)
            return try records.enumerated().map { try ref(in: $1, at: "\(label) record \($0 + 1)") }
        case "{":
            if let single = try? JSONValue.parse(text) { return [try ref(in: single, at: label)] }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { $0.element.contains { !$0.isWhitespace } }
            try checkCount(lines.count, label: label)
            return try lines.map { index, line in
                try ref(in: try json(String(line), label: "\(label) line \(index + 1)"), at: "\(label) line \(index + 1)")
            }
        default:
            return try delimited(text, label: label)
        }
    }

    private static func checkCount(_ count: Int, label: String) throws {
        guard count <= maximumRecords else {
            throw ComicsError.usage(
                "\(label) holds \(count) records, more than the \(maximumRecords) one import takes",
                hint: "split it, or import only the favourites you want")
        }
    }

    private static func json(_ text: String, label: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            throw problem("\(label) is not valid JSON (\(error))")
        }
    }

    private static func ref(in record: JSONValue, at location: String) throws -> ItemRef {
        guard case .object = record else { throw problem("\(location) is not an object with source and id") }
        let id: Int? = switch record["id"] {
        case let .int(number)?: number
        case let .string(text)?: Int(text)
        default: nil
        }
        return try ref(source: record["source"]?.stringValue, id: id, at: location)
    }

    private static func ref(source: String?, id: Int?, at location: String) throws -> ItemRef {
        guard let sourceText = source else { throw problem("\(location) has no source") }
        guard let name = SourceName(userInput: sourceText) else {
            throw problem("\(location) names an unknown source \(MessageText.quoted(sourceText))")
        }
        guard let id, id > 0 else { throw problem("\(location) has no id, or one that is not a positive whole number") }
        guard id <= name.largestID else {
            throw problem("\(location) has id \(id); \(name.rawValue) ids go from 1 to \(name.largestID)")
        }
        return ItemRef(source: name, id: id)
    }

    /// CSV (RFC 4180) or TSV (escaped, never quoted) with a header row that
    /// names `source` and `id`.
    private static func delimited(_ text: String, label: String) throws -> [ItemRef] {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        let rows = firstLine.contains("\t")
            ? DelimitedText.tsvRows(text) : try DelimitedText.rows(text, separator: ",", label: label)
        guard let header = rows.first,
              let sourceColumn = header.firstIndex(of: "source"), let idColumn = header.firstIndex(of: "id")
        else {
            throw problem("\(label) is neither JSON nor CSV/TSV with a header naming source and id")
        }
        let records = rows.enumerated().dropFirst().filter { !$0.element.allSatisfy(\.isEmpty) }
        try checkCount(records.count, label: label)
        return try records.map { index, row in
            let location = "\(label) row \(index + 1)"
            guard row.count == header.count else {
                throw problem("\(location) has \(row.count) fields where the header has \(header.count)")
            }
            return try ref(source: row[sourceColumn], id: Int(row[idColumn]), at: location)
        }
    }

    private static func problem(_ message: String) -> ComicsError {
        .usage(message, hint: "'comics fav import' reads what 'comics fav list --format json|ndjson|csv|tsv' writes")
    }

    private static func readFile(_ path: String) throws -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ComicsError.usage("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw ComicsError.usage("\(path) is a directory, not a file") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ComicsError.usage("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        return try readAll(descriptor, label: path)
    }

    private static func readStandardInput() throws -> [UInt8] {
        try readAll(STDIN_FILENO, label: "standard input")
    }

    private static func readAll(_ descriptor: Int32, label: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ComicsError.usage("cannot read \(label): \(String(cString: strerror(errno)))") }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > maximumBytes {
                throw ComicsError.usage("\(label) is larger than \(maximumBytes >> 20) MiB; that is no favourites export")
            }
        }
    }
}

/// RFC 4180 fields: quoted fields may hold separators, quotes (doubled) and
/// line breaks; records end with CRLF or LF. TSV: a record a line, fields
/// between tabs, `\t`, `\n`, `\r` and `\\` unescaped. Either way a cell
/// written behind a `'` because it began like a formula is read back as it was.
enum DelimitedText {
    /// Scalar by scalar, as `rows`: a backslash after a prepended mark
    /// would otherwise be part of one character with it.
    static func tsvRows(_ text: String) -> [[String]] {
        let scalars = text.unicodeScalars
        return scalars.split(separator: "\n", omittingEmptySubsequences: false).dropLast(scalars.last == "\n" ? 1 : 0).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { FormulaCells.restored(unescapedTSVField($0)) }
        }
    }

    private static func unescapedTSVField(_ field: Substring.UnicodeScalarView) -> String {
        var output = String.UnicodeScalarView()
        var escaping = false
        for scalar in field {
            if escaping {
                switch scalar {
                case "t": output.append("\t")
                case "n": output.append("\n")
                case "r": output.append("\r")
                default: output.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Read scalar by scalar: as characters, a quote or separator after a
    /// prepended mark (U+06DD, U+0600…) would be one character with it,
    /// and no longer end the field.
    static func rows(_ text: String, separator: Character, label: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = String.UnicodeScalarView()
        var inQuotes = false
        let separator = separator.unicodeScalars.first ?? ","
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        func endField() {
            row.append(FormulaCells.restored(String(field)))
            field = String.UnicodeScalarView()
        }
        while let scalar = pending {
            pending = scalars.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = scalars.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(scalar)
                }
            } else if scalar == "\"" && field.isEmpty {
                inQuotes = true
            } else if scalar == separator {
                endField()
            } else if scalar == "\n" || scalar == "\r" {
                if scalar == "\r", pending == "\n" { pending = scalars.next() }
                endField()
                rows.append(row)
                row = []
            } else {
                field.append(scalar)
            }
        }
        guard !inQuotes else { throw ComicsError.usage("\(label) ends inside a quoted field") }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        return rows
    }
}
