extension SQLiteCacheStore {
    public func replacePictures(_ ref: ItemRef, _ pictures: [TextPicture]) throws {
        try guarded {
            try database.writeTransaction {
                try database.run("DELETE FROM text_pictures WHERE source = ? AND id = ?", Self.key(ref))
                for (ordinal, picture) in pictures.enumerated() {
                    let (state, reason) = Self.stored(picture.state)
                    try database.run("""
                        INSERT OR IGNORE INTO text_pictures (source, id, path, ordinal, url, state, reason) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, Self.key(ref) + [.text(picture.path), .integer(Int64(ordinal)), .text(picture.url), .text(state), .optionalText(reason)])
                }
            }
        }
    }

    public func pictures(_ ref: ItemRef) throws -> [TextPicture] {
        try guarded {
            try database.query("""
                SELECT path, url, state, reason, width, height, length(body) FROM text_pictures WHERE source = ? AND id = ? ORDER BY ordinal
                """, Self.key(ref)).compactMap { row in
                guard let path = row[0].text, let url = row[1].text else { return nil }
                let reason = row[3].text.map { UpstreamText.capped($0, 500) }
                let state: TextPicture.State = switch row[2].text {
                case "kept": .kept(width: row[4].int ?? 0, height: row[5].int ?? 0, bytes: row[6].int ?? 0)
                case "skipped": .skipped(reason ?? "skipped")
                default: .wanted(failure: reason)
                }
                return TextPicture(path: path, url: url, state: state)
            }
        }
    }

    public func updatePicture(_ ref: ItemRef, path: String, state: TextPicture.State, body: [UInt8]?) throws {
        let (name, reason) = Self.stored(state)
        var size: (SQLiteValue, SQLiteValue) = (.null, .null)
        if case let .kept(width, height, _) = state { size = (.integer(Int64(width)), .integer(Int64(height))) }
        try guarded {
            try database.run("""
                UPDATE text_pictures SET state = ?, reason = ?, width = ?, height = ?, body = ? WHERE source = ? AND id = ? AND path = ?
                """, [.text(name), .optionalText(reason), size.0, size.1, body.map(SQLiteValue.blob) ?? .null] + Self.key(ref) + [.text(path)])
        }
    }

    public func pictureBytes(_ ref: ItemRef, path: String) throws -> [UInt8]? {
        try guarded {
            try database.query(
                "SELECT body FROM text_pictures WHERE source = ? AND id = ? AND path = ? AND state = 'kept'",
                Self.key(ref) + [.text(path)]).first?[0].bytes
        }
    }

    public func pictureSizes(_ ref: ItemRef, paths: [String]) throws -> [String: PictureSize] {
        guard !paths.isEmpty else { return [:] }
        let wanted = JSONValue.array(paths.map(JSONValue.string)).serialized
        return try guarded {
            var sizes: [String: PictureSize] = [:]
            for row in try database.query("""
                SELECT path, width, height FROM text_pictures
                WHERE source = ? AND id = ? AND state = 'kept' AND path IN (SELECT value FROM json_each(?))
                """, Self.key(ref) + [.text(wanted)]) {
                // Sizes past the caps are a damaged row: no picture.
                guard let path = row[0].text, let width = row[1].int(in: 1...ImageHeader.maximumSide),
                      let height = row[2].int(in: 1...ImageHeader.maximumSide)
                else { continue }
                sizes[path] = PictureSize(width: width, height: height)
            }
            return sizes
        }
    }

    private static func stored(_ state: TextPicture.State) -> (state: String, reason: String?) {
        switch state {
        case let .wanted(failure): ("wanted", failure)
        case .kept: ("kept", nil)
        case let .skipped(reason): ("skipped", reason)
        }
    }
}
