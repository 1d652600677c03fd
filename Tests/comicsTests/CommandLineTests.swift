import ComicsKit
import Foundation
import TestSupport
import XCTest
@testable import comics

/// The command line itself: help, version, usage errors and output formats.
final class CommandLineTests: EndToEndTestCase {
    func testVersionAndHelpAreCleanExitsOnStdout() throws {
        let version = try comics.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout, "comics \(ComicsVersion.current)\n")
        let help = try comics.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stdout, HelpText.render([]))
        XCTAssertTrue(help.stdout.hasPrefix("comics: browse xkcd comics and Project Gutenberg books from the shell,\n  offline-first\n"))
        for command in [["list"], ["more"], ["show"], ["fav"], ["fav", "add"], ["fav", "remove"], ["fav", "list"], ["cleanup"],
                        ["config"], ["config", "list"], ["config", "get"], ["config", "set"], ["config", "unset"],
                        ["fav", "import"], ["info"], ["rebuild"], ["completions"], ["search"], ["sync"]] {
            let result = try comics.run(command + ["--help"])
            XCTAssertEqual(result.status, 0)
            XCTAssertEqual(result.stdout, HelpText.render(command))
            XCTAssertEqual(try comics.run(["help"] + command).stdout, result.stdout)
        }
        XCTAssertEqual(try comics.run(["completions", "bash"]).status, 0)
        XCTAssertEqual(try comics.run([ManPage.command]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: comics.databasePath), "help, completions and the man page open no database")
    }

    func testCleanupHelpText() throws {
        XCTAssertEqual(try comics.run(["cleanup", "-h"]).stdout, """
            comics cleanup: apply the cache limits now (with -s, to that source only);
              favourites are never removed

            Usage:
              comics cleanup [options]

            Options:
                  --dry-run        list what would be removed and remove nothing
                  --max-age AGE    remove items not refreshed for AGE (30d, 12h, 2w;
                                   default: config max-age)
                  --max-items N    keep at most N non-favourites per source (default: config
                                   max-items)
              -s, --source NAME    clean that source only (default: every source) [env:
                                   COMICS_SOURCE]
              -f, --format FORMAT  output format: table (default), json, ndjson, csv, tsv

            Also: --offline, --db PATH, -q, -v, --no-color, --no-pager; see 'comics --help'.

            Examples:
              comics cleanup --dry-run
              comics cleanup --quiet   # from cron
              comics cleanup --format json | jq '.removed | length'

            """)
    }

    /// Every variable comics reads is in `--help`, as in README's table.
    func testHelpListsEveryVariable() throws {
        let help = try comics.run(["--help"]).stdout
        for variable in ["COMICS_DB", "COMICS_OFFLINE", "COMICS_SOURCE", "COMICS_XKCD_URL", "COMICS_GUTENDEX_URL", "COMICS_GUTENBERG_URL",
                         "XDG_DATA_HOME", "PAGER", "NO_COLOR"] {
            XCTAssertTrue(help.contains(variable), variable)
        }
    }

    /// Every help page fits 80 columns off a terminal and 40 on a 40-column
    /// one (but for examples, which are shell lines), broken between words.
    func testHelpWrapsToTheTerminal() throws {
        let pages = [[], ["list"], ["more"], ["show"], ["sync"], ["search"], ["fav"], ["fav", "list"], ["fav", "import"],
                     ["cleanup"], ["info"], ["rebuild"], ["config"], ["config", "set"], ["help"], ["completions"]]
        for page in pages {
            let text = try comics.run(page + ["--help"]).stdout
            let body = text.components(separatedBy: "\nExamples:\n")[0]
            XCTAssertLessThanOrEqual(body.split(separator: "\n").map(\.count).max() ?? 0, 80, "\(page)")
            XCTAssertFalse(body.contains { $0 == "\u{1B}" })
            let narrow = try comics.shell("script -qc 'stty cols 40; \"$COMICS\" \(page.joined(separator: " ")) --help' /dev/null")
            let narrowBody = narrow.stdout.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\nExamples:\n")[0]
            XCTAssertLessThanOrEqual(narrowBody.split(separator: "\n").map(\.count).max() ?? 0, 40, "\(page): \(narrowBody)")
            let words = Set(body.split(whereSeparator: \.isWhitespace))
            XCTAssertEqual(Set(narrowBody.split(whereSeparator: \.isWhitespace)), words, "\(page): no word broken")
        }
        XCTAssertTrue(try comics.run(["config", "get", "--help"]).stdout.contains("xkcd.page-size"), "the keys are listed")
        XCTAssertTrue(try comics.run(["help", "--help"]).stdout.contains("comics help [options] [COMMAND]"))
        let searchHelp = try comics.run(["search", "--help"]).stdout
        XCTAssertEqual(searchHelp.components(separatedBy: "default 20").count, 2, "one -n default")
        XCTAssertFalse(searchHelp.contains("default 10"))
    }

    func testUsageErrorsAreOneLineWithAHintAndExit2() throws {
        let cases: [([String], String)] = [
            (["lsit"], "comics: error: unknown command 'lsit'; did you mean 'list'? see 'comics --help'\n"),
            (["list", "--limt", "3"], "comics: error: unknown option '--limt' for 'comics list'; did you mean '--limit'? see 'comics list --help'\n"),
            (["list", "-n", "0"], "comics: error: --limit must be a whole number from 1 to 200, not '0'\n"),
            (["list", "--format", "xml"], "comics: error: unknown format 'xml'; use one of: table, json, ndjson, csv, tsv\n"),
            (["-s", "dilbert", "list"], "comics: error: unknown source 'dilbert'; sources are: xkcd, books\n"),
            (["show"], "comics: error: 'comics show' needs a REF; see 'comics show --help'\n"),
            (["show", "abc"], "comics: error: 'abc' is not an item reference; use a number such as 353, a qualified reference such as xkcd:353, latest or random\n"),
            (["show", "1", "2"], "comics: error: 'comics show' takes one REF, got 2; see 'comics show --help'\n"),
            (["list", "--offline", "--refresh"], "comics: error: --offline and --refresh contradict each other; use one of them\n"),
            (["list", "extra"], "comics: error: unexpected argument 'extra' for 'comics list'; see 'comics list --help'\n"),
        ]
        for (arguments, expected) in cases {
            let result = try comics.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result)")
            XCTAssertEqual(result.stderr, expected, "\(arguments)")
            XCTAssertEqual(result.stdout, "")
        }
        let bare = try comics.run([])
        XCTAssertEqual(bare.status, 2)
        XCTAssertTrue(bare.stderr.hasPrefix("comics: error: no command given; usage: comics COMMAND"), bare.stderr)
    }

    func testABaseURLIsASchemeAndHostWithTrailingSlashesDropped() throws {
        let base = try XCTUnwrap(comics.environment["COMICS_GUTENDEX_URL"])
        for slashes in ["/", "//"] {
            comics.environment["COMICS_GUTENDEX_URL"] = base + slashes
            comics.environment["COMICS_XKCD_URL"] = base + slashes
            let shown = try comics.run(["-s", "books", "show", "1342", "--refresh"])
            XCTAssertEqual(shown.status, 0, "\(slashes): \(shown)")
            XCTAssertEqual(try comics.run(["show", "1", "--refresh"]).status, 0)
        }
        XCTAssertFalse(try server.requests().contains { $0.hasPrefix("//") }, "no doubled slash reaches the server")
        for bad in [base + "/books", base + "//books/", "ftp://example.com", base + "?x=1"] {
            comics.environment["COMICS_GUTENDEX_URL"] = bad
            let result = try comics.run(["-s", "books", "show", "1400"])
            XCTAssertEqual(result.status, 2, "\(bad): \(result)")
            XCTAssertEqual(result.stderr, "comics: error: COMICS_GUTENDEX_URL must be a scheme and host such as https://gutendex.com "
                + "or http://127.0.0.1:8080, with no path, not '\(bad)'\n")
        }
    }

    func testGlobalOptionsWorkAnywhere() throws {
        let before = try comics.run(["-f", "json", "-n", "2", "list"])
        let after = try comics.run(["list", "--format=json", "-n2"])
        XCTAssertEqual(before.status, 0, "\(before)")
        XCTAssertEqual(try JSONValue.parse(before.stdout).arrayValue?.count, 2)
        XCTAssertEqual(before.stdout, after.stdout)
    }

    func testJSONCarriesTheSpecFields() throws {
        let result = try comics.run(["list", "-n", "3", "-f", "json"])
        let items = try XCTUnwrap(JSONValue.parse(result.stdout).arrayValue)
        XCTAssertEqual(items.count, 3)
        guard case let .object(members) = items[0] else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.0), [
            "source", "id", "title", "url", "favorite", "cached_at", "stale", "date", "alt", "transcript", "image_url", "link", "interactive",
        ])
        XCTAssertEqual(items[0]["source"], .string("xkcd"))
        XCTAssertEqual(items[0]["id"], .int(200))
        XCTAssertEqual(items[0]["url"], .string("https://xkcd.com/200/"))
        XCTAssertEqual(items[0]["favorite"], .bool(false))
        XCTAssertEqual(items[0]["date"], .string("2006-12-22"))
        XCTAssertEqual(items[0]["image_url"], .string("https://imgs.xkcd.com/comics/bill_nye.png"))
        let cachedAt = try XCTUnwrap(items[0]["cached_at"]?.stringValue)
        XCTAssertNotNil(try? Date(cachedAt, strategy: .iso8601), cachedAt)

        let show = try comics.run(["show", "200", "-f", "json"])
        XCTAssertEqual(try JSONValue.parse(show.stdout)["title"], .string("Bill Nye"), "show prints one object")
    }

    func testNDJSONCSVAndTSV() throws {
        XCTAssertEqual(try comics.run(["list", "-n", "2"]).status, 0)
        let ndjson = try comics.run(["list", "-n", "2", "-f", "ndjson"])
        XCTAssertEqual(ndjson.stdoutLines.count, 2)
        XCTAssertEqual(try JSONValue.parse(ndjson.line(1))["id"], .int(199))

        let csv = try comics.run(["list", "-n", "2", "-f", "csv"])
        let rows = csv.stdout.components(separatedBy: "\r\n")
        XCTAssertEqual(rows[0], "source,id,title,url,favorite,cached_at,stale,date,alt,transcript,image_url,link,interactive")
        XCTAssertTrue(rows[1].hasPrefix("xkcd,200,Bill Nye,https://xkcd.com/200/,false,"), rows[1])
        XCTAssertTrue(rows[1].contains(#""[[A restaurant. A mother"#), "a transcript with newlines is quoted")
        let parsed = try pythonCSVRowCount(csv.stdout)
        XCTAssertEqual(parsed, 3, "RFC 4180: a header and two records")

        let tsv = try comics.run(["list", "-n", "2", "-f", "tsv"])
        try assertStrictTSV(tsv.stdout, matches: try comics.run(["list", "-n", "2", "-f", "json"]).stdout)
        let hostile = try comics.run(["show", "191", "-f", "tsv"])
        try assertStrictTSV(hostile.stdout, matches: try comics.run(["show", "191", "-f", "json"]).stdout)
        XCTAssertEqual(try JSONValue.parse(try comics.run(["show", "191", "-f", "json"]).stdout)["link"],
                       .string("https://imgs.xkcd.com/comics/lojban_translated.png"), "xkcd's link is kept")
    }

    /// TSV read back strictly: a record a line, the header's number of
    /// fields in each, no quoting, no raw carriage return, and every field,
    /// unescaped, what JSON holds.
    private func assertStrictTSV(_ tsv: String, matches json: String, line: UInt = #line) throws {
        XCTAssertTrue(tsv.hasSuffix("\n"), line: line)
        XCTAssertFalse(tsv.contains("\r"), line: line)
        let lines = tsv.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines[0].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        var records = try JSONValue.parse(json).arrayValue ?? []
        if records.isEmpty { records = [try JSONValue.parse(json)] }
        XCTAssertEqual(lines.count, records.count + 1, "one record a line", line: line)
        for (row, record) in zip(lines.dropFirst(), records) {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            XCTAssertEqual(fields.count, header.count, line: line)
            for (name, field) in zip(header, fields) {
                var unescaped = "", escaping = false
                for character in field {
                    if escaping {
                        let known: [Character: String] = ["t": "\t", "n": "\n", "r": "\r", "\\": "\\"]
                        XCTAssertNotNil(known[character], "an unknown escape \\\(character)", line: line)
                        unescaped += known[character] ?? ""
                        escaping = false
                    } else if character == "\\" {
                        escaping = true
                    } else {
                        unescaped.append(character)
                    }
                }
                let expected: String = switch record[name] {
                case let .string(text)?: text
                case let .int(number)?: String(number)
                case let .bool(flag)?: flag ? "true" : "false"
                case nil, .null?: ""
                case let value?: value.serialized
                }
                XCTAssertEqual(unescaped, expected, name, line: line)
            }
        }
    }

    func testTheTableFitsTheTerminalWidth() throws {
        try server.control(.object([
            ("latest", .int(201)),
            ("comics", .object([("201", FixtureServer.comic(201, title: String(repeating: "Long title ", count: 20)))])),
        ]))
        comics.environment["COLUMNS"] = "40"
        let result = try comics.run(["list", "-n", "2"])
        XCTAssertEqual(result.stdoutLines.map(\.count).max(), 40, result.stdout)
        XCTAssertTrue(result.line(1).hasSuffix("…"))
    }

    func testTheDefaultDatabaseFollowsXDGDataHome() throws {
        comics.environment["COMICS_DB"] = nil
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        let defaultPath = comics.home.file(".local/share/comics/comics.db")
        XCTAssertTrue(FileManager.default.fileExists(atPath: defaultPath))
        let attributes = try FileManager.default.attributesOfItem(atPath: defaultPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: comics.home.file(".local/share/comics"))
        XCTAssertEqual((directory[.posixPermissions] as? NSNumber)?.intValue, 0o700)

        comics.environment["XDG_DATA_HOME"] = comics.home.file("xdg")
        XCTAssertEqual(try comics.run(["show", "1"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: comics.home.file("xdg/comics/comics.db")))
    }

    func testColourOnlyOnATerminalAndNeverWithNoColor() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "1"]).status, 0)
        // script(1) gives comics a pseudo-terminal as stdout.
        let terminal = try comics.shell(#"script -qec "$COMICS fav list" /dev/null"#)
        XCTAssertTrue(terminal.stdout.contains("\u{1B}[33m★\u{1B}[0m"), terminal.stdout)
        let noColor = try comics.shell(#"NO_COLOR=1 script -qec "$COMICS fav list" /dev/null"#)
        XCTAssertFalse(noColor.stdout.contains("\u{1B}["), noColor.stdout)
        let flag = try comics.shell(#"script -qec "$COMICS fav list --no-color" /dev/null"#)
        XCTAssertFalse(flag.stdout.contains("\u{1B}["), flag.stdout)
        XCTAssertFalse(try comics.run(["fav", "list"]).stdout.contains("\u{1B}"), "a pipe gets no colour")
    }

    private func pythonCSVRowCount(_ text: String) throws -> Int {
        let result = try comics.shell("python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin))))' <<'EOF'\n\(text)EOF")
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
