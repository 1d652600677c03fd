import ComicsKit
import Glibc

/// Opens a web page the way the desktop would. `$BROWSER` follows its
/// convention: a colon-separated list tried in order, each entry a command
/// with arguments (split at spaces, never given to a shell), `%s` standing
/// for the URL, else the URL added as the last argument; then `xdg-open`.
/// A browser that runs in the terminal (lynx, w3m, …) gets the terminal
/// and is waited for; any other runs detached, in a session of its own,
/// with /dev/null for its input and output, so nothing it prints reaches
/// the screen.
struct BrowserOpener {
    /// The command found and its arguments, `%s` still in them.
    let entry: [String]

    /// Browsers that draw in the terminal they are started from.
    static let terminalBrowsers: Set<String> = ["lynx", "w3m", "links", "links2", "elinks", "browsh", "carbonyl", "www-browser"]

    var command: String { entry[0] }

    /// Whether the browser needs the terminal comics is running in.
    var needsTerminal: Bool {
        Self.terminalBrowsers.contains(String(command.split(separator: "/").last ?? ""))
    }

    init?(environment: [String: String]) {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let listed = (environment["BROWSER"] ?? "").split(separator: ":").map { $0.split(separator: " ").map(String.init) }
        for candidate in listed + [["xdg-open"]] where !candidate.isEmpty {
            let name = candidate[0]
            let found = name.contains("/") ? name : path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
            if let found, access(found, X_OK) == 0 {
                entry = [found] + candidate.dropFirst()
                return
            }
        }
        return nil
    }

    /// The command line for `url`: `%s` replaced, or the URL appended.
    func arguments(for url: String) -> [String] {
        let arguments = entry.dropFirst()
        guard arguments.contains(where: { $0.includes("%s") }) else { return entry + [url] }
        return [command] + arguments.map { $0.replacingEvery("%s", with: url) }
    }

    /// Only http and https pages are opened. A terminal browser runs in
    /// the foreground (the caller gives the screen up first); the result
    /// is whether it started, and for a detached one its pid, to reap.
    func open(_ url: String, environment: [String: String]) -> (started: Bool, detached: pid_t?) {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else { return (false, nil) }
        if needsTerminal { return (runInForeground(arguments(for: url), environment: environment) != nil, nil) }
        let pid = spawnDetached(arguments(for: url), environment: environment)
        return (pid != nil, pid)
    }
}
