import Dispatch
import Foundation
import StoreCore

/// Polls a store that detects other processes' commits (`ExternalCommitDetecting`) while any
/// long-lived context of the graph listens, and posts a change to them when the stamp moves:
/// their registered objects refresh and their observers re-read their results (internal).
final class OtherProcessWatch: @unchecked Sendable {
    // @unchecked: `timer` and `last` are touched on `queue` only, or under `lock` for `timer`.
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

    /// Starts polling (once); each move of the stamp calls `moved` on the watch's queue.
    func start(_ moved: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard timer == nil, !stopped else { return }
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now(), repeating: Self.interval, leeway: .milliseconds(5))
        t.setEventHandler { [unowned self] in self.poll(moved) }
        timer = t
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

    private func poll(_ moved: () -> Void) {
        guard let stamp = try? store.externalCommitStamp() else { return }
        defer { last = stamp }
        if let last, last != stamp { moved() }
    }

    deinit { timer?.cancel() }
}
