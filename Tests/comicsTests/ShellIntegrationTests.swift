import ComicsKit
import Foundation
import TestSupport
import XCTest
@testable import comics

/// comics as a citizen of a Unix install: completions that load and
/// complete in bash, zsh and fish, a man page that renders, `make install`
/// and `make uninstall` into a DESTDIR, and pipes that close early or fill up.
final class ShellIntegrationTests: EndToEndTestCase {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func testBashCompletionLoadsAndCompletes() throws {
        let loaded = try comics.shell(#"bash -c 'source <("$COMICS" completions bash) && complete -p comics'"#)
        XCTAssertEqual(loaded.stdout, "complete -F _comics comics\n", "\(loaded)")
        XCTAssertEqual(try comics.run(["fav", "add", "150"]).status, 0)
        XCTAssertEqual(try comics.run(["fav", "add", "books:1342"]).status, 0)
        let script = #"""
            PATH="$(dirname "$COMICS"):$PATH"
            source <("$COMICS" completions bash)
            complete_line() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _comics; echo "${COMPREPLY[*]}"; }
            complete_line comics ''
            complete_line comics fa
            complete_line comics -s json fav ''
            complete_line comics --format ''
            complete_line comics list --so
            complete_line comics config set auto-cleanup ''
            complete_line comics completions z
            complete_line comics --format = js
            complete_line comics --format=js
            complete_line comics --source = books li
            complete_line comics show ''
            complete_line comics fav remove b
            """#
        let result = try comics.shell("bash -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdoutLines, [
            "list more show get read toc notes sync search fav cleanup open browse info rebuild config help completions",
            "fav",
            "add remove list import latest random books:1342 xkcd:150",
            "table json ndjson csv tsv",
            "--source --sort",
            "on off",
            "zsh",
            "json",
            "--format=json",
            "list",
            "latest random books:1342 xkcd:150",
            "books:1342",
        ])
    }

    func testZshCompletionParsesAndCompletes() throws {
        // Stand-ins for the completion system's builtins print what they are given.
        XCTAssertEqual(try comics.run(["fav", "add", "150"]).status, 0)
        let script = #"""
            PATH="$(dirname "$COMICS"):$PATH"
            compdef() { : }
            compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -r -- "${(j:|:)@}" }
            _describe() { local -a items; items=("${(@P)${@[-1]}}"); print -r -- "${(j: :)${(@)items%%:*}}" }
            _files() { print -r -- "<files>" }
            source <("$COMICS" completions zsh)
            complete_line() { words=("$@"); CURRENT=${#words}; _comics }
            complete_line comics fav ''
            complete_line comics -s ''
            complete_line comics config set images ''
            complete_line comics fav import ''
            """#
        let result = try comics.shell("zsh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdoutLines, ["add remove list import", "latest|random|xkcd:150", "xkcd|books", "auto|always|never", "<files>"],
                       "each candidate on its own (| between)")
        XCTAssertEqual(try comics.shell(#""$COMICS" completions zsh > _comics && zsh -n _comics"#).status, 0)
    }

    func testFishCompletionLoadsAndCompletes() throws {
        XCTAssertEqual(try comics.run(["fav", "add", "150"]).status, 0)
        func complete(_ line: String) throws -> String {
            let result = try comics.shell(
                #"fish -c 'set -x PATH (dirname "$COMICS") $PATH; "$COMICS" completions fish | source; complete -C "\#(line)"'"#)
            XCTAssertEqual(result.stderr, "", line)
            return result.stdoutLines.map { $0.components(separatedBy: "\t")[0] }.joined(separator: "|")
        }
        XCTAssertEqual(try complete("comics "), "browse|cleanup|completions|config|fav|get|help|info|list|more|notes|open|read|rebuild|search|show|sync|toc")
        XCTAssertEqual(try complete("comics fav "), "add|import|latest|list|random|remove|xkcd:150", "each candidate on its own")
        XCTAssertEqual(try complete("comics show "), "latest|random|xkcd:150")
        XCTAssertEqual(try complete("comics -s "), "books|xkcd")
        XCTAssertEqual(try complete("comics config set background-refresh "), "off|on")
    }

    func testCompletionsNameAnUnknownShell() throws {
        let result = try comics.run(["completions", "tcsh"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "comics: error: no completions for the shell 'tcsh'; use one of: bash, zsh, fish\n")
    }

    func testTheManPageRendersEveryCommand() throws {
        let rendered = try comics.shell(#""$COMICS" __man-page > comics.1 && MANWIDTH=100 man -l comics.1"#)
        XCTAssertEqual(rendered.status, 0, "\(rendered)")
        let page = rendered.stdout.replacingOccurrences(of: "\u{8}.", with: "")
        for heading in ["NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "SETTINGS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            XCTAssertTrue(page.contains("\n\(heading)\n"), heading)
        }
        for command in ["list", "more", "show REF", "fav REF", "fav import FILE", "cleanup", "info", "config set KEY VALUE", "completions SHELL"] {
            XCTAssertTrue(page.contains("comics \(command)\n"), command)
        }
        XCTAssertTrue(page.contains("--max-age AGE"), "options keep their hyphens")
        XCTAssertFalse(page.contains("__background"), "hidden commands stay hidden")
    }

    func testMakeInstallAndUninstallIntoADestdir() throws {
        let destination = comics.home.file("staging")
        let install = try comics.shell(
            #"make -s -C "\#(Self.packageRoot)" install-built COMICS="$COMICS" DESTDIR="\#(destination)" PREFIX=/opt/comics"#)
        XCTAssertEqual(install.status, 0, "\(install)")
        let files = [
            "bin/comics", "share/man/man1/comics.1", "share/bash-completion/completions/comics",
            "share/zsh/site-functions/_comics", "share/fish/vendor_completions.d/comics.fish",
        ].map { "\(destination)/opt/comics/\($0)" }
        for file in files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: file), file)
        }
        XCTAssertEqual(try comics.shell("'\(files[0])' --version").stdout, "comics \(ComicsVersion.current)\n")
        XCTAssertEqual(try comics.shell("man -l '\(files[1])' > /dev/null").status, 0)
        XCTAssertEqual(try comics.shell("bash -c 'source \(files[2]) && complete -p comics'").stdout, "complete -F _comics comics\n")

        let uninstall = try comics.shell(#"make -s -C "\#(Self.packageRoot)" uninstall DESTDIR="\#(destination)" PREFIX=/opt/comics"#)
        XCTAssertEqual(uninstall.status, 0, "\(uninstall)")
        for file in files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: file), file)
        }
    }

    /// Foundation proper brings ICU: a binary three times the size and a
    /// slower start for every command (BENCHMARKS.md). FoundationEssentials
    /// has all comics needs.
    func testTheShippedCodeImportsOnlyFoundationEssentials() throws {
        let sources = Self.packageRoot + "/Sources"
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
            XCTAssertFalse(imports.contains { $0 == "import Foundation" || $0.hasPrefix("import FoundationInternationalization") },
                           "\(file) imports Foundation proper")
        }
    }

    func testFavouritesIntoAClosedPipeEndQuietlyAndIntoAFullDiskFail() throws {
        for ref in ["1", "2", "3"] {
            XCTAssertEqual(try comics.run(["fav", "add", ref]).status, 0)
        }
        let head = try comics.shell(#"set -o pipefail; "$COMICS" fav list | head -1"#)
        XCTAssertEqual(head.status, 0, "\(head)")
        XCTAssertEqual(head.stderr, "")
        let closedReader = try comics.shell(#""$COMICS" fav list -f json 2>errors | { exec <&-; sleep 0.3; }; echo "${PIPESTATUS[0]}"; cat errors"#)
        XCTAssertEqual(closedReader.stdout, "0\n")
        let full = try comics.shell(#""$COMICS" fav list -f csv > /dev/full"#)
        XCTAssertEqual(full.status, 1)
        XCTAssertEqual(full.stderr, "comics: error: cannot write output: No space left on device\n")
    }
}

/// A word comics prints for a person to paste (the reader's command after
/// `search --in`) reads back as itself in sh, whatever it holds.
final class ShellWordTests: XCTestCase {
    func testAQuotedWordReadsBackAsItselfInSh() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab Z9'\"\\$`*?[]{}();&|<>!#~-_.,:/+@%=\t") + ["é", "漢"]
        var words = ["", "natasha", "white whale", "it's", "'", "''", "$(reboot)", "astro*", "\"a phrase\""]
        for _ in 0..<200 {
            words.append(String((0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        let script = words.map { "printf '%s\\0' " + ShellWord.quoted($0) }.joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let readBack = String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(readBack, words)
        XCTAssertEqual(ShellWord.quoted("natasha"), "natasha", "a plain word stays as it is")
    }
}
