/// Repairs UTF-8 text that was decoded as Latin-1 or Windows-1252 somewhere
/// upstream and encoded again ("CafÃ©" for "Café", "itâ€™s" for "it’s",
/// "â\u{86}\u{92}" for "→"), a quirk of the xkcd archive.
///
/// Each run is judged on its own, so a field that mixes repaired and
/// correct text ("Witnesses â\u{86}\u{92} these dudes" beside "Pokédex")
/// is mended where it is broken and kept where it is not. A run is a
/// scalar that stands for a UTF-8 lead byte followed by the scalars that
/// stand for its continuation bytes, each read back as Latin-1 (which
/// puts bytes 0x80–0x9F on the C1 controls) or as Windows-1252 (which
/// puts most of them on punctuation); only a run that forms one valid
/// UTF-8 sequence is replaced. A lone "Ã" before a letter and every
/// scalar above U+00FF stay as they are.
///
/// A C1 control left after that (one no lead byte stands before) is a
/// Windows-1252 byte read as Latin-1: the punctuation it stands for
/// ("Hey\u{97}a tip" is "Hey—a tip", U+0085 is "…", not a line break), as
/// ftfy's `fix_c1_controls` has it; the five bytes Windows-1252 leaves
/// undefined stand for nothing and are removed.
public enum Mojibake {
    public static func repair(_ text: String) -> String {
        replacingLoneC1Controls(repairingRuns(text))
    }

    /// The C1 controls of `text` as the Windows-1252 characters they stand for.
    public static func replacingLoneC1Controls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) {
                if let punctuation = windows1252Character[UInt8(scalar.value)] { output.append(punctuation) }
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    private static func repairingRuns(_ text: String) -> String {
        // A run starts with a scalar from U+00C2 to U+00F4; most text has none.
        guard text.unicodeScalars.contains(where: { (0xC2...0xF4).contains($0.value) }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if let (decoded, length) = sequence(in: scalars, at: index) {
                output.append(decoded)
                index += length
            } else {
                output.append(scalars[index])
                index += 1
            }
        }
        return String(output)
    }

    /// The scalar a mis-decoded UTF-8 sequence at `start` stands for, and
    /// how many scalars it spans; nil unless the bytes form a valid sequence
    /// (no overlong forms, no surrogates, nothing above U+10FFFF).
    private static func sequence(in scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        guard let lead = byte(for: scalars[start]) else { return nil }
        let length: Int, smallest: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, smallest, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, smallest, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, smallest, value) = (4, 0x1_0000, UInt32(lead & 0x07))
        default: return nil
        }
        guard start + length <= scalars.count else { return nil }
        for offset in 1..<length {
            guard let continuation = byte(for: scalars[start + offset]), continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The byte a scalar stands for when text was read as Latin-1 or as
    /// Windows-1252; nil for a scalar neither reading produces.
    private static func byte(for scalar: Unicode.Scalar) -> UInt8? {
        scalar.value <= 0xFF ? UInt8(scalar.value) : windows1252[scalar]
    }

    /// The Windows-1252 characters that stand where Latin-1 has C1 controls.
    static let windows1252: [Unicode.Scalar: UInt8] = [
        "€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87,
        "ˆ": 0x88, "‰": 0x89, "Š": 0x8A, "‹": 0x8B, "Œ": 0x8C, "Ž": 0x8E, "‘": 0x91,
        "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95, "–": 0x96, "—": 0x97, "˜": 0x98,
        "™": 0x99, "š": 0x9A, "›": 0x9B, "œ": 0x9C, "ž": 0x9E, "Ÿ": 0x9F,
    ]

    /// Windows-1252's reading of the bytes 0x80–0x9F; the five it leaves
    /// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are absent.
    static let windows1252Character = Dictionary(uniqueKeysWithValues: windows1252.map { ($1, $0) })
}
