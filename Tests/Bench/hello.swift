// The start-up floor of any Swift program built as comics is (release,
// static Swift runtime, FoundationEssentials): bench.py times it beside
// the sqlite3 CLI.
import FoundationEssentials

print(ProcessInfo.processInfo.environment["HOME"] ?? "", Date())
