/// Decodes the HTML character references that upstream titles carry
/// (`Clich&eacute;d`, `&amp;`, `&#8217;`), leaving anything it does not
/// recognise as it was.
public enum HTMLEntities {
    public static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&", let (decoded, next) = reference(in: text, at: index) {
                output.unicodeScalars.append(decoded)
                index = next
            } else {
                output.append(text[index])
                index = text.index(after: index)
            }
        }
        return output
    }

    private static func reference(in text: String, at start: String.Index) -> (Unicode.Scalar, String.Index)? {
        let bodyStart = text.index(after: start)
        guard let semicolon = text[bodyStart...].prefix(12).firstIndex(of: ";") else { return nil }
        let body = text[bodyStart..<semicolon]
        let next = text.index(after: semicolon)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, next)
        }
        guard let scalar = named[String(body)] else { return nil }
        return (scalar, next)
    }

    private static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "euml": "ë", "aacute": "á", "agrave": "à",
        "acirc": "â", "auml": "ä", "aring": "å", "iacute": "í", "iuml": "ï", "oacute": "ó",
        "ocirc": "ô", "ouml": "ö", "uacute": "ú", "uuml": "ü", "ntilde": "ñ", "ccedil": "ç",
        "Eacute": "É", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß", "oslash": "ø",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’",
        "ldquo": "“", "rdquo": "”", "copy": "©", "reg": "®", "trade": "™", "deg": "°",
        "times": "×", "divide": "÷", "middot": "·", "pi": "π", "frac12": "½", "eth": "ð",
    ]
}
