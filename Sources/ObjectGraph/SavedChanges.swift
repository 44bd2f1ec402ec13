import Foundation
import StoreCore

/// What one save (or batch operation) changed in the store, as object IDs. Contexts of the same
/// graph receive it to merge; observers are computed from it.
public struct SavedChanges: Sendable {
    public var inserted: Set<ObjectID> = []
    /// Updated objects with the names of their changed attributes and relationships.
    public var updated: [ObjectID: Set<String>] = [:]
    public var deleted: Set<ObjectID> = []
    /// Set by batch deletes, whose delete rules may have changed records not listed here:
    /// receivers refresh every unmodified object.
    public var mayAffectUnlisted = false
    /// Another process committed (with `mayAffectUnlisted`): observers find modifications by
    /// comparing their results' attribute values with the ones they delivered last.
    public var byAnotherProcess = false

    public init() {}

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !mayAffectUnlisted }

    mutating func merge(_ other: SavedChanges) {
        if isEmpty && !mayAffectUnlisted {   // the first save of a transaction: nothing to fold
            self = other
            return
        }
        inserted.formUnion(other.inserted)
        deleted.formUnion(other.deleted)
        for (id, keys) in other.updated { updated[id, default: []].formUnion(keys) }
        inserted.subtract(deleted)
        for id in deleted { updated[id] = nil }
        mayAffectUnlisted = mayAffectUnlisted || other.mayAffectUnlisted
        byAnotherProcess = byAnotherProcess || other.byAnotherProcess
    }
}

/// Internal: saved changes of other contexts, waiting to be merged. Filled from any thread;
/// the context's own thread may block until something arrives (`wait`).
final class ContextInbox: @unchecked Sendable {
    // @unchecked: `pending`, `firstPost` and `onPost` are only touched with `condition` locked.
    private var pending: [SavedChanges] = []
    /// When the oldest pending batch was committed (as its poster says): push latency starts here.
    private var firstPost: ContinuousClock.Instant?
    private let condition = NSCondition()
    /// Called after each post, on the posting thread: a queue-bound context schedules its merge.
    private var onPost: (@Sendable () -> Void)?

    /// Queues `c`, committed at `committed` (default: now, for a post right after the commit).
    func post(_ c: SavedChanges, committed: ContinuousClock.Instant = .now) {
        condition.lock()
        if pending.isEmpty { firstPost = committed }
        pending.append(c)
        let hook = onPost
        condition.signal()
        condition.unlock()
        hook?()
    }

    /// Sets what runs after each post (see `onPost`).
    func whenPosted(_ hook: @escaping @Sendable () -> Void) {
        condition.lock()
        onPost = hook
        condition.unlock()
    }

    func drain() -> [SavedChanges] {
        condition.lock()
        defer { condition.unlock() }
        let p = pending
        pending = []
        firstPost = nil
        return p
    }

    /// When the oldest pending batch was posted; nil when none is pending.
    var oldestPost: ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        return firstPost
    }

    /// Blocks until changes are waiting or `deadline` passes; true when some are waiting.
    func wait(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty {
            if !condition.wait(until: deadline) { return !pending.isEmpty }
        }
        return true
    }
}
