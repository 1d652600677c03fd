import ComicsKit
import Glibc

/// libFuzzer target for everything comics says on stderr, compiled into
/// the comics module: NUL-separated arguments (which error messages echo)
/// run through the whole application, offline, against a scratch database,
/// with stderr captured. Whatever they are, no C0 control but newline, no
/// DEL, C1 or bidi control reaches stderr, and the exit code is one the
/// spec defines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStderr(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let arguments = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    // rebuild moves the database aside each time: files without end.
    guard !arguments.contains("rebuild") else { return 0 }
    let (status, stderr) = FuzzScratch.shared.run(["--offline"] + arguments)
    precondition((0...5).contains(status), "exit \(status)")
    for scalar in String(decoding: stderr, as: UTF8.self).unicodeScalars {
        let value = scalar.value
        precondition(scalar == "\n" || !(value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)),
                     "control U+\(String(value, radix: 16)) reached stderr")
        precondition(!TerminalText.isBidiControl(scalar), "bidi control U+\(String(value, radix: 16)) reached stderr")
    }
    return 0
}

/// A database folder for the run, and a file that takes stderr while the
/// application runs (stdin and stdout are /dev/null then).
private final class FuzzScratch: @unchecked Sendable {
    static let shared = FuzzScratch()
    private let environment: [String: String]
    private let capture: Int32
    private let nothing: Int32

    private init() {
        // run.sh names a folder of its own, emptied before each run.
        let directory = getenv("COMICS_FUZZ_SCRATCH").map { String(cString: $0) } ?? "/tmp/comics-fuzz-stderr-\(getpid())"
        mkdir(directory, 0o700)
        environment = [
            "HOME": directory, "COMICS_DB": directory + "/comics.db", "PAGER": "cat",
            "COMICS_XKCD_URL": "http://127.0.0.1:9", "COMICS_GUTENDEX_URL": "http://127.0.0.1:9",
        ]
        capture = open(directory + "/stderr", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        nothing = open("/dev/null", O_RDWR | O_CLOEXEC)
        // No background process: it would start this fuzzer again.
        for setting in ["background-refresh", "auto-cleanup"] { _ = run(["config", "set", setting, "off"]) }
    }

    func run(_ arguments: [String]) -> (Int32, [UInt8]) {
        ftruncate(capture, 0)
        lseek(capture, 0, SEEK_SET)
        let saved = [dup(STDIN_FILENO), dup(STDOUT_FILENO), dup(STDERR_FILENO)]
        dup2(nothing, STDIN_FILENO)
        dup2(nothing, STDOUT_FILENO)
        dup2(capture, STDERR_FILENO)
        let status = Application.run(arguments, environment: environment)
        for (descriptor, original) in saved.enumerated() {
            dup2(original, Int32(descriptor))
            close(original)
        }
        let length = Int(lseek(capture, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: max(0, length))
        _ = pread(capture, &bytes, bytes.count, 0)
        return (status, bytes)
    }
}
