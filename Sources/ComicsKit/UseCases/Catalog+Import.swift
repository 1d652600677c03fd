/// What `fav import` did: which references became favourites, and what
/// became of fetching those that were not cached.
public struct FavoriteImport: Sendable {
    /// Newly marked, in the order given.
    public var added: [ItemRef] = []
    /// Already favourites before the import.
    public var alreadyFavorites = 0
    /// Marked, but not fetched yet (offline or the network failed); they
    /// are fetched by a later command that runs online.
    public var notCached: [ItemRef] = []
    /// Upstream has no such item: not kept as favourites.
    public var notFound: [ItemRef] = []
    /// Why fetching stopped early, if it did.
    public var fetchFailure: ComicsError?
}

extension Catalog {
    /// How many items one progress step fetches; small enough that the
    /// progress line moves, large enough for concurrent requests.
    static let importBatchSize = 16

    /// Marks every reference as a favourite in one transaction (so a bad
    /// run changes nothing), then fetches the ones not cached unless offline.
    /// `progress` is told (done, total) after each batch.
    public func importFavorites(_ refs: [ItemRef], progress: (Int, Int) -> Void = { _, _ in }) throws -> FavoriteImport {
        var seen = Set<ItemRef>()
        let unique = refs.filter { seen.insert($0).inserted }
        for name in Set(unique.map(\.source)) { _ = try source(name) }

        var report = FavoriteImport()
        report.added = try keepingFavoritesBounded {
            try store.addFavorites(unique, at: clock.now, keepingAtMost: Self.largestFavoriteCount)
        }
        report.alreadyFavorites = unique.count - report.added.count
        let missing = Set(try store.favoritesNotCached(source: nil))
        let toFetch = unique.filter(missing.contains)
        guard mode != .offline else {
            report.notCached = toFetch
            return report
        }
        let outcome = try fetchFavorites(toFetch, progress: progress)
        report.notCached = outcome.notCached
        report.fetchFailure = outcome.failure
        let addedNow = Set(report.added)
        report.notFound = outcome.notFound.filter(addedNow.contains)
        try store.removeFavorites(report.notFound)
        report.added.removeAll { report.notFound.contains($0) }
        return report
    }

    public func isFavorite(_ ref: ItemRef) throws -> Bool {
        try store.isFavorite(ref)
    }

    /// Favourites that are not cached yet; `fav list` shows them without details.
    public func favoritesNotCached(source: SourceName?) throws -> [ItemRef] {
        try store.favoritesNotCached(source: source)
    }

    /// Fetches items in batches and stores each batch as it arrives. A
    /// network failure stops the run: what is left stays for later.
    func fetchFavorites(
        _ refs: [ItemRef], progress: (Int, Int) -> Void
    ) throws -> (notCached: [ItemRef], notFound: [ItemRef], failure: ComicsError?) {
        var notFound: [ItemRef] = []
        var done = 0
        let batches = Dictionary(grouping: refs, by: \.source).sorted { $0.key < $1.key }.flatMap { _, refs in
            stride(from: 0, to: refs.count, by: Self.importBatchSize).map {
                Array(refs[$0..<min($0 + Self.importBatchSize, refs.count)])
            }
        }
        for (index, batch) in batches.enumerated() {
            let source = try source(batch[0].source)
            do {
                let answers = try source.fetchItems(batch.map { (id: $0.id, validators: .none) })
                var fetched: [FetchedItem] = []
                for (ref, answer) in zip(batch, answers) {
                    switch answer {
                    case let .fetched(item): fetched.append(item)
                    case .notFound: notFound.append(ref)
                    case .notModified: break
                    case let .unreadable(error): warnings.append("not fetched yet, \(ref): \(error.message)")
                    }
                }
                try store.save(fetched, at: clock.now)
            } catch let error as ComicsError where error.kind == .network {
                return (batches[index...].flatMap { $0 }, notFound, error)
            }
            done += batch.count
            progress(done, refs.count)
        }
        return ([], notFound, nil)
    }
}
