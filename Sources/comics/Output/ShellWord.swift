/// A word as a POSIX shell reads it back: printed for a person to paste.
enum ShellWord {
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.,:/+@%=".unicodeScalars.contains(scalar))
        }
        return plain ? text : "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }
}
