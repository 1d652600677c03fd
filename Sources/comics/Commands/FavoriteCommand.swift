import ComicsKit

/// `comics fav REF` (toggle), `fav add`, `fav remove` and `fav list`.
enum FavoriteCommand {
    static func change(_ context: CommandContext, _ change: FavoriteChange) throws {
        let reference = try context.itemReference(try context.positional("REF"))
        let catalog = try context.catalog()
        let outcome = try catalog.changeFavorite(reference, change)
        let source = try catalog.source(outcome.ref.source)
        if outcome.isPending {
            let reason = outcome.pendingReason.map { "\($0); " } ?? ""
            context.warn("\(reason)\(outcome.ref) is not cached yet; it will be fetched when the network is back")
        }
        guard context.format == .table else {
            let record = outcome.item.map { Records.item($0, stale: catalog.isStale($0)) }
                ?? Records.notCached(outcome.ref, url: source.pageURL(of: outcome.ref.id), favorite: outcome.isFavorite)
            return try context.write(Records.render(
                [record], as: context.format, columns: Records.columns(for: [source]), single: true))
        }
        let title = outcome.item.map { " " + TerminalText.sanitize($0.item.title, singleLine: true) } ?? ""
        let name = "\(outcome.ref)\(title)"
        let sentence = switch (outcome.isFavorite, outcome.changed) {
        case (true, true): "\(context.terminal.yellow("★")) added \(name) to favourites"
        case (false, true): "removed \(name) from favourites"
        case (true, false): "\(name) is already a favourite"
        case (false, false): "\(name) is not a favourite"
        }
        try context.write(sentence + "\n")
    }

    static func list(_ context: CommandContext) throws {
        try context.requireNoPositionals()
        let catalog = try context.catalog()
        let cached = try catalog.favorites(source: context.explicitSource)
        let pending = try catalog.favoritesNotCached(source: context.explicitSource)
        // -n: the first N favourites, cached or not, in the order listed.
        let shown = Set(context.trimmed((cached.map(\.ref) + pending).sorted { ($0.source, $0.id) < ($1.source, $1.id) }))
        let items = cached.filter { shown.contains($0.ref) }
        let notCached = pending.filter { shown.contains($0) }
        if items.isEmpty && notCached.isEmpty && context.format == .table {
            context.note("no favourites yet; mark one with 'comics fav REF'")
        }
        let sources = context.explicitSource.map { [$0] } ?? SourceName.allCases
        guard context.format == .table else {
            let columns = Records.columns(for: try sources.sorted().map(catalog.source))
            let positions = try catalog.readingPositions(items.map(\.ref))
            let cached = items.map { item -> (ItemRef, JSONValue) in
                var record = Records.item(item, stale: catalog.isStale(item))
                if let position = positions[item.ref], case var .object(members) = record {
                    members.append(("reading", TextRecords.reading(position)))
                    record = .object(members)
                }
                return (item.ref, record)
            }
            let pending = try notCached.map { ($0, Records.notCached($0, url: try catalog.source($0.source).pageURL(of: $0.id))) }
            let records = (cached + pending).sorted { ($0.0.source, $0.0.id) < ($1.0.source, $1.0.id) }.map(\.1)
            return try context.write(Records.render(records, as: context.format, columns: columns))
        }
        try context.write(ItemsOutput.render(items, spanning: sources, context: context))
        if !notCached.isEmpty {
            context.note("not cached yet, fetched when online: \(MessageText.listed(notCached.map(\.description)))")
        }
    }

    /// Ends the progress line, then says which favourites were dropped
    /// (upstream has no such item) and how many wait for the network.
    static func warnAboutFetching(_ report: FavoriteImport, context: CommandContext) {
        context.endProgress()
        if !report.notFound.isEmpty {
            context.warn("not imported, upstream has no such item: \(MessageText.listed(report.notFound.map(\.description)))")
        }
        if !report.notCached.isEmpty {
            let reason = report.fetchFailure.map { "\($0.message); " } ?? ""
            context.warn("\(reason)\(report.notCached.count) favourite\(report.notCached.count == 1 ? " is" : "s are") not cached yet and will be fetched when online")
        }
    }

    /// `comics fav import FILE`: merges an export back; running it twice adds nothing.
    static func importFile(_ context: CommandContext) throws {
        let refs = try FavoritesFile.load(try context.positional("FILE"))
        let catalog = try context.catalog()
        let report = try catalog.importFavorites(refs) { done, total in
            context.progress("fetching favourites: \(done)/\(total)")
        }
        warnAboutFetching(report, context: context)
        guard context.format == .table else {
            let record = JSONValue.object([
                ("added", .array(report.added.map { .string($0.description) })),
                ("already_favorites", .int(report.alreadyFavorites)),
                ("not_cached", .array(report.notCached.map { .string($0.description) })),
                ("not_found", .array(report.notFound.map { .string($0.description) })),
            ])
            return try context.write(Records.render([record], as: context.format, columns: ["added", "already_favorites", "not_cached", "not_found"], single: true))
        }
        guard !context.isQuiet else { return }
        let perSource = Dictionary(grouping: report.added, by: \.source).sorted { $0.key < $1.key }
            .map { "\($0.key.rawValue) \($0.value.count)" }
        let detail = perSource.isEmpty ? "" : " (\(perSource.joined(separator: ", ")))"
        let count = report.added.count
        try context.write("added \(count) favourite\(count == 1 ? "" : "s")\(detail); \(report.alreadyFavorites) \(report.alreadyFavorites == 1 ? "was a favourite" : "were favourites") already\n")
    }
}
