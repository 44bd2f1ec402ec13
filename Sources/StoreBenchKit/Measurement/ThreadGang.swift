import Foundation

/// Runs one body on several threads that start together: each thread is created and waits at a
/// gate, the gate opens once all are ready, and `run` returns the nanoseconds from the gate
/// opening to the last thread ending, so thread creation is not timed.
///
/// ```swift
/// let wall = try ThreadGang.run(threads: 4) { index in
///     for k in keys[index] { _ = try repo.read { try $0.fetch("Post", id: .int64(k)) } }
/// }
/// ```
/// Every thread runs to its end; the first error (by thread index, then `alongside`'s) is
/// rethrown afterwards. A thread that waits for `alongside` must not wait for ever: give its
/// waits a timeout, or signal it from `alongside`'s `defer`.
public enum ThreadGang {
    /// Runs `body(index)` on `threads` threads (index 0 ..< threads), and `alongside` on the
    /// calling thread once the gate opens; returns the wall time in nanoseconds from the common
    /// start to the last end.
    public static func run(threads: Int, _ body: @escaping @Sendable (Int) throws -> Void,
                           alongside: () throws -> Void = {}) throws -> UInt64 {
        let n = max(0, threads)
        let ready = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let errors = Errors(n)
        for i in 0..<n {
            done.enter()
            let thread = Thread {
                ready.signal()
                gate.wait()
                do { try body(i) } catch { errors.set(i, error) }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<n { ready.wait() }
        let start = MonotonicClock.now()
        for _ in 0..<n { gate.signal() }
        var callerError: (any Error)?
        do { try alongside() } catch { callerError = error }
        done.wait()
        let wall = MonotonicClock.now() &- start
        if let error = errors.first ?? callerError { throw error }
        return wall
    }

    /// Internal: the errors of the threads, by index.
    private final class Errors: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [(any Error)?]
        package init(_ n: Int) { slots = Array(repeating: nil, count: n) }
        package func set(_ i: Int, _ e: any Error) { lock.withLock { slots[i] = e } }
        package var first: (any Error)? { lock.withLock { slots.compactMap { $0 }.first } }
    }
}
