import Dispatch
import Foundation
import StoreCore

/// Polls a store that detects other processes' commits (`ExternalCommitDetecting`) while any
/// long-lived context of the graph listens, and posts a change to them when the stamp moves:
/// their registered objects refresh and their observers re-read their results (internal).
/// Polling stops when the last listener goes and starts again with the next.
final class OtherProcessWatch: @unchecked Sendable {
    // @unchecked: `timer` and `stopped` are touched under `lock`; `last` under `lock` or on `queue`
    // while the timer that owns it runs.
    /// How often the store is asked.
    static let interval = DispatchTimeInterval.milliseconds(20)
    private let store: any ExternalCommitDetecting
    private let queue = DispatchQueue(label: "ObjectGraph.OtherProcessWatch")
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?
    private var last: UInt64?
    private var stopped = false
    private static let onQueue = DispatchSpecificKey<Bool>()

    init(store: any ExternalCommitDetecting) {
        self.store = store
        queue.setSpecific(key: Self.onQueue, value: true)
    }

    /// Starts polling unless it runs: takes the stamp now, so that a commit elsewhere after this
    /// call is reported, then asks every `interval`; each move calls `moved` on the watch's
    /// queue. A poll that finds `listening` false stops.
    func start(listening: @escaping @Sendable () -> Bool, moved: @escaping @Sendable () -> Void) {
        let t: DispatchSourceTimer? = lock.withLock {
            guard timer == nil, !stopped else { return nil }
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(5))
            t.setEventHandler { [unowned self] in self.poll(listening, moved) }
            timer = t
            return t
        }
        guard let t else { return }
        // Outside the lock: the stamp may wait for a write of the store to end.
        let baseline = try? store.externalCommitStamp()
        lock.withLock { last = baseline }
        t.resume()
    }

    /// Stops polling for good (the graph closes or goes away).
    func stop() {
        lock.lock()
        stopped = true
        let t = timer
        timer = nil
        lock.unlock()
        t?.cancel()
        // A poll under way ends before the store may close (unless this is that poll: the
        // graph's last reference went away inside it).
        if DispatchQueue.getSpecific(key: Self.onQueue) != true { queue.sync {} }
    }

    private func poll(_ listening: () -> Bool, _ moved: () -> Void) {
        let idle: Bool = lock.withLock {
            guard !listening() else { return false }
            timer?.cancel()
            timer = nil
            return true
        }
        guard !idle, let stamp = try? store.externalCommitStamp() else { return }
        let previous = lock.withLock { () -> UInt64? in
            defer { last = stamp }
            return last
        }
        if let previous, previous != stamp { moved() }
    }

    deinit { timer?.cancel() }
}
