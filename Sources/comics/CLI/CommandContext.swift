import ComicsKit
import Glibc

/// Everything a command needs, resolved once from the arguments and the
/// environment; the database is opened only when a command asks for it.
final class CommandContext {
    let arguments: ParsedArguments
    let environment: [String: String]
    let format: OutputFormat
    /// The source named by `--source` or `COMICS_SOURCE`, if any.
    let explicitSource: SourceName?
    /// The source to browse: the explicit one, else xkcd.
    var source: SourceName { explicitSource ?? .xkcd }
    let mode: NetworkMode
    let isQuiet: Bool
    let isVerbose: Bool
    let terminal: Terminal
    let databasePath: String
    let query: ListQuery
    /// `--jobs`: requests in flight at once, where a command makes many.
    let concurrency: Int?
    private let xkcdURL: String
    private let gutendexURL: String
    /// `COMICS_GUTENBERG_URL`: a mirror that takes gutenberg.org's place for texts.
    private let gutenbergMirror: URLOrigin?
    private var openedCatalog: Catalog?
    /// Says what the network does: each request under -v, and a note on a
    /// terminal when an answer is slow.
    private let reporter: NetworkReporter
    /// The same, with a progress line while a text downloads.
    private let textReporter: NetworkReporter
    /// No --db and no COMICS_DB: the XDG location, whose folders comics makes.
    private let isDefaultDatabase: Bool

    /// `-f markdown`, which `comics notes` alone takes.
    let wantsMarkdown: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        self.arguments = arguments
        self.environment = environment
        // Markdown is a format of notes alone: a notebook's, not a record's.
        wantsMarkdown = arguments.value("format")?.lowercased() == "markdown" && arguments.commandPath == ["notes"]
        format = wantsMarkdown ? .table : try OutputFormat.parse(arguments.value("format"))
        explicitSource = try Self.source(arguments.value("source") ?? environment["COMICS_SOURCE"])
        let offline = arguments.has("offline") || Self.isTrue(environment["COMICS_OFFLINE"])
        if offline && arguments.has("refresh") {
            throw ComicsError.usage("--offline and --refresh contradict each other", hint: "use one of them")
        }
        mode = offline ? .offline : arguments.has("refresh") ? .refresh : .cacheFirst
        isQuiet = arguments.has("quiet")
        isVerbose = arguments.has("verbose") && !isQuiet
        reporter = NetworkReporter(verbose: isVerbose, quiet: isQuiet)
        textReporter = NetworkReporter(verbose: isVerbose, quiet: isQuiet, showsBodyProgress: true)
        terminal = Terminal.detect(noColorFlag: arguments.has("no-color"), environment: environment)
        databasePath = try Self.databasePath(option: arguments.value("db"), environment: environment)
        isDefaultDatabase = arguments.value("db") == nil && (environment["COMICS_DB"] ?? "").isEmpty
        query = try Self.query(arguments)
        concurrency = try arguments.value("jobs").map { text in
            guard let jobs = Int(text), (1...32).contains(jobs) else {
                throw ComicsError.usage("--jobs must be a whole number from 1 to 32, not \(MessageText.quoted(text))")
            }
            return jobs
        }
        xkcdURL = try Self.baseURL(environment["COMICS_XKCD_URL"], default: "https://xkcd.com", variable: "COMICS_XKCD_URL")
        gutendexURL = try Self.baseURL(
            environment["COMICS_GUTENDEX_URL"], default: "https://gutendex.com", variable: "COMICS_GUTENDEX_URL")
        gutenbergMirror = URLOrigin(try Self.baseURL(
            environment["COMICS_GUTENBERG_URL"], default: "https://www.gutenberg.org", variable: "COMICS_GUTENBERG_URL"))
    }

    /// The catalog over the database, opened (and migrated) on first use.
    func catalog() throws -> Catalog {
        if let openedCatalog { return openedCatalog }
        let catalog = try makeCatalog(mode: mode)
        info("database \(databasePath), schema version \(SQLiteCacheStore.schemaVersion)")
        Self.adoptSharedPictures(of: databasePath, into: imagesDirectory)
        if isVerbose { catalog.log = { [reporter] in reporter.info($0) } }
        openedCatalog = catalog
        return catalog
    }

    /// A catalog of its own (its own database connection and HTTP client),
    /// for a thread other than the one using `catalog()`; `reportsNetwork`
    /// false keeps `-v` and slow-network lines off a full screen.
    /// `textObserver` watches the downloads of books' texts instead of the
    /// terminal's reporter (the reader's progress line, and its Esc).
    func makeCatalog(mode: NetworkMode, reportsNetwork: Bool = true, textObserver: HTTPObserver? = nil) throws -> Catalog {
        let store = try SQLiteCacheStore(path: databasePath, createsDirectory: isDefaultDatabase)
        var settings = HTTPSettings()
        if let concurrency { settings.maxConcurrentRequests = concurrency }
        let http = CurlHTTPClient(settings: settings, observer: reportsNetwork ? reporter : nil)
        let sources: [ItemSource] = [
            XKCDSource(baseURL: xkcdURL, http: http),
            GutendexSource(baseURL: gutendexURL, http: http),
        ]
        let images = ItemImages(cache: FileImageCache(directory: imagesDirectory), http: http)
        let texts = GutenbergTexts(
            http: CurlHTTPClient(settings: GutenbergTexts.httpSettings, observer: textObserver ?? (reportsNetwork ? textReporter : nil)),
            mirror: gutenbergMirror)
        return Catalog(store: store, sources: sources, images: images, texts: texts, mode: mode)
    }

    /// Each database keeps its pictures in its own folder beside it
    /// (`comics.db.images`): two databases in one folder must never clean
    /// up each other's pictures.
    var imagesDirectory: String { databasePath + ".images" }

    /// Earlier versions kept the pictures of every database in a folder
    /// `images` beside it; the database named `comics.db` (the default) takes
    /// that folder over, once.
    /// It runs at every start, so it looks with access(2), not through URL
    /// and FileManager (a quarter of a million instructions).
    private static func adoptSharedPictures(of databasePath: String, into directory: String) {
        let name = "comics.db"
        guard databasePath == name || databasePath.hasSuffix("/" + name) else { return }
        let legacy = String(databasePath.dropLast(name.count)) + "images"
        guard access(legacy, F_OK) == 0, access(directory, F_OK) != 0 else { return }
        _ = rename(legacy, directory)
    }

    /// The listing query, refused with the flags at fault when the source
    /// cannot honour it (`--search` on xkcd). A source whose pages are the
    /// server's (books) does not ask for `--limit`: the caller shows the
    /// first N of the page instead (`trimmed`).
    func query(for source: ItemSource) throws -> ListQuery {
        let name = source.name.rawValue
        if query.hasFilters && !source.acceptsFilters {
            throw ComicsError.usage(
                "\(name) listings cannot be searched, filtered or sorted",
                hint: "--search, --language, --topic and --sort are for '--source books'")
        }
        return source.acceptsPageSize ? query : query.filtersOnly
    }

    /// At most `--limit` items, for what cannot ask upstream for fewer.
    func trimmed<Items: Collection>(_ items: Items) -> [Items.Element] {
        Array(query.limit.map { items.prefix($0) } ?? items[...])
    }

    func write(_ text: String) throws {
        try OutputSink.writeStdout(text)
    }

    func warn(_ message: String) {
        if !isQuiet { OutputSink.writeStderr("comics: warning: \(TerminalText.sanitize(message, singleLine: true))\n") }
    }

    /// A remark for people, such as why nothing was printed; `--quiet` silences it.
    func note(_ message: String) {
        if !isQuiet { OutputSink.writeStderr("comics: note: \(TerminalText.sanitize(message, singleLine: true))\n") }
    }

    /// A line that rewrites itself on a terminal (stderr); nothing elsewhere.
    func progress(_ message: String) {
        if !isQuiet && isatty(STDERR_FILENO) == 1 {
            OutputSink.writeStderrRaw("\r\(TerminalText.sanitize(message, singleLine: true))\u{1B}[K")
        }
    }

    func endProgress() {
        if !isQuiet && isatty(STDERR_FILENO) == 1 { OutputSink.writeStderrRaw("\r\u{1B}[K") }
    }

    func info(_ message: String) {
        reporter.info(message)
    }

    /// After the output: warnings gathered on the way, then deferred work
    /// handed to a detached process so nobody waits for it.
    func finish() throws {
        sayWarnings()
        guard let catalog = openedCatalog else { return }
        let tasks = try catalog.backgroundWork()
        guard !tasks.isEmpty, let executable = Self.executablePath() else { return }
        let launcher = BackgroundLauncher(databasePath: databasePath)
        if launcher.launch(tasks, executable: executable, environment: environment) {
            info("in the background: \(tasks.map(\.summary).joined(separator: ", "))")
        } else {
            info("a background refresh is already running")
        }
    }

    /// The warnings gathered so far, once: before the error line of a
    /// command that fails, too (the comics a sync skipped).
    func sayWarnings() {
        openedCatalog?.takeWarnings().forEach(warn)
    }

    /// A REF as typed. A bare number always belongs to the source given
    /// (`-s` or COMICS_SOURCE), else to xkcd, so a script means the same
    /// thing whatever was listed before it; when the last listing was of
    /// another source, a note says which item the number was taken for.
    func itemReference(_ text: String) throws -> ItemReference {
        let reference = try ItemReference.parse(text, defaultSource: source)
        if explicitSource == nil, Int(text) != nil, let last = try catalog().lastListing()?.source, last != source,
           try catalog().firstNoteAboutLastListing() {
            note("\(text) is \(source.rawValue):\(text); the last listing was of \(last.rawValue): write \(last.rawValue):\(text) for that")
        }
        return reference
    }

    /// A book, for the commands that read texts: a bare number is a book
    /// there (`comics read 1342`), whatever the default source.
    func bookReference(_ text: String) throws -> ItemRef {
        let reference = try ItemReference.parse(text, defaultSource: .books)
        guard case let .item(ref) = reference else {
            throw ComicsError.usage("\(MessageText.quoted(text)) names no one book", hint: "give a book id, such as 1342 or books:1342")
        }
        return ref
    }

    /// A positive whole number given to an option, or nil without it.
    func wholeNumber(_ option: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw ComicsError.usage("--\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(MessageText.quoted(text))")
        }
        return number
    }

    /// The one positional argument, such as `REF`.
    func positional(_ name: String) throws -> String {
        let path = (["comics"] + arguments.commandPath).joined(separator: " ")
        guard let first = arguments.positionals.first else {
            throw ComicsError.usage("'\(path)' needs a \(name)", hint: "see '\(path) --help'")
        }
        guard arguments.positionals.count == 1 else {
            throw ComicsError.usage("'\(path)' takes one \(name), got \(arguments.positionals.count)", hint: "see '\(path) --help'")
        }
        return first
    }

    func requireNoPositionals() throws {
        guard let extra = arguments.positionals.first else { return }
        let path = (["comics"] + arguments.commandPath).joined(separator: " ")
        throw ComicsError.usage("unexpected argument \(MessageText.quoted(extra)) for '\(path)'", hint: "see '\(path) --help'")
    }

    // MARK: - Resolving settings

    private static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }

    private static func source(_ text: String?) throws -> SourceName? {
        guard let text else { return nil }
        guard let source = SourceName(userInput: text) else {
            throw ComicsError.usage(
                "unknown source \(MessageText.quoted(text))", hint: "sources are: \(SourceName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return source
    }

    private static func query(_ arguments: ParsedArguments) throws -> ListQuery {
        var limit: Int?
        if let text = arguments.value("limit") {
            // A search lists what it found, as many as asked: every match
            // can be reached (a page of a listing is bounded upstream's way).
            let most = arguments.commandPath == ["search"] ? SearchCommand.maximumLimit : ListQuery.maximumLimit
            guard let number = Int(text), (1...most).contains(number) else {
                throw ComicsError.usage("--limit must be a whole number from 1 to \(most), not \(MessageText.quoted(text))")
            }
            limit = number
        }
        return try ListQuery.checked(
            limit: limit, search: try text(arguments, "search"), languages: arguments.value("language"),
            topic: try text(arguments, "topic"), sort: arguments.value("sort"))
    }

    private static func text(_ arguments: ParsedArguments, _ option: String) throws -> String? {
        guard let text = arguments.value(option) else { return nil }
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw ComicsError.usage("--\(option) needs some text")
        }
        return text
    }

    /// A base URL is a scheme and a host, with a port if need be: comics
    /// adds every path itself. Trailing slashes are dropped; a path, query
    /// or fragment would send every request somewhere else, so it is refused.
    static func baseURL(_ value: String?, default fallback: String, variable: String) throws -> String {
        guard let value, !value.isEmpty else { return fallback }
        var trimmed = Substring(value)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let expected = "a scheme and host such as \(fallback) or http://127.0.0.1:8080, with no path"
        guard URLOrigin(String(trimmed)) != nil, let hostStart = trimmed.firstOccurrence(of: "://")?.upperBound,
              !trimmed[hostStart...].contains(where: { "/?#".contains($0) })
        else {
            throw ComicsError.usage("\(variable) must be \(expected), not \(MessageText.quoted(TerminalText.sanitize(value, singleLine: true)))")
        }
        return String(trimmed)
    }

    /// `--db`, then `COMICS_DB`, then `$XDG_DATA_HOME/comics/comics.db`,
    /// then `~/.local/share/comics/comics.db`.
    static func databasePath(option: String?, environment: [String: String]) throws -> String {
        if let path = option ?? environment["COMICS_DB"], !path.isEmpty { return path }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return "\(dataHome)/comics/comics.db"
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw ComicsError.usage("cannot find a place for the database: HOME is not set", hint: "give one with --db PATH")
        }
        return "\(home)/.local/share/comics/comics.db"
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What `-v` and a slow network tell a person on stderr, labelled as
/// every stderr line is.
final class NetworkReporter: HTTPObserver {
    private let verbose: Bool
    private let quiet: Bool
    /// Draws a progress line on a terminal while a large body arrives (texts).
    private let showsBodyProgress: Bool
    private var progressShown = false

    init(verbose: Bool, quiet: Bool, showsBodyProgress: Bool = false) {
        self.verbose = verbose
        self.quiet = quiet
        self.showsBodyProgress = showsBodyProgress
    }

    func bodyArrived(url: String, bytes: Int, of expected: Int?) {
        guard showsBodyProgress, !quiet, isatty(STDERR_FILENO) == 1 else { return }
        var line = "downloading \(ByteCount.describe(bytes))"
        if let expected, expected > 0 {
            line += " of \(ByteCount.describe(expected)) (\(min(100, bytes * 100 / expected))%)"
        }
        OutputSink.writeStderrRaw("\r\(line)\u{1B}[K")
        progressShown = true
    }

    func info(_ message: String) {
        if verbose { OutputSink.writeStderr("comics: info: \(TerminalText.sanitize(message, singleLine: true))\n") }
    }

    func requestEnded(url: String, outcome: String, seconds: Double) {
        if progressShown {
            OutputSink.writeStderrRaw("\r\u{1B}[K")
            progressShown = false
        }
        info("GET \(MessageText.withoutCredentials(url)): \(outcome) in \(Int((seconds * 1000).rounded())) ms")
    }

    /// Only a person at a terminal is waiting; a script has its own timeouts.
    func stillWaiting(for host: String) {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return }
        OutputSink.writeStderr("comics: note: waiting for \(TerminalText.sanitize(host, singleLine: true))…\n")
    }
}
