import Dispatch
import StoreCore

/// The serial queue of a queue-bound context (Core Data's private queue), and a
/// `SerialExecutor` over it, so that an actor (`GraphActor`) runs on the context's queue.
/// Linux's Dispatch offers no `DispatchSerialQueue` executor: this one hands each job to the
/// queue itself.
///
/// Other contexts' saves reach the queue by push: each save (or each coalescing window, see
/// `PushDelivery`) schedules a merge on it that tells the context's observers.
public final class ContextQueue: SerialExecutor, @unchecked Sendable {
    // @unchecked: `context` and `currentCommit` are only touched on `dispatch`; `scheduled`
    // is `Locked` (a pthread mutex, which ThreadSanitizer sees); the rest is immutable.
    let dispatch: DispatchQueue
    public let delivery: PushDelivery
    let latency: PushLatencyProbe?
    weak var context: ObjectContext?
    /// While a push delivery runs: when the earliest save it carries was committed.
    var currentCommit: ContinuousClock.Instant?
    private let scheduled = Locked(false)
    private let marker = DispatchSpecificKey<Bool>()

    init(label: String, delivery: PushDelivery, latency: PushLatencyProbe?) {
        dispatch = DispatchQueue(label: label)
        self.delivery = delivery
        self.latency = latency
        dispatch.setSpecific(key: marker, value: true)
    }

    /// True on this queue (inside `perform`, a push delivery or the actor's code).
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        dispatch.async { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(dispatch))
    }

    /// Runs `body` on the queue and waits for it; at once when already on the queue.
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        isCurrent ? try body() : try dispatch.sync(execute: body)
    }

    /// After a save was posted to the context: schedules its delivery by `delivery`.
    func schedule() {
        switch delivery {
        case .eachSave:
            dispatch.async { self.deliver() }
        case .coalescing(let window):
            let opens = scheduled.withLock { isOpen in
                defer { isOpen = true }
                return !isOpen
            }
            guard opens else { return }
            dispatch.asyncAfter(deadline: .now() + window.dispatchInterval) {
                self.scheduled.withLock { $0 = false }
                self.deliver()
            }
        }
    }

    private func deliver() {
        context?.deliverPush()
    }
}
