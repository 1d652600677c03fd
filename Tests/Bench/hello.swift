// The start-up floor of any Swift program built as comics is (release,
// static Swift runtime and C++ runtime, Foundation's Date and nothing else
// of it): bench.py times it beside the sqlite3 CLI.
import struct FoundationEssentials.Date

print(Date().timeIntervalSince1970)
