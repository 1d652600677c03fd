/// Numbers with one decimal for people ("12.5"). `String(format:)` would
/// pull Foundation's ICU into the binary for two call sites.
enum OneDecimal {
    static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
