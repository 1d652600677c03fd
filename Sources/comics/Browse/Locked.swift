import Glibc

/// A value shared between threads behind a pthread mutex. Not the
/// standard library's `Mutex`: that one waits on a futex directly, which
/// ThreadSanitizer cannot see, so every access it guards is reported as a
/// race and `make sanitize` could not tell a real one.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
