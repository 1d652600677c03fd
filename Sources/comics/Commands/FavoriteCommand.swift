import ComicsKit

/// `comics fav REF` (toggle), `fav add`, `fav remove` and `fav list`.
enum FavoriteCommand {
    static func change(_ context: CommandContext, _ change: FavoriteChange) throws {
        let reference = try ItemReference.parse(try context.positional("REF"), defaultSource: context.source)
        let outcome = try context.catalog().changeFavorite(reference, change)
        guard context.format == .table else {
            try context.write(Records.render(
                [Records.item(outcome.item, stale: try context.catalog().isStale(outcome.item))], as: context.format,
                columns: Records.columns(for: [try context.catalog().source(outcome.item.ref.source)]), single: true))
            return
        }
        let item = outcome.item.item
        let name = "\(item.ref) \(TerminalText.sanitize(item.title, singleLine: true))"
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
        let items = try context.catalog().favorites(source: context.explicitSource)
        if items.isEmpty && context.format == .table {
            context.note("no favourites yet; mark one with 'comics fav REF'")
        }
        let sources = context.explicitSource.map { [$0] } ?? SourceName.allCases
        try context.write(ItemsOutput.render(items, spanning: sources, context: context))
    }
}
