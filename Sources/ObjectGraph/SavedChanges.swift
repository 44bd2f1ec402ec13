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
    }
}

/// Internal: saved changes of other contexts, waiting to be merged. Filled from any thread.
final class ContextInbox: Sendable {
    private let pending = Locked<[SavedChanges]>([])

    func post(_ c: SavedChanges) { pending.withLock { $0.append(c) } }

    func drain() -> [SavedChanges] {
        pending.withLock { p in
            defer { p = [] }
            return p
        }
    }
}
