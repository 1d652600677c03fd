/// What a message echoes of its input: arguments, settings and file fields
/// can be megabytes, and an error is one line a person reads.
public enum MessageText {
    /// The most characters of input one message repeats.
    public static let quotedLimit = 200

    /// The most items one message names; the rest are counted.
    public static let listedLimit = 20

    /// `'text'`, cut to `quotedLimit` scalars with "…".
    public static func quoted(_ text: some StringProtocol) -> String {
        "'\(UpstreamText.capped(String(text), quotedLimit))'"
    }

    /// `url` without a user name or password (`COMICS_*_URL` may carry
    /// them): what a message or `-v` prints of an address.
    public static func withoutCredentials(_ url: String) -> String {
        guard url.contains("@") else { return url }
        guard var address = WebAddress(url) else { return "an address comics cannot read" }
        address.user = nil
        address.password = nil
        return address.text
    }

    /// "a, b, c" or, past `listedLimit`, "a, b, … and 480 more".
    public static func listed(_ names: [String]) -> String {
        guard names.count > listedLimit else { return names.joined(separator: ", ") }
        return names.prefix(listedLimit).joined(separator: ", ") + ", … and \(names.count - listedLimit) more"
    }
}
