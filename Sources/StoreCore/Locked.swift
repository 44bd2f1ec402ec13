import Foundation

/// A value guarded by a pthread mutex (`NSLock`), for the modules above StoreCore.
///
/// ```swift
/// let cache = Locked<[String: Int]>([:])
/// cache.withLock { $0["a"] = 1 }
/// ```
///
/// Used instead of `Synchronization.Mutex`, whose contended path on Linux is a priority-
/// inheritance futex that ThreadSanitizer cannot see: `make test-tsan` reported the object
/// graph's inbox list as a race while every access held the lock. A pthread mutex is
/// intercepted. Threading: `Sendable`; `body` must not call `withLock` on the same value.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
