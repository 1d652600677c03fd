import ComicsKit

/// libFuzzer target for the text rules every upstream string meets, checking
/// their promises on every input. The terminal sanitizer: no control, DEL,
/// C1 or bidi scalar survives (newline and tab only in multi-line text),
/// sanitizing twice changes nothing, and where nothing could complete an
/// escape sequence (no ESC, CSI, BEL or ST) only the controls go. The
/// mojibake repair: the input's UTF-8 read back as Latin-1 repairs to it
/// (with any C1 control it held read as Windows-1252), and no C1 control
/// is left.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSanitizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for singleLine in [true, false] {
        let clean = TerminalText.sanitize(text, singleLine: singleLine)
        for scalar in clean.unicodeScalars {
            let value = scalar.value
            let allowedControl = !singleLine && (scalar == "\n" || scalar == "\t")
            precondition(allowedControl || !(value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)),
                         "control U+\(String(value, radix: 16)) survived")
            precondition(!TerminalText.isBidiControl(scalar), "bidi control U+\(String(value, radix: 16)) survived")
        }
        precondition(TerminalText.sanitize(clean, singleLine: singleLine) == clean, "sanitizing twice changed the text")
    }
    let completesSequences: Set<UInt32> = [0x1B, 0x9B, 0x07, 0x9C]
    if !text.unicodeScalars.contains(where: { completesSequences.contains($0.value) }) {
        let printable = text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value >= 0x20 || scalar == "\n" || scalar == "\t") && value != 0x7F && !(0x80...0x9F).contains(value)
                && !TerminalText.isBidiControl(scalar) && value != 0x2028 && value != 0x2029
        }
        precondition(TerminalText.sanitize(text) == String(String.UnicodeScalarView(printable)), "printable text was lost")
    }
    let latin1 = String(String.UnicodeScalarView(text.utf8.map { Unicode.Scalar($0) }))
    let repaired = Mojibake.repair(latin1)
    precondition(repaired == Mojibake.replacingLoneC1Controls(text), "mojibake was not undone")
    precondition(!repaired.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "a C1 control survived the repair")
    return 0
}
