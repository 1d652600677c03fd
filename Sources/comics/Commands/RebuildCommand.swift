import ComicsKit
import Foundation

/// `comics rebuild`: the way out of a damaged database. It reads what it
/// still can (favourites, settings), moves the file aside (never deletes
/// it), starts a new database with them, and fetches the favourites again.
enum RebuildCommand {
    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let path = context.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            context.note("there is no database at \(path) yet; nothing to rebuild")
            return
        }
        let salvage = SQLiteCacheStore.salvage(at: path)
        for problem in salvage.problems {
            context.warn("could not read \(problem)")
        }
        let stamp = Date().formatted(.iso8601.year().month().day().dateSeparator(.omitted).time(includingFractionalSeconds: false).timeSeparator(.omitted).timeZone(separator: .omitted))
        let aside = try SQLiteCacheStore.moveAside(path, stamp: stamp)
        let catalog = try context.catalog()
        try catalog.restore(settings: salvage.settings)
        let report = try catalog.importFavorites(salvage.favorites) { done, total in
            context.progress("fetching favourites: \(done)/\(total)")
        }
        context.endProgress()
        if !report.notCached.isEmpty {
            context.warn("\(report.notCached.count) favourite\(report.notCached.count == 1 ? " is" : "s are") not cached yet and will be fetched when online")
        }
        guard !context.isQuiet else { return }
        let kept = salvage.favorites.count - report.notFound.count
        try context.write(
            "moved the old database to \(aside); the new one keeps \(kept) favourite\(kept == 1 ? "" : "s")"
                + " and \(salvage.settings.count) setting\(salvage.settings.count == 1 ? "" : "s")\n")
    }
}
