import ComicsKit

/// libFuzzer target for the terminal sanitizer, checking its promise on
/// every input: no control, DEL, C1 or bidi scalar survives (newline and
/// tab only in multi-line text), and sanitizing twice changes nothing.
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
    return 0
}
