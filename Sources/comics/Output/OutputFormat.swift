import ComicsKit
import Foundation

/// The `--format` values.
enum OutputFormat: String, CaseIterable {
    case table, json, ndjson, csv, tsv

    static func parse(_ text: String?) throws -> OutputFormat {
        guard let text else { return .table }
        guard let format = OutputFormat(rawValue: text.lowercased()) else {
            throw ComicsError.usage(
                "unknown format '\(text)'", hint: "use one of: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }
}

/// Machine-readable records: the spec's fields, in a fixed order, for json,
/// ndjson, csv and tsv alike.
enum Records {
    static func item(_ cached: CachedItem) -> JSONValue {
        let item = cached.item
        var members: [(String, JSONValue)] = [
            ("source", .string(item.ref.source.rawValue)),
            ("id", .int(item.ref.id)),
            ("title", .string(item.title)),
            ("url", .string(item.url)),
            ("favorite", .bool(cached.isFavorite)),
            ("cached_at", .string(timestamp(cached.cachedAt))),
        ]
        members += item.attributes.map { ($0.key, $0.value) }
        return .object(members)
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Prints records in a machine format. `single` prints one object
    /// rather than an array (`show --format json`).
    static func render(_ records: [JSONValue], as format: OutputFormat, single: Bool = false) -> String {
        switch format {
        case .json:
            return (single && records.count == 1 ? records[0] : .array(records)).prettySerialized + "\n"
        case .ndjson, .table:
            return records.map { $0.serialized + "\n" }.joined()
        case .csv:
            return delimited(records, separator: ",", lineEnd: "\r\n")
        case .tsv:
            return delimited(records, separator: "\t", lineEnd: "\n")
        }
    }

    /// A header row of every key seen (first-seen order), then one row per
    /// record, quoted as RFC 4180 says; nested values are written as JSON.
    private static func delimited(_ records: [JSONValue], separator: String, lineEnd: String) -> String {
        var columns: [String] = []
        for case let .object(members) in records {
            for (key, _) in members where !columns.contains(key) {
                columns.append(key)
            }
        }
        if columns.isEmpty { columns = ["source", "id", "title", "url", "favorite", "cached_at"] }
        var output = columns.map { quoted($0, separator: separator) }.joined(separator: separator) + lineEnd
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
            output += cells.map { quoted($0, separator: separator) }.joined(separator: separator) + lineEnd
        }
        return output
    }

    private static func quoted(_ cell: String, separator: String) -> String {
        guard cell.contains(separator) || cell.contains("\"") || cell.contains("\n") || cell.contains("\r") else {
            return cell
        }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
