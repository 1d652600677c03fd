/// Repairs UTF-8 text that was decoded as Latin-1 or Windows-1252 somewhere
/// upstream ("CafÃ©" for "Café", "itâ€™s" for "it’s"), a quirk of the xkcd
/// archive. Text is changed only when every scalar maps back to one byte and
/// those bytes form valid UTF-8 with at least one multi-byte sequence;
/// anything else is left alone.
public enum Mojibake {
    public static func repair(_ text: String) -> String {
        var bytes: [UInt8] = []
        var sawHighByte = false
        for scalar in text.unicodeScalars {
            guard let byte = scalar.value <= 0xFF ? UInt8(scalar.value) : windows1252[scalar] else { return text }
            if byte >= 0x80 { sawHighByte = true }
            bytes.append(byte)
        }
        guard sawHighByte, let repaired = String(validating: bytes, as: UTF8.self) else { return text }
        return repaired
    }

    /// The Windows-1252 characters that stand where Latin-1 has C1 controls.
    private static let windows1252: [Unicode.Scalar: UInt8] = [
        "€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87,
        "ˆ": 0x88, "‰": 0x89, "Š": 0x8A, "‹": 0x8B, "Œ": 0x8C, "Ž": 0x8E, "‘": 0x91,
        "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95, "–": 0x96, "—": 0x97, "˜": 0x98,
        "™": 0x99, "š": 0x9A, "›": 0x9B, "œ": 0x9C, "ž": 0x9E, "Ÿ": 0x9F,
    ]
}
