import BrowseCore
import ComicsKit
import Glibc

/// How the workers' events reach the screen's thread: a list under a
/// lock, and a byte on a pipe that wakes the thread's poll.
final class BrowseMailbox: @unchecked Sendable {
    private let events = Locked<[BrowseEvent]>([])
    private let wake: DescriptorPipe
    var wakeReadEnd: Int32 { wake.readEnd }

    init() throws {
        guard let wake = DescriptorPipe(nonBlocking: true) else { throw ComicsError.unexpected("cannot make a pipe for browse") }
        self.wake = wake
    }

    /// Hands an event to the screen's thread and wakes it.
    func post(_ event: BrowseEvent) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 1
        _ = write(wake.writeEnd, &byte, 1)
    }

    /// The events posted since the last call, oldest first.
    func take() -> [BrowseEvent] {
        drainWake()
        return events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeReadEnd, &buffer, buffer.count) > 0 {}
    }
}
