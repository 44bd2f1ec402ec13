import Foundation

/// A value guarded by a pthread mutex (`NSLock`). Internal helper.
///
/// Used instead of `Synchronization.Mutex`, whose contended path on Linux is a priority-
/// inheritance futex that ThreadSanitizer cannot see: `make test-tsan` reported the graph's
/// inbox list as a race while every access held the lock. A pthread mutex is intercepted.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
