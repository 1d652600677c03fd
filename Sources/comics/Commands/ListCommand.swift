import ComicsKit

/// `comics list` and `comics more`: a page of the current source.
enum ListCommand {
    enum Page { case newest, next }

    static func run(_ context: CommandContext, page: Page) throws {
        try context.requireNoPositionals()
        let catalog = try context.catalog()
        let items = switch page {
        case .newest: try catalog.list(context.source, query: context.query)
        case .next: try catalog.more(context.source, query: context.query)
        }
        try context.write(ItemsOutput.render(items, context: context, showSource: false))
    }
}

/// Renders a list of items in the chosen format; shared by every command
/// that prints several items.
enum ItemsOutput {
    static func render(_ items: [CachedItem], context: CommandContext, showSource: Bool) throws -> String {
        guard context.format == .table else {
            return Records.render(items.map(Records.item), as: context.format)
        }
        let sources = Set(items.map(\.ref.source)).sorted()
        let summaryAttributes = sources.count == 1 ? try context.catalog().source(sources[0]).summaryAttributes : []
        return TableRenderer(terminal: context.terminal)
            .list(items, summaryAttributes: summaryAttributes, showSource: showSource)
    }
}
