import ComicsKit
import struct FoundationEssentials.Date

/// `comics rebuild`: the way out of a damaged database. It reads what it
/// still can (favourites, settings), moves the file aside (never deletes
/// it), starts a new database with them, and fetches the favourites again.
/// Where reading stopped and the bookmarks are the person's too: kept.
enum RebuildCommand {
    static func run(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let path = try SQLiteCacheStore.resolvedPath(context.databasePath)
        guard FileSystem.exists(path) else {
            context.note("there is no database at \(path) yet; nothing to rebuild")
            return
        }
        if !context.arguments.has("force"), let healthy = try? SQLiteCacheStore(path: path),
           (try? healthy.integrityProblems().isEmpty) == true {
            context.note("nothing to rebuild: \(path) passes its check (--force rebuilds it anyway)")
            return
        }
        let salvage = SQLiteCacheStore.salvage(at: path)
        for problem in salvage.problems {
            context.warn("could not read \(problem)")
        }
        let aside = try SQLiteCacheStore.moveAside(path, stamp: CivilTime.compactTimestamp(Date()))
        let catalog = try context.catalog()
        try catalog.restore(settings: salvage.settings)
        try catalog.restore(readingPositions: salvage.readingPositions, bookmarks: salvage.bookmarks)
        let report = try catalog.importFavorites(salvage.favorites) { done, total in
            context.progress("fetching favourites: \(done)/\(total)")
        }
        FavoriteCommand.warnAboutFetching(report, context: context)
        guard !context.isQuiet else { return }
        let kept = salvage.favorites.count - report.notFound.count
        func counted(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        let parts = [counted(kept, "favourite", "favourites"), counted(salvage.settings.count, "setting", "settings")]
            + (salvage.readingPositions.isEmpty ? [] : [counted(salvage.readingPositions.count, "place where reading stopped", "places where reading stopped")])
            + (salvage.bookmarks.isEmpty ? [] : [counted(salvage.bookmarks.count, "bookmark", "bookmarks")])
        let listed = parts.count > 1 ? parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1] : parts.joined()
        try context.write("moved the old database to \(aside); the new one keeps \(listed)\n")
    }
}
