extension StringProtocol {
    /// Without leading and trailing whitespace and newlines. Foundation's
    /// `trimmingCharacters(in:)` would pull ICU into the binary, and with it
    /// a slower start for every command.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

private extension Unicode.Scalar {
    var isWhitespace: Bool {
        switch value {
        case 0x20, 0x09...0x0D: true
        case 0..<0x80: false
        default: properties.isWhitespace
        }
    }
}
