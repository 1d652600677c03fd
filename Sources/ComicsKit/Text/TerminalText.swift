/// Makes untrusted text safe to print on a terminal. A complete escape
/// sequence (CSI … final byte; OSC, DCS, SOS, PM or APC … BEL or ST; a
/// two-character escape) is removed whole. Any other control, a C0 or C1
/// control, DEL, or an introducer whose sequence never completes, is
/// removed alone, so a stray control costs nothing but itself: the text
/// after it is kept. Bidi controls that can reorder what a reader sees go
/// too. Newline and tab survive unless the text must fit on one line.
public enum TerminalText {
    public static func sanitize(_ text: String, singleLine: Bool = false) -> String {
        // Most text (a book's curly quotes too) has nothing to remove: told
        // from its bytes, without decoding a scalar.
        if !mayNeedWork(text, singleLine: singleLine) { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if let end = endOfEscapeSequence(in: scalars, at: index) {
                index = end
                continue
            }
            emit(scalars[index], into: &output, singleLine: singleLine)
            index += 1
        }
        return String(output)
    }

    /// False when no scalar of `text` `needsWork`, read in its UTF-8: the
    /// C0 and C1 controls, DEL, the line and paragraph separators and the
    /// bidi controls each have bytes of their own to look for.
    static func mayNeedWork(_ text: String, singleLine: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count, isPrintableASCII(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                switch byte {
                case 0x0A, 0x09: if singleLine { return true }
                case 0x00..<0x20, 0x7F: return true
                case 0xC2: if index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                case 0xD8: if index + 1 < bytes.count, bytes[index + 1] == 0x9C { return true }
                case 0xE2:
                    if index + 2 < bytes.count {
                        let (second, third) = (bytes[index + 1], bytes[index + 2])
                        if second == 0x80, third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third) { return true }
                        if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                    }
                default: break
                }
                index += 1
            }
            return false
        }
    }

    /// True when each of the word's eight bytes is 0x20 to 0x7E: nothing
    /// in them needs work, whatever `singleLine` says.
    private static func isPrintableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- 0x20 &* ones) & ~word & highs
        let delete = word ^ (0x7F &* ones)
        let isDelete = (delete &- ones) & ~delete & highs
        return (word & highs) | below | isDelete == 0
    }

    /// A scalar `emit` would not copy as it is, or that starts a sequence.
    private static func needsWork(_ scalar: Unicode.Scalar, singleLine: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: singleLine
        case 0x00..<0x20, 0x7F, 0x80...0x9F, 0x2028, 0x2029: true
        default: isBidiControl(scalar)
        }
    }

    /// True for the scalars that reorder text: LRE…RLO, LRI…PDI, LRM, RLM, ALM.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// Where the escape sequence that starts at `start` ends (the index
    /// after it), or nil when no complete sequence starts there. Every scan
    /// stops at the first scalar that cannot belong to the sequence, so the
    /// whole text is read in linear time however many introducers it holds.
    private static func endOfEscapeSequence(in scalars: [Unicode.Scalar], at start: Int) -> Int? {
        switch scalars[start].value {
        case 0x1B:
            let next = start + 1
            guard next < scalars.count else { return nil }
            switch scalars[next].value {
            case 0x5B: return endOfControlSequence(in: scalars, from: next + 1)  // [
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F: return endOfControlString(in: scalars, from: next + 1)  // ] P X ^ _
            case 0x20...0x2F:
                // nF escape: intermediate bytes, then one final byte 0x30–0x7E.
                var index = next
                while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
                guard index < scalars.count, (0x30...0x7E).contains(scalars[index].value) else { return nil }
                return index + 1
            case 0x30...0x7E: return next + 1
            default: return nil
            }
        case 0x9B: return endOfControlSequence(in: scalars, from: start + 1)
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: return endOfControlString(in: scalars, from: start + 1)
        default: return nil
        }
    }

    /// CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, then
    /// one final byte 0x40–0x7E.
    private static func endOfControlSequence(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
        while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
        guard index < scalars.count, (0x40...0x7E).contains(scalars[index].value) else { return nil }
        return index + 1
    }

    /// OSC, DCS, SOS, PM, APC: printable text up to BEL or ST (ESC \ or
    /// 0x9C). A line break or any other control before it means it was
    /// never a control string.
    private static func endOfControlString(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            switch value {
            case 0x07, 0x9C: return index + 1
            case 0x1B: return index + 1 < scalars.count && scalars[index + 1] == "\\" ? index + 2 : nil
            case 0x00..<0x20, 0x7F...0x9F: return nil
            default: index += 1
            }
        }
        return nil
    }

    private static func emit(_ scalar: Unicode.Scalar, into output: inout String.UnicodeScalarView, singleLine: Bool) {
        switch scalar.value {
        case 0x09:
            output.append(singleLine ? " " : scalar)
        case 0x0A:
            // One line break is one space, CRLF included.
            if !singleLine {
                output.append(scalar)
            } else if output.last != " " {
                output.append(" ")
            }
        case 0x0D:
            if singleLine { output.append(" ") }
        case 0x00..<0x20, 0x7F, 0x80...0x9F: break
        default:
            if !isBidiControl(scalar) && scalar.value != 0x2028 && scalar.value != 0x2029 {
                output.append(scalar)
            }
        }
    }
}
