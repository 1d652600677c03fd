/// Every failure a user can meet, reduced to what they need: which kind it
/// is (it decides the exit code) and one line saying what to do.
public struct ComicsError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case unexpected
        case usage
        case notFound
        case network
        case database
    }

    public let kind: Kind
    public let message: String
    /// A second line for usage errors: how to call it right.
    public let hint: String?
    /// Every later request of this command would fail the same way (its
    /// download budget is spent, or the host did not answer in time): a
    /// command going through a list stops.
    public let endsTheRun: Bool

    public init(_ kind: Kind, _ message: String, hint: String? = nil, endsTheRun: Bool = false) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.endsTheRun = endsTheRun
    }

    public static func unexpected(_ message: String) -> ComicsError {
        ComicsError(.unexpected, message)
    }

    public static func usage(_ message: String, hint: String? = nil) -> ComicsError {
        ComicsError(.usage, message, hint: hint)
    }

    public static func notFound(_ message: String) -> ComicsError {
        ComicsError(.notFound, message)
    }

    public static func network(_ message: String) -> ComicsError {
        ComicsError(.network, message)
    }

    public static func database(_ message: String) -> ComicsError {
        ComicsError(.database, message)
    }

    /// The process exit code the spec assigns to this kind of failure.
    public var exitCode: Int32 {
        switch kind {
        case .unexpected: 1
        case .usage: 2
        case .notFound: 3
        case .network: 4
        case .database: 5
        }
    }

    public var description: String { message }
}
