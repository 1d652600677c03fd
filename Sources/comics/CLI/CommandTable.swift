import BrowseCore
import ComicsKit

/// What a shell may offer for a value: the completions are generated
/// from these, so they name what the parser accepts.
enum ValueCompletion: Equatable {
    case anything
    case choices([String])
    case files
    /// The value of the setting named by the argument before it (`config set KEY VALUE`).
    case settingValue
    /// A command name (`help COMMAND`).
    case commands
    /// An item: `latest`, `random` and the favourites (`show`, `fav`).
    case itemReference
}

/// One option, as the parser and the help text see it.
struct OptionSpec: Equatable {
    let long: String
    let short: Character?
    /// The placeholder shown in help; nil for a flag that takes no value.
    let valueName: String?
    let help: String
    /// The environment variable that sets the same thing, shown in help.
    let environment: String?
    let completion: ValueCompletion

    init(
        _ long: String, short: Character? = nil, value: String? = nil, env: String? = nil,
        completion: ValueCompletion = .anything, _ help: String
    ) {
        self.long = long
        self.short = short
        valueName = value
        environment = env
        self.completion = completion
        self.help = help
    }

    var takesValue: Bool { valueName != nil }
}

/// A positional argument of a command.
struct ArgumentSpec: Equatable {
    let name: String
    let help: String
    var completion: ValueCompletion = .anything
    /// Shown as `[NAME]`: the command works without it.
    var isOptional = false
    /// Shown with `...`: the command takes any number of them.
    var isRepeated = false
}

/// A command: its name, what it does, what it accepts. The whole CLI is a
/// tree of these; the parser walks it and help is printed from it.
struct CommandSpec: Equatable {
    let name: String
    let abstract: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []
    var examples: [String] = []
    /// Extra tables of the help page and the man page, such as the settings.
    var sections: [HelpSection] = []
    var hidden = false

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}

/// A titled table of names and what they mean.
struct HelpSection: Equatable {
    let title: String
    let rows: [HelpRow]
}

struct HelpRow: Equatable {
    let name: String
    let text: String
}

/// The comics command line, declared once.
enum CommandTable {
    static let globalOptions: [OptionSpec] = [
        OptionSpec(
            "source", short: "s", value: "NAME", env: "COMICS_SOURCE",
            completion: .choices(SourceName.allCases.map(\.rawValue)), "the source to browse: xkcd (default) or books"),
        OptionSpec(
            "format", short: "f", value: "FORMAT", completion: .choices(OutputFormat.allCases.map(\.rawValue)), "output format: table (default), json, ndjson, csv, tsv"),
        OptionSpec("limit", short: "n", value: "N", "comics per xkcd page, 1 to \(ListQuery.maximumLimit) (default \(ListQuery.defaultLimit))"),
        OptionSpec("offline", env: "COMICS_OFFLINE=1", "never touch the network; serve the cache"),
        OptionSpec("refresh", "revalidate now and wait for fresh data"),
        OptionSpec("db", value: "PATH", env: "COMICS_DB", completion: .files, "the database file (default $XDG_DATA_HOME/comics/comics.db)"),
        OptionSpec("quiet", short: "q", "no notes, warnings or summaries on stderr (cron stays silent); data asked for still prints"),
        OptionSpec("verbose", short: "v", "say on stderr what comics does: cache hits and misses, each request with its status and time, background work"),
        OptionSpec("no-color", env: "NO_COLOR", "never use colour (it is only used on a terminal)"),
        OptionSpec("no-pager", "never page; long output on a terminal otherwise goes through $PAGER (less -FRX)"),
        OptionSpec("help", short: "h", "show help for the command"),
        OptionSpec("version", "print the version"),
    ]

    /// The global options every command honours. `--offline` is one: any
    /// command may start background work that would use the network.
    static let universalOptions: Set<String> = ["db", "offline", "quiet", "verbose", "no-color", "no-pager", "help", "version"]

    /// The other global options each command honours, by command path; a
    /// command refuses the rest rather than ignore them.
    static let honouredGlobals: [String: Set<String>] = [
        "list": ["source", "format", "limit", "refresh"],
        "more": ["source", "format", "limit", "refresh"],
        "show": ["source", "format", "refresh"],
        "sync": ["source", "format", "refresh"],
        "search": ["source", "format", "limit"],
        "fav": ["source", "format", "refresh"],
        "fav add": ["source", "format", "refresh"],
        "fav remove": ["source", "format", "refresh"],
        "fav list": ["source", "format", "limit"],
        "fav import": ["format"],
        "cleanup": ["source", "format"],
        "info": ["format"],
        "browse": ["source"],
        "open": ["source", "refresh"],
        "rebuild": [],
        "get": ["format", "refresh"],
        "read": ["format"],
        "toc": ["format"],
        "notes": ["format"],
        "config": ["format"], "config list": ["format"], "config get": ["format"], "config set": ["format"],
        "config unset": ["format"],
    ]

    /// What a global option means for one command, where its general help
    /// would say something else.
    static let globalHelp: [String: [String: String]] = [
        "notes": ["format": "output format: table (default), json, ndjson, csv, tsv, or markdown (per book: section, quoted sentence, note)"],
        "get": ["refresh": "download again even when downloaded (a new edition); where reading stopped follows it"],
        "list": ["limit": "comics per xkcd page, 1 to \(ListQuery.maximumLimit) (default \(ListQuery.defaultLimit)); books: show the first N of the page"],
        "more": ["limit": "comics per xkcd page (default: as many as the listing before); books: show N from the last row shown (default: as many as before)"],
        "search": ["limit": "show at most N matches, 1 to \(SearchCommand.maximumLimit) (default \(SearchCommand.defaultLimit))"],
        "fav list": ["limit": "list at most N favourites"],
        "cleanup": ["source": "clean that source only (default: every source)"],
    ]

    /// The exit statuses the spec gives, for help and the man page.
    static let exitCodes = [
        HelpRow(name: "0", text: "success, including stale data served because the network failed (with a warning)"),
        HelpRow(name: "1", text: "an unexpected failure"),
        HelpRow(name: "2", text: "usage error: unknown command or option, bad value, unreadable import file"),
        HelpRow(name: "3", text: "not found: no such comic or book, or no more pages"),
        HelpRow(name: "4", text: "the network or the upstream failed and the cache has nothing to serve, or a sync mirrored less than asked"),
        HelpRow(name: "5", text: "the database cannot be used (unwritable, damaged, locked past the timeout)"),
    ]

    /// Variables read beside the options' own.
    static let environment = [
        HelpRow(name: "COMICS_XKCD_URL", text: "the xkcd base URL instead of https://xkcd.com (mirrors, tests)"),
        HelpRow(name: "COMICS_GUTENDEX_URL", text: "the Gutendex base URL instead of https://gutendex.com"),
        HelpRow(
            name: "COMICS_GUTENBERG_URL",
            text: "a gutenberg.org mirror with the same layout instead of https://www.gutenberg.org, for books' texts and pictures"),
        HelpRow(name: "XDG_DATA_HOME", text: "where the database lives by default"),
        HelpRow(name: "HTTPS_PROXY, NO_PROXY", text: "proxies, as curl reads them"),
    ]

    static let bookReference = ArgumentSpec(
        name: "REF", help: "a book: its number (1342; a bare number is a book here), books:1342, or its pasted address")

    static let itemReference = ArgumentSpec(
        name: "REF",
        help: "a number (353), a qualified reference (xkcd:353, books:1342), a pasted address (https://xkcd.com/353/), latest, "
            + "or random (xkcd: any comic, picked uniformly; offline, any cached one)",
        completion: .itemReference)

    static let configKey = ArgumentSpec(
        name: "KEY", help: "a setting (listed below)", completion: .choices(ConfigKey.all.map(\.name)))

    static let settings = HelpSection(
        title: "Settings",
        rows: ConfigKey.all.map { key in
            let fallback = key.inheritsFrom.map { "default: the \($0) setting" } ?? "default: \(key.defaultValue)"
            return HelpRow(name: key.name, text: "\(key.summary) (\(fallback))")
        })

    /// A books query; `more` continues the query it is given.
    static let bookQueryOptions: [OptionSpec] = [
        OptionSpec("search", value: "TEXT", "books whose title or authors contain every word of TEXT"),
        OptionSpec("language", value: "CODES", "books in any of these languages: two- or three-letter codes (en,fr or enm)"),
        OptionSpec("topic", value: "TEXT", "books whose subjects or bookshelves contain TEXT"),
        OptionSpec(
            "sort", value: "ORDER", completion: .choices(ListQuery.SortOrder.allCases.map(\.rawValue)), "popular (default: most downloaded first), ascending or descending (by id)"),
    ]

    /// How `comics search` treats what is typed, for its help and man page.
    /// The keys of `comics browse`, from the table its help screen shows.
    static let browseKeys = HelpSection(
        title: "Keys", rows: BrowseKeys.table.map { HelpRow(name: $0.keys, text: $0.action) })

    static let searchRules = HelpSection(title: "How words match", rows: [
        HelpRow(name: "words", text: "all must appear, in any order; case and accents do not matter, nor English endings "
            + "(velociraptor finds velociraptors, run finds running)"),
        HelpRow(name: "c++ c# f#", text: "+ and # belong to the word: c++ finds C++, not every C"),
        HelpRow(name: "node.js .net", text: "a word with a dot must appear as written, case aside"),
        HelpRow(name: "\"a phrase\"", text: "the words side by side, in order; with double quotes the query is FTS5 syntax"),
        HelpRow(name: "word*", text: "a prefix (astro* finds astronomy)"),
        HelpRow(name: "AND OR NOT ( )", text: "combine terms"),
        HelpRow(name: "order", text: "matches in the title or a name (author, translator, editor) first, then the words "
            + "as one exact phrase, then the rest; in each, by bm25 with a title or name weighing ten times the rest and "
            + "a long text counting less against its words than in FTS5's own"),
        HelpRow(name: "languages", text: "are not words: filter books with -s books list --language"),
        HelpRow(name: "size", text: "at most \(Catalog.searchWordLimit) words and \(Catalog.searchByteLimit) bytes (a usage error past that)"),
    ])

    static let root = CommandSpec(
        name: "comics",
        abstract: "browse xkcd comics and Project Gutenberg books from the shell, offline-first",
        subcommands: [
            CommandSpec(
                name: "list", abstract: "show the newest page (books: a query's first page) and start paging from it",
                options: bookQueryOptions,
                examples: [
                    "comics list", "comics list -n 5 --format json", "comics -s books list --search austen --language en",
                ]),
            CommandSpec(
                name: "more", abstract: "show the page after the last one shown (of the same books query), as large as it unless -n says",
                options: bookQueryOptions,
                examples: ["comics list && comics more && comics more", "comics -s books more --search austen"]),
            CommandSpec(
                name: "show", abstract: "show one comic or book in full, and its picture on a terminal",
                arguments: [itemReference],
                options: [
                    OptionSpec("image", "draw the picture (xkcd's comic, a book's cover) under the text; without it, the images setting decides"),
                    OptionSpec(
                        "image-format", value: "FORMAT", completion: .choices(ImageFormat.allCases.map(\.rawValue)),
                        "draw with \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default auto: the best the terminal supports)"),
                ],
                examples: [
                    "comics show 353", "comics show latest --format json", "comics show books:1342",
                    "comics show 353 --image-format symbols",
                ]),
            CommandSpec(
                name: "get", abstract: "download books' texts into the cache for reading offline (one at a time)",
                arguments: [ArgumentSpec(name: "REF", help: "books: numbers (1342; a bare number is a book here), books:1342, or pasted addresses", isOptional: true, isRepeated: true)],
                options: [
                    OptionSpec("favorites", "get the text of every favourite book too"),
                    OptionSpec(
                        "edition", value: "EDITION", completion: .choices(TextEdition.allCases.map(\.rawValue)),
                        "html or text: that edition alone, replacing one of the other (default: the texts.edition setting, html: the HTML edition, whose markup gives the chapters, else the plain text)"),
                ],
                examples: [
                    "comics get 1342", "comics get books:2600 books:11", "comics get --favorites --quiet   # from cron",
                    "comics get 1342 --refresh   # a new edition", "comics get 2701 --edition text",
                ]),
            CommandSpec(
                name: "read", abstract: "a book's text without its header and licence: the reader on a terminal, from where reading stopped; printed and reflowed otherwise, the whole text unless --resume, --at or --section",
                arguments: [bookReference],
                options: [
                    OptionSpec("width", value: "N", "print, reflowed to N columns (default: the terminal's width up to 80; 80 off a terminal)"),
                    OptionSpec("section", value: "N", "print section N only (numbers as 'comics toc' shows them; 0 is the front matter)"),
                    OptionSpec("from-start", "start at the beginning, not where reading stopped"),
                    OptionSpec("resume", "start where reading stopped, printed off a terminal too (printed, the whole text is the default there)"),
                    OptionSpec("at", value: "N", "start at paragraph N (the ¶ of a hit of 'comics search TERMS --in REF', a paragraph's number in -f json)"),
                    OptionSpec("search", value: "TERMS", "open the reader searching for TERMS, at the first hit from where it starts (n N move on)"),
                    OptionSpec("no-pictures", "the reader shows pictures' captions alone (default: the reader.pictures setting)"),
                ],
                examples: [
                    "comics read 1342", "comics read 2600 --section 200", "comics read 11 --width 60 --from-start | less",
                    "comics read 2600 --at 11558 --search natasha", "comics read 1342 -f json | jq '.sections[1].title'",
                ],
                sections: [HelpSection(
                    title: "The reader (on a terminal, unless --section, --width, --no-pager or -f)",
                    rows: ReaderKeys.table.map { HelpRow(name: $0.keys, text: $0.action) })]),
            CommandSpec(
                name: "toc", abstract: "list a book's sections: number, title (indented by level), where it begins, its words",
                arguments: [bookReference],
                examples: ["comics toc 2600", "comics toc 1342 -f json | jq length"]),
            CommandSpec(
                name: "notes", abstract: "the notes written in the reader (a on a paragraph): every book's, or one book's; -f markdown for a notebook",
                arguments: [ArgumentSpec(name: "REF", help: bookReference.help, isOptional: true)],
                examples: ["comics notes", "comics notes 1342 -f markdown >> notebook.md", "comics notes -f json | jq '.[].note'"]),
            CommandSpec(
                name: "sync",
                abstract: "mirror the xkcd archive (or a books query, or the favourite books) into the cache; resumable; exit 4 when anything is missing",
                options: bookQueryOptions + [
                    OptionSpec("favorites", "refresh only the favourites of the source (for books, the way to sync without a query when the catalogue is larger than a sync mirrors)"),
                    OptionSpec("jobs", value: "N", "requests in flight at once, 1 to 32 (default 10)"),
                ],
                examples: [
                    "comics sync", "comics sync --quiet   # from cron", "comics -s books sync --search dickens",
                    "comics -s books sync --favorites --jobs 4",
                ]),
            CommandSpec(
                name: "search",
                abstract: "search everything cached (titles, alt text, transcripts, authors, translators, editors, subjects, bookshelves, summaries), best match first",
                arguments: [ArgumentSpec(
                    name: "TERMS",
                    help: "words that must all appear; \"a phrase\", word* for a prefix, OR and NOT between them")],
                options: [
                    OptionSpec("remote", "also ask Gutendex's own search and cache what it finds (books)"),
                    OptionSpec("in", value: "REF", "search inside this book's text (downloaded first if needed): each hit's section, place, paragraph (¶, for 'comics read REF --at') and words"),
                    OptionSpec("texts", "search inside every downloaded text instead of the catalogue"),
                ],
                examples: [
                    "comics search python", "comics search '\"little bobby tables\"'", "comics search -s books --remote dickens",
                    "comics search astro* -n 5 --format json", "comics search c++",
                    "comics search natasha --in 2600", "comics search '\"white whale\"' --texts",
                ],
                sections: [searchRules]),
            CommandSpec(
                name: "fav", abstract: "toggle a favourite, or manage favourites",
                arguments: [itemReference],
                subcommands: [
                    CommandSpec(name: "add", abstract: "mark a favourite", arguments: [itemReference]),
                    CommandSpec(name: "remove", abstract: "unmark a favourite", arguments: [itemReference]),
                    CommandSpec(
                        name: "list", abstract: "list favourites (the export for scripts)",
                        examples: ["comics fav list --format json | jq -r '.[].url'", "comics fav list -f json > favourites.json"]),
                    CommandSpec(
                        name: "import",
                        abstract: "add the favourites of an export (json, ndjson, csv or tsv); running it twice adds nothing",
                        arguments: [ArgumentSpec(
                            name: "FILE", help: "a file written by 'comics fav list --format ...', or - for standard input",
                            completion: .files)],
                        examples: ["comics fav import favourites.json", "ssh old-laptop comics fav list -f csv | comics fav import -"]),
                ],
                examples: ["comics fav 353", "comics fav add latest", "comics fav list --format csv"]),
            CommandSpec(
                name: "cleanup", abstract: "apply the cache limits now (with -s, to that source only); favourites are never removed",
                options: [
                    OptionSpec("dry-run", "list what would be removed and remove nothing"),
                    OptionSpec("max-age", value: "AGE", "remove items not refreshed for AGE (30d, 12h, 2w; default: config max-age)"),
                    OptionSpec("max-items", value: "N", "keep at most N non-favourites per source (default: config max-items)"),
                ],
                examples: [
                    "comics cleanup --dry-run", "comics cleanup --quiet   # from cron",
                    "comics cleanup --format json | jq '.removed | length'",
                ]),
            CommandSpec(
                name: "open", abstract: "open an item's page in a browser ($BROWSER: a colon-separated list of commands, %s for the URL; else xdg-open)",
                arguments: [itemReference],
                examples: ["comics open 353", "comics open books:1342", "BROWSER=lynx comics open latest"]),
            CommandSpec(
                name: "browse",
                abstract: "browse comics and books full-screen (also bare 'comics' on a terminal)",
                options: [
                    OptionSpec("no-mouse", "leave the mouse to the terminal (to select text); else the wheel scrolls and a click selects"),
                    OptionSpec("no-pictures", "the reader shows pictures' captions alone (default: the reader.pictures setting)"),
                ],
                examples: ["comics browse", "comics -s books browse", "comics --offline browse"],
                sections: [browseKeys]),
            CommandSpec(
                name: "info", abstract: "show the database: where, how big, what it holds, whether it is healthy",
                examples: ["comics info", "comics info --format json | jq .sources.xkcd.items"]),
            CommandSpec(
                name: "rebuild",
                abstract: "move a damaged database aside and start a new one with its favourites, settings, reading places and bookmarks",
                options: [OptionSpec("force", "rebuild even when the database passes its check")],
                examples: ["comics info || comics rebuild"]),
            CommandSpec(
                name: "config", abstract: "show or change the persisted settings (with no COMMAND: list them)",
                subcommands: [
                    CommandSpec(name: "list", abstract: "every setting, its value and whether it is the default"),
                    CommandSpec(name: "get", abstract: "print one setting's value", arguments: [configKey], sections: [settings]),
                    CommandSpec(
                        name: "set", abstract: "change a setting",
                        arguments: [configKey, ArgumentSpec(name: "VALUE", help: "the new value", completion: .settingValue)],
                        sections: [settings]),
                    CommandSpec(name: "unset", abstract: "return a setting to its default", arguments: [configKey], sections: [settings]),
                ],
                examples: [
                    "comics config", "comics config set images never", "comics config set books.max-items 100",
                    "comics config get max-age",
                ],
                sections: [settings]),
            CommandSpec(
                name: "help", abstract: "show help for a command",
                arguments: [ArgumentSpec(
                    name: "COMMAND", help: "the command to explain (without it: every command)", completion: .commands,
                    isOptional: true)]),
            CommandSpec(
                name: "completions", abstract: "print a completion script for bash, zsh or fish",
                arguments: [ArgumentSpec(
                    name: "SHELL", help: "bash, zsh or fish", completion: .choices(Shell.allCases.map(\.rawValue)))],
                examples: [
                    "source <(comics completions bash)            # in ~/.bashrc",
                    "comics completions zsh > ~/.zfunc/_comics    # with ~/.zfunc in $fpath",
                    "comics completions fish > ~/.config/fish/completions/comics.fish",
                ]),
            CommandSpec(
                name: ManPage.command, abstract: "print the manual page in roff (make install uses it)",
                hidden: true),
            CommandSpec(
                name: "__background", abstract: "run deferred refreshes and cleanup (internal)",
                arguments: [ArgumentSpec(name: "TASK", help: "a task description")], hidden: true),
        ],
        examples: [
            "comics list",
            "comics more",
            "comics show 353",
            "comics fav 353",
            "comics fav list --format json",
            "comics cleanup --dry-run",
            "comics -s books list --search austen",
            "comics show books:1342",
        ])
}
