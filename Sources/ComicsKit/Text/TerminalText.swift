/// Makes untrusted text safe to print on a terminal: escape sequences
/// (CSI, OSC, DCS and the rest), C0 and C1 controls, DEL and the bidi
/// controls that can reorder what a reader sees are removed, scalar by
/// scalar. Newline and tab survive unless the text must fit on one line.
public enum TerminalText {
    public static func sanitize(_ text: String, singleLine: Bool = false) -> String {
        // Printable ASCII, most of what is printed, has nothing to remove.
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text }
        var output = String.UnicodeScalarView()
        var state = State.text
        for scalar in text.unicodeScalars {
            switch state {
            case .text:
                state = emit(scalar, into: &output, singleLine: singleLine)
            case .escape:
                state = afterEscape(scalar)
            case .controlSequence:
                // CSI: parameter and intermediate bytes, then one final byte 0x40–0x7E.
                if (0x40...0x7E).contains(scalar.value) {
                    state = .text
                } else if !(0x20...0x3F).contains(scalar.value) {
                    state = emit(scalar, into: &output, singleLine: singleLine)
                }
            case .controlString:
                // OSC, DCS, SOS, PM, APC: everything up to BEL or ST.
                if scalar.value == 0x07 || scalar.value == 0x9C {
                    state = .text
                } else if scalar.value == 0x1B {
                    state = .controlStringEscape
                }
            case .controlStringEscape:
                state = scalar == "\\" ? .text : .controlString
            }
        }
        return String(output)
    }

    /// True for the scalars that reorder text: LRE…RLO, LRI…PDI, LRM, RLM, ALM.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    private enum State {
        case text, escape, controlSequence, controlString, controlStringEscape
    }

    private static func emit(
        _ scalar: Unicode.Scalar, into output: inout String.UnicodeScalarView, singleLine: Bool
    ) -> State {
        switch scalar.value {
        case 0x1B: return .escape
        case 0x9B: return .controlSequence
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: return .controlString
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
        return .text
    }

    private static func afterEscape(_ scalar: Unicode.Scalar) -> State {
        switch scalar {
        case "[": .controlSequence
        case "]", "P", "X", "^", "_": .controlString
        case "\u{1B}": .escape
        default: .text
        }
    }
}
