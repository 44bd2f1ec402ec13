import StoreCore
import Synchronization

/// A live object of an `ObjectContext`: one record of one entity, unique in its context.
///
/// Objects fetched through relationships, by `ObjectContext.fault(_:)` or after `refresh` are
/// *faults*: their attributes load from the store on first touch, exactly once. Changes are
/// tracked and written by `ObjectContext.save()`.
///
/// ```swift
/// let ann = try context.insert("User", ["id": 1, "username": "ann"])
/// try ann.set("bio", "hello")
/// let name: String = try ann.require("username")
/// for post in try ann.related("posts") { print(try post.value("title")) }
/// ```
///
/// An object keeps its context alive, as a Realm object keeps its Realm: objects fetched in a
/// context nobody else references stay usable. Objects read inside `ObjectGraph.read` or `write`
/// are usable only in that transaction.
///
/// Threading: an object belongs to its context's thread. Pass `objectID` to other threads.
public final class ManagedObject {
    public let objectID: ObjectID
    /// The context that owns this object.
    let owner: ObjectContext

    /// Internal state, read and written by the context.
    enum State { case saved, inserted, deleted, invalidated }
    var state: State
    /// Attribute values in attribute order; nil while a fault.
    var values: [Value]?
    /// The values as last saved (shares storage with `values` until one is set).
    var committed: [Value]?
    /// Ordinals set since the last save.
    var changedOrdinals: Set<Int> = []
    /// Per relationship, allocated on first use.
    var slots: [RelationshipSlot]?
    /// Deleted before it was ever saved: the save checks its deny rules and writes nothing.
    var neverStored = false
    /// The declared model (`@Model`) bound to this object, told when a reload replaces the values.
    /// Weak: a model retains its object, and a model may end on any thread (the weak reference is
    /// the one way to drop it there safely; an unowned one saved about 1% of a declared read).
    weak var model: (any PersistentModel)?

    init(_ id: ObjectID, context: ObjectContext, state: State, values: [Value]?) {
        objectID = id
        owner = context
        self.state = state
        self.values = values
        committed = state == .inserted ? nil : values
        LiveObjects.increment()
    }

    deinit { LiveObjects.decrement() }

    /// The context that owns this object (always set; optional for source compatibility).
    public var context: ObjectContext? { owner }

    public var entity: Entity { objectID.entity }
    /// The primary key.
    public var id: Value { objectID.key }

    /// True until the attributes are loaded.
    public var isFault: Bool { values == nil && state != .inserted }
    public var isInserted: Bool { state == .inserted }
    public var isDeleted: Bool { state == .deleted }
    /// True when the object no longer belongs to a context (rolled back insert, saved delete,
    /// deleted elsewhere, or read in a transaction that has ended).
    public var isInvalidated: Bool { state == .invalidated || owner.transactionEnded }
    /// True when it has unsaved attribute or relationship changes.
    public var isUpdated: Bool {
        state == .saved && (!changedOrdinals.isEmpty || (slots?.contains { $0.isDirty } ?? false))
    }
    public var hasChanges: Bool { state == .inserted || state == .deleted || isUpdated }

    /// Names of the attributes and relationships changed since the last save.
    public var changedKeys: Set<String> {
        var keys = Set(changedOrdinals.map { entity.attributes[$0].name })
        if let slots {
            for (i, s) in slots.enumerated() where s.isDirty { keys.insert(entity.relationships[i].name) }
        }
        return keys
    }
}

extension ManagedObject: CustomStringConvertible {
    public var description: String {
        let state = isFault ? "fault" : "\(self.state)"
        return "ManagedObject(\(objectID), \(state))"
    }
}

/// How many managed objects are alive in this process. Tests and the memory probe use it to
/// show that refreshed objects are released.
public enum LiveObjects {
    private static let count = Atomic<Int>(0)

    public static var current: Int { count.load(ordering: .relaxed) }
    static func increment() { count.add(1, ordering: .relaxed) }
    static func decrement() { count.subtract(1, ordering: .relaxed) }
}
