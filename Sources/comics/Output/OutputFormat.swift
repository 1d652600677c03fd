import ComicsKit
import struct FoundationEssentials.Date

/// The `--format` values.
enum OutputFormat: String, CaseIterable {
    case table, json, ndjson, csv, tsv

    static func parse(_ text: String?) throws -> OutputFormat {
        guard let text else { return .table }
        guard let format = OutputFormat(rawValue: text.lowercased()) else {
            throw ComicsError.usage(
                "unknown format \(MessageText.quoted(text))", hint: "use one of: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }
}

/// Machine-readable records: the spec's fields, in a fixed order, for json,
/// ndjson, csv and tsv alike.
enum Records {
    /// The fields every record has, before its source's own.
    static let commonKeys = ["source", "id", "title", "url", "favorite", "cached_at", "stale"]

    /// The columns of a csv/tsv export that may hold items of these sources.
    static func columns(for sources: [ItemSource]) -> [String] {
        commonKeys + sources.flatMap(\.attributeKeys)
    }

    /// `stale`: older than the detail TTL (the catalog decides).
    static func item(_ cached: CachedItem, stale: Bool) -> JSONValue {
        let item = cached.item
        let common: [JSONValue] = [
            .string(item.ref.source.rawValue), .int(item.ref.id), .string(item.title), .string(item.url),
            .bool(cached.isFavorite), .string(CivilTime.timestamp(cached.cachedAt)), .bool(stale),
        ]
        return .object(Array(zip(commonKeys, common)) + item.attributes.map { ($0.key, $0.value) })
    }

    /// The fields that name an item in a record about something of it (a
    /// search hit, a text got or removed, a section): `source`, `id`, and
    /// `ref` as the commands take it.
    static func identity(_ ref: ItemRef) -> [(String, JSONValue)] {
        [("source", .string(ref.source.rawValue)), ("id", .int(ref.id)), ("ref", .string(ref.description))]
    }

    /// An item not cached yet, such as a favourite waiting for the network:
    /// what is known without fetching.
    static func notCached(_ ref: ItemRef, url: String, favorite: Bool = true) -> JSONValue {
        .object([
            ("source", .string(ref.source.rawValue)), ("id", .int(ref.id)), ("title", .null), ("url", .string(url)),
            ("favorite", .bool(favorite)), ("cached_at", .null), ("stale", .bool(true)),
        ])
    }

    /// Prints records in a machine format; `columns` are the csv/tsv header.
    /// `single` prints one object rather than an array (`show --format json`).
    static func render(_ records: [JSONValue], as format: OutputFormat, columns: [String], single: Bool = false) -> String {
        switch format {
        case .json:
            return (single && records.count == 1 ? records[0] : .array(records)).prettySerialized + "\n"
        case .ndjson, .table:
            return records.map { $0.serialized + "\n" }.joined()
        case .csv:
            return delimited(records, columns: columns, separator: ",", lineEnd: "\r\n", field: csvField)
        case .tsv:
            return delimited(records, columns: columns, separator: "\t", lineEnd: "\n", field: tsvField)
        }
    }

    /// A header row, then one row per record; nested values are written as
    /// JSON, absent ones as empty cells.
    private static func delimited(
        _ records: [JSONValue], columns: [String], separator: String, lineEnd: String, field: (String) -> String
    ) -> String {
        var output = columns.map(field).joined(separator: separator) + lineEnd
        for record in records {
            let cells = columns.map { column -> String in
                switch record[column] {
                case nil, .null?: ""
                case let .string(text)?: text
                case let .bool(flag)?: flag ? "true" : "false"
                case let .int(number)?: String(number)
                case let value?: value.serialized
                }
            }
            output += cells.map(field).joined(separator: separator) + lineEnd
        }
        return output
    }

    /// RFC 4180: quoted when it holds a comma, a quote or a line break.
    /// No other control character is written raw: they are dropped. Scalar
    /// by scalar: a quote under a combining mark is one character with it,
    /// and must still be doubled.
    private static func csvField(_ raw: String) -> String {
        // A line break inside a field is a line feed: the only CR is CRLF's.
        let cell = FormulaCells.neutralized(String(String.UnicodeScalarView(withoutStrayControls(raw).unicodeScalars.filter { $0 != "\r" })))
        guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return cell }
        var quoted = String.UnicodeScalarView(["\""])
        for scalar in cell.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// C0 controls but line breaks and tab, DEL, the C1 controls and the
    /// bidi controls that reorder what a reader sees.
    private static func isStrayControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00..<0x20, 0x7F...0x9F: true
        default: TerminalText.isBidiControl(scalar)
        }
    }

    private static func withoutStrayControls(_ text: String) -> String {
        text.unicodeScalars.contains(where: isStrayControl)
            ? String(String.UnicodeScalarView(text.unicodeScalars.filter { !isStrayControl($0) })) : text
    }

    /// TSV as PostgreSQL's text format and `jq @tsv` write it: never quoted,
    /// one record a line, so tab, line feed, carriage return and backslash
    /// are escaped as `\t`, `\n`, `\r` and `\\`; other controls are dropped.
    static func tsvField(_ raw: String) -> String {
        let cell = FormulaCells.neutralized(withoutStrayControls(raw))
        guard cell.unicodeScalars.contains(where: { ["\t", "\n", "\r", "\\"].contains($0) }) else { return cell }
        var escaped = String.UnicodeScalarView()
        for scalar in cell.unicodeScalars {
            switch scalar {
            case "\t": escaped.append(contentsOf: "\\t".unicodeScalars)
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\r".unicodeScalars)
            case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

/// CSV injection, as OWASP describes it: a spreadsheet opening an export
/// runs a cell that begins with `=`, `+`, `-` or `@` (or a tab or carriage
/// return before one) as a formula, `=cmd|' /C calc'!A0` and
/// `=HYPERLINK(…)` included. Such a cell is written behind a `'`, which a
/// spreadsheet shows as text; so is one where quotes (`'` or `"`, which a
/// spreadsheet may take as quoting a TSV cell) come first, so that
/// `fav import` can take exactly one `'` off and read every cell back.
enum FormulaCells {
    static func neutralized(_ cell: String) -> String {
        startsLikeAFormula(cell.unicodeScalars[...]) ? "'" + cell : cell
    }

    /// The cell as written before `neutralized`.
    static func restored(_ cell: String) -> String {
        let scalars = cell.unicodeScalars
        guard scalars.first == "'", startsLikeAFormula(scalars.dropFirst()) else { return cell }
        return String(scalars.dropFirst())
    }

    private static func startsLikeAFormula(_ cell: Substring.UnicodeScalarView) -> Bool {
        guard let first = cell.first(where: { $0 != "'" && $0 != "\"" }) else { return false }
        return ["=", "+", "-", "@", "\t", "\r"].contains(first)
    }
}
