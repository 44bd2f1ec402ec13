import Foundation

/// Internal helper: a writer-preferring pthread read-write lock. Read transactions hold it
/// shared; growing the map (which remaps the file) holds it exclusively, so no reader sees the
/// map move, and a waiting grow stops new readers from starving it. Not recursive: callers
/// track what the current thread holds (`ThreadReads`).
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked: the pthread lock is the synchronization itself.
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attr = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attr)
        pthread_rwlockattr_setkind_np(&attr, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attr)
        pthread_rwlockattr_destroy(&attr)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func lockShared() { pthread_rwlock_rdlock(lock) }
    func unlock() { pthread_rwlock_unlock(lock) }

    /// Takes the lock exclusively, waiting at most `seconds`; false on timeout.
    func lockExclusive(timeout seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + seconds
        var deadline = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        return pthread_rwlock_timedwrlock(lock, &deadline) == 0
    }

}

/// Internal helper: the stores on whose map lock the current thread holds a shared lock (a
/// read, or a write attempt), so a nested read on the same thread does not lock again and a
/// grow on a thread that holds a read fails fast instead of waiting for itself.
enum ThreadReads {
    final class Held {
        /// Only its own thread reads or writes it: the runtime's exclusivity tracking (an
        /// access set per access, several per read transaction) is off.
        @exclusivity(unchecked) var stores: [ObjectIdentifier] = []
    }

    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { p in
            if let p { Unmanaged<Held>.fromOpaque(p).release() }
        }
        return k
    }()

    /// The current thread's record (created on first use, freed when the thread ends).
    static var current: Held {
        if let p = pthread_getspecific(key) { return Unmanaged<Held>.fromOpaque(p).takeUnretainedValue() }
        let h = Held()
        pthread_setspecific(key, Unmanaged.passRetained(h).toOpaque())
        return h
    }
}
