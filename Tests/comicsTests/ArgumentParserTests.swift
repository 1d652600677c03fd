import ComicsKit
@testable import comics
import XCTest

final class ArgumentParserTests: XCTestCase {
    private let parser = ArgumentParser()

    func testCommandsOptionsAndPositionals() throws {
        let parsed = try parser.parse(["-s", "xkcd", "fav", "add", "--format=json", "xkcd:353", "-qv"])
        XCTAssertEqual(parsed.commandPath, ["fav", "add"])
        XCTAssertEqual(parsed.values, ["source": "xkcd", "format": "json"])
        XCTAssertEqual(parsed.flags, ["quiet", "verbose"])
        XCTAssertEqual(parsed.positionals, ["xkcd:353"])
    }

    func testShortValuesAttachedOrSeparate() throws {
        XCTAssertEqual(try parser.parse(["list", "-n5"]).value("limit"), "5")
        XCTAssertEqual(try parser.parse(["list", "-n", "5"]).value("limit"), "5")
        XCTAssertEqual(try parser.parse(["-qn", "7", "list"]).value("limit"), "7")
        XCTAssertEqual(try parser.parse(["list", "--limit", "-3"]).value("limit"), "-3", "a value may look like an option")
    }

    func testFavTakesAReferenceOrASubcommand() throws {
        XCTAssertEqual(try parser.parse(["fav", "353"]).commandPath, ["fav"])
        XCTAssertEqual(try parser.parse(["fav", "353"]).positionals, ["353"])
        XCTAssertEqual(try parser.parse(["fav", "list"]).commandPath, ["fav", "list"])
        XCTAssertEqual(try parser.parse(["fav", "--", "list"]).positionals, ["list"], "-- makes it an argument")
    }

    func testCommandOptionsBelongToTheirCommand() throws {
        XCTAssertEqual(try parser.parse(["cleanup", "--dry-run"]).flags, ["dry-run"])
        XCTAssertThrowsError(try parser.parse(["list", "--dry-run"])) { error in
            XCTAssertEqual((error as? ComicsError)?.message, "unknown option '--dry-run' for 'comics list'")
        }
    }

    func testMistakesAreUsageErrors() {
        let mistakes: [([String], String)] = [
            (["lst"], "unknown command 'lst'"),
            (["list", "-x"], "unknown option '-x' for 'comics list'"),
            (["list", "--limit"], "--limit needs a value (N)"),
            (["list", "--offline=yes"], "--offline takes no value"),
        ]
        for (arguments, message) in mistakes {
            XCTAssertThrowsError(try parser.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual((error as? ComicsError)?.kind, .usage)
                XCTAssertEqual((error as? ComicsError)?.message, message)
            }
        }
    }

    func testSuggestions() {
        XCTAssertEqual(Suggestion.closest(to: "lsit", among: ["list", "more", "show"]), "list")
        XCTAssertEqual(Suggestion.closest(to: "--form", among: ["--format", "--offline"]), "--format")
        XCTAssertNil(Suggestion.closest(to: "zzzzzz", among: ["list", "more"]))
    }

    func testEveryCommandHasHelpNamingItsOptions() {
        func visit(_ command: CommandSpec, path: [String]) {
            let help = HelpText.render(path)
            let flowing = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(flowing.hasPrefix((["comics"] + path).joined(separator: " ") + ": \(command.abstract)"), "\(path)")
            let honoured = path.isEmpty ? Set(CommandTable.globalOptions.map(\.long))
                : CommandTable.honouredGlobals[path.joined(separator: " ")] ?? []
            for option in command.options + CommandTable.globalOptions.filter({ honoured.contains($0.long) }) {
                XCTAssertTrue(help.contains("--\(option.long)"), "\(path) help lacks --\(option.long)")
            }
            let optionLines = help.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("-") }
            for option in CommandTable.globalOptions where !path.isEmpty && !honoured.contains(option.long) {
                let named = optionLines.contains { $0.hasPrefix("--\(option.long)") || $0.hasPrefix("-\(option.short.map(String.init) ?? "?"), ") }
                    || help.contains("Also: ") && help.split(separator: "\n").contains { line in
                        let listed = line.split(separator: ";")[0]
                        return line.hasPrefix("Also: ") && (listed.contains("--\(option.long)")
                            || option.short.map { listed.contains("-\($0),") || listed.contains("-\($0) ") } == true)
                    }
                let universal = CommandTable.universalOptions.contains(option.long)
                XCTAssertEqual(named, universal && !["help", "version"].contains(option.long), "\(path): --\(option.long)")
            }
            for subcommand in command.subcommands where !subcommand.hidden {
                XCTAssertTrue(help.contains("  \(subcommand.name)"))
                visit(subcommand, path: path + [subcommand.name])
            }
        }
        visit(CommandTable.root, path: [])
    }

    func testItemReferences() throws {
        XCTAssertEqual(try ItemReference.parse("353", defaultSource: .xkcd), .item(ItemRef(source: .xkcd, id: 353)))
        XCTAssertEqual(try ItemReference.parse("XKCD:7", defaultSource: .xkcd), .item(ItemRef(source: .xkcd, id: 7)))
        XCTAssertEqual(try ItemReference.parse("latest", defaultSource: .xkcd), .latest(.xkcd))
        XCTAssertEqual(try ItemReference.parse("books:1342", defaultSource: .xkcd), .item(ItemRef(source: .books, id: 1342)))
        XCTAssertEqual(try ItemReference.parse("84", defaultSource: .books), .item(ItemRef(source: .books, id: 84)))
        for bad in ["", "0", "-1", "abc", "dilbert:1", "xkcd:", "٣", "1.5", "99999999999999999999"] {
            XCTAssertThrowsError(try ItemReference.parse(bad, defaultSource: .xkcd), bad)
        }
    }
}
