extension StringProtocol {
    /// Without leading and trailing whitespace and newlines. Foundation's
    /// `trimmingCharacters(in:)` would pull ICU into the binary, and with it
    /// a slower start for every command.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
