import ComicsKit
import Glibc

/// Opens a web page the way the desktop would: `$BROWSER` (a command;
/// the URL is its one argument, never text for a shell), else `xdg-open`.
/// The browser runs detached, in a session of its own, with /dev/null for
/// its input and output, so nothing it prints reaches the screen.
struct BrowserOpener {
    let command: String

    init?(environment: [String: String]) {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = (environment["BROWSER"].map { [$0] } ?? []) + ["xdg-open"]
        for candidate in candidates where !candidate.isEmpty {
            let found = candidate.contains("/") ? candidate
                : path.split(separator: ":").map { "\($0)/\(candidate)" }.first { access($0, X_OK) == 0 }
            if let found, access(found, X_OK) == 0 {
                command = found
                return
            }
        }
        return nil
    }

    /// Only http and https pages are opened.
    func open(_ url: String, environment: [String: String]) -> Bool {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else { return false }
        return spawnDetached([command, url], environment: environment)
    }
}
