import Dispatch

extension Array where Element: Sendable {
    /// Each element transformed, in order, the work shared by every core:
    /// the rules that read each paragraph of a book once.
    func parallelMap<Transformed>(_ transform: @Sendable (Element) -> Transformed) -> [Transformed] {
        let parts = count < 1_024 ? 1 : 16
        guard parts > 1 else { return map(transform) }
        let results = ParallelResults<Transformed>(count: count)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            for index in (count * part / parts)..<(count * (part + 1) / parts) {
                results.store(transform(self[index]), at: index)
            }
        }
        return results.values.map { $0! }
    }
}
