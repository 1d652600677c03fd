import ComicsKit
import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval

/// `comics sync`: mirrors the xkcd archive, a books query or the favourite
/// books into the cache, with a progress bar on a terminal.
enum SyncCommand {
    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let catalog = try context.catalog()
        let source = try catalog.source(context.source)
        let scope: SyncScope
        if context.arguments.has("favorites") {
            scope = .favorites
        } else if context.query.hasFilters {
            scope = .query(try context.query(for: source))
        } else {
            scope = .archive
        }
        let started = Date()
        var checked = 0
        let report: SyncReport
        do {
            report = try catalog.sync(context.source, scope: scope) { progress in
                checked = progress.done
                context.progress(bar(progress, elapsed: Date().timeIntervalSince(started), width: context.terminal.width ?? 80))
            }
        } catch let error as ComicsError where error.kind == .network {
            context.endProgress()
            guard checked > 0 else { throw ComicsError.network("sync stopped before checking anything: \(error.message)") }
            throw ComicsError.network(
                "sync stopped: \(error.message); the \(checked) checked so far are kept; run the same 'comics sync' again to resume")
        }
        context.endProgress()
        let seconds = Date().timeIntervalSince(started)
        if context.format != .table {
            // Data asked for: printed even with --quiet.
            let record = JSONValue.object([
                ("source", .string(context.source.rawValue)), ("fetched", .int(report.fetched)),
                ("already_fresh", .int(report.upToDate)), ("absent", .int(report.absent)),
                ("seconds", .double((seconds * 10).rounded() / 10)),
                ("complete", .bool(report.isComplete)), ("missing", .array(report.shortfalls.map(JSONValue.string))),
            ])
            let columns = ["source", "fetched", "already_fresh", "absent", "seconds", "complete", "missing"]
            try context.write(Records.render([record], as: context.format, columns: columns, single: true))
        } else if !context.isQuiet {
            var summary = "synced \(report.isComplete ? "" : "part of ")\(context.source.rawValue): fetched \(report.fetched), \(report.upToDate) already fresh"
            if report.absent > 0 { summary += ", \(report.absent) absent upstream" }
            try context.write(summary + " in \(OneDecimal.format(seconds)) s\n")
        }
        // Less than asked is a failure a script sees, whatever the format
        // and however quiet: cron must not take a part for the whole.
        guard report.isComplete else {
            throw ComicsError.network("sync incomplete: \(report.shortfalls.joined(separator: "; ")); run 'comics sync' again to finish")
        }
    }

    /// `[#########.........]  1200/3000  240/s  ETA 8s`, fitted to the width.
    static func bar(_ progress: SyncProgress, elapsed: TimeInterval, width: Int) -> String {
        let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
        guard let total = progress.total, total > 0 else {
            return "syncing: \(progress.done) done, \(Int(rate))/s"
        }
        let remaining = rate > 0 ? Int((Double(total - progress.done) / rate).rounded(.up)) : 0
        let figures = "  \(progress.done)/\(total)  \(Int(rate))/s  ETA \(remaining)s"
        let barWidth = max(10, min(40, width - figures.count - 3))
        let filled = min(barWidth, barWidth * progress.done / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]" + figures
    }
}
