import StoreCore

/// A scratch pad of live objects over an `ObjectGraph`'s store: Core Data's managed object
/// context, Realm's thread-confined view.
///
/// - One object per record (an identity map): fetching a record twice gives the same instance.
/// - Objects load lazily (faults) and are held weakly unless they have unsaved changes, so
///   objects nothing references are released; `refresh`/`reset` turn objects back into faults.
/// - Changes are tracked; `save()` writes them in one store transaction, `rollback()` drops them.
/// - Saved changes of other contexts of the same graph are merged in (see `mergePolicy`).
///
/// ```swift
/// let context = graph.newContext()
/// let ann = try context.insert("User", ["id": 1, "username": "ann"])
/// let post = try context.insert("Post", ["id": 7, "title": "Hi"])
/// try post.setRelated("author", to: ann)         // ann.related("posts") contains post at once
/// try context.save()
/// let same = try context.object("User", id: 1)   // === ann, no store access
/// ```
///
/// Threading: a context and its objects belong to one thread at a time (they are not
/// `Sendable`). Use one context per thread and pass `ObjectID`s between them.
/// A queue-bound context (`ObjectGraph.newBackgroundContext`, or a `GraphActor`'s) owns a
/// serial queue instead: use it through `perform`/`performAndWait`; its observers are pushed
/// other contexts' saves on that queue.
public final class ObjectContext {
    public let graph: ObjectGraph
    /// How merged changes from other contexts meet unsaved edits of the same attribute.
    public var mergePolicy: MergePolicy
    /// Merge other contexts' saved changes before each fetch and save (default true);
    /// otherwise call `mergeChanges()`.
    public var automaticallyMergesChanges = true
    /// Keep every registered object alive until `reset()` (Core Data's option of the same
    /// name), so re-fetching a record is served by the identity map even when the caller let
    /// go of the object. Off by default: memory then follows what the caller references. The
    /// short-lived contexts behind `ObjectGraph.read` and `write` turn it on.
    public var retainsRegisteredObjects = false {
        didSet { if !retainsRegisteredObjects { releaseRetainedObjects() } }
    }

    let model: GraphModel
    let binding: StoreBinding
    let inbox = ContextInbox()
    // The state read on every insert and fetch is exempt from the runtime's exclusivity
    // tracking (two runtime calls per access, a sixth of a direct insert): a context is used
    // by one thread at a time, and no access to these overlaps another (the compiler still
    // checks what it can see).
    /// Every live object by identity: held weakly, or strongly with `retainsRegisteredObjects`.
    @exclusivity(unchecked) var registry: [ObjectID: Registered] = [:]
    /// Inserted and updated objects, held strongly until saved or rolled back.
    @exclusivity(unchecked) var changed: [ObjectID: ManagedObject] = [:]
    /// Objects deleted since the last save, held strongly.
    @exclusivity(unchecked) var deleted: [ObjectID: ManagedObject] = [:]
    /// The store transaction reads use while one is open.
    var activeRead: (any ReadTransaction)?
    var purgeAt = 4096
    /// The declared model layout used last, found without the shared cache's lock.
    var lastModelLayout: (type: ObjectIdentifier, layout: ModelLayout)?
    /// For a context bound to a store write: the first storage error after a partial save.
    @exclusivity(unchecked) var poison: (any Error)?
    /// For a context bound to a store write: what its saves changed, published after commit.
    @exclusivity(unchecked) var boundChanges = SavedChanges()
    /// Records inserted straight into the bound store transaction (`insertDirectly`).
    @exclusivity(unchecked) var directInserts: [ObjectID] = []
    var resultsObservers: [Int: ResultsObserver] = [:]
    var objectObservers: [Int: ObjectObserver] = [:]
    var nextObserverID = 0
    /// Set while observers run, so re-running their queries does not merge again.
    var isNotifying = false
    /// For a context bound to a store transaction: set when the transaction ends. Its objects
    /// (which keep the context alive) then refuse every access.
    var transactionEnded = false
    /// Errors declared models' non-throwing accessors recorded: the first, and how many;
    /// thrown by the next `save()` (see ObjectContext+ModelInsert.swift).
    var accessErrors: (first: StoreError, count: Int)?
    /// The serial queue of a queue-bound context (`ObjectGraph.newBackgroundContext`); nil for
    /// a thread-confined one.
    var queue: ContextQueue?

    init(graph: ObjectGraph, binding: StoreBinding, mergePolicy: MergePolicy) {
        self.graph = graph
        self.model = graph.model
        self.binding = binding
        self.mergePolicy = mergePolicy
        switch binding {
        case .repository: graph.register(inbox)
        case .read(let tx): activeRead = tx
        case .write(let tx): activeRead = tx
        }
    }

    deinit { if binding.isRepository { graph.unregister(inbox) } }

    public var schema: Schema { graph.schema }

    /// How many objects are registered and alive.
    public var registeredObjectCount: Int { registry.values.count { $0.object != nil } }

    // MARK: - Creating and finding objects

    /// Inserts a new object with named values (defaults for the rest). Types are checked at
    /// once; required attributes and uniqueness are checked by `save()`.
    @discardableResult
    public func insert(_ entity: String, _ values: [String: Value]) throws -> ManagedObject {
        try insert(try schema.entity(entity).record(values))
    }

    /// Inserts a new object from a record of this graph's schema.
    @discardableResult
    public func insert(_ record: Record) throws -> ManagedObject {
        let e = try schema.entity(of: record.entity)
        guard record.values.count == e.attributes.count else {
            throw StoreError(.invalidValue, "\(e.name) has \(e.attributes.count) attributes but the record has \(record.values.count) values")
        }
        // Checked in place; copied only when a value changes form. Required values may still
        // be nil here: `save()` checks them.
        var values = record.values
        for i in values.indices where !values[i].isNull || i == e.primaryKeyOrdinal {
            if let v = try e.converted(values[i], forOrdinal: i) { values[i] = v }
        }
        let id = ObjectID(e, values[e.primaryKeyOrdinal])
        if registry[id]?.object != nil {
            throw StoreError(.conflict, "\(id) is already in this context", context: "\(id)")
        }
        let o = ManagedObject(id, context: self, state: .inserted, values: values)
        register(o)
        changed[id] = o
        return o
    }

    /// The object for a record, loading it when it is not registered; nil when no such record.
    public func object(_ entity: String, id: Value) throws -> ManagedObject? {
        try object(objectID(entity, id))
    }

    /// The object for an object ID (e.g. one from another context), loaded; nil when absent.
    public func object(_ id: ObjectID) throws -> ManagedObject? {
        try mergeIfAutomatic()
        return try existingObject(id)
    }

    /// Internal: `object(_:)` without merging first.
    func existingObject(_ id: ObjectID) throws -> ManagedObject? {
        if let o = registered(id) {
            if o.isFault {
                guard let r = try withRead({ try $0.fetch(id.entity.name, id: id.key) }) else {
                    invalidate(o)
                    return nil
                }
                o.load(r.values)
            }
            return o
        }
        if deleted[id] != nil { return nil }
        guard let r = try withRead({ try $0.fetch(id.entity.name, id: id.key) }) else { return nil }
        return object(for: r)
    }

    /// The object for a record without reading the store: registered, or a new fault that
    /// loads on first touch (and fails with `notFound` then if there is no such record).
    public func fault(_ entity: String, id: Value) throws -> ManagedObject {
        fault(try objectID(entity, id))
    }

    /// An object ID of this graph's schema, the key checked and in stored form.
    public func objectID(_ entity: String, _ id: Value) throws -> ObjectID {
        let e = try schema.entity(entity)
        return ObjectID(e, try e.checkedKey(id))
    }

    // MARK: - Deleting

    /// Marks an object deleted and applies its relationships' delete rules in the graph:
    /// nullify unlinks, cascade deletes the related objects, deny is checked by `save()`.
    /// Deleting a deleted object does nothing.
    public func delete(_ object: ManagedObject) throws {
        try checkOwned(object)
        guard object.state == .saved || object.state == .inserted else { return }
        // Read everything the rules need first, so a failed read changes nothing.
        var doomed: [ManagedObject] = []
        var seen: Set<ObjectID> = []
        var stack = [object]
        while let o = stack.popLast() {
            guard seen.insert(o.objectID).inserted else { continue }
            doomed.append(o)
            for r in model.relationships[o.entity.index] where r.relationship.deleteRule == .cascade {
                for k in try relatedKeys(o, r) {
                    let t = fault(ObjectID(r.destination, k))
                    if t.state == .saved || t.state == .inserted { stack.append(t) }
                }
            }
            for r in model.relationships[o.entity.index] { _ = try relatedKeys(o, r) }
        }
        for o in doomed where o.state == .inserted && deleted[o.objectID] != nil {
            for r in model.relationships[o.entity.index] where r.relationship.deleteRule == .deny && !(o.slots?[r.index].current.isEmpty ?? true) {
                throw StoreError(.constraintViolation, "cannot delete \(o.objectID): \(r.name) has related records and its delete rule is deny",
                                 context: "\(o.objectID)")
            }
        }
        for o in doomed {
            for r in model.relationships[o.entity.index] where r.relationship.deleteRule != .deny {
                for k in o.slots![r.index].current { unlinkPair(o, r, fault(ObjectID(r.destination, k))) }
            }
            registry[o.objectID] = nil
            changed[o.objectID] = nil
            if o.state == .inserted {
                let keepsDenyLinks = model.relationships[o.entity.index].contains {
                    $0.relationship.deleteRule == .deny && !(o.slots?[$0.index].current.isEmpty ?? true)
                }
                // Kept until the save only to refuse it by its deny rule; nothing to write.
                if keepsDenyLinks && deleted[o.objectID] == nil {
                    o.neverStored = true
                    o.state = .deleted
                    deleted[o.objectID] = o
                } else {
                    o.state = .invalidated
                }
            } else {
                o.state = .deleted
                deleted[o.objectID] = o
            }
        }
    }

    // MARK: - Internal: registry

    /// A registry entry. A strong entry costs no weak reference (whose side table Swift
    /// allocates per object) and no weak load; the contexts of one transaction use them.
    struct Registered {
        weak var weakObject: ManagedObject?
        var strongObject: ManagedObject?

        init(_ o: ManagedObject, strong: Bool) {
            if strong { strongObject = o } else { weakObject = o }
        }

        @inline(__always)
        var object: ManagedObject? { strongObject ?? weakObject }
    }

    @inline(__always)
    func registered(_ id: ObjectID) -> ManagedObject? { registry[id]?.object }

    /// Room for `n` more registered and changed objects, so a bulk insert does not rehash
    /// its way up.
    func reserveCapacity(_ n: Int) {
        registry.reserveCapacity(registry.count + n)
        changed.reserveCapacity(changed.count + n)
    }

    func register(_ o: ManagedObject) {
        registry[o.objectID] = Registered(o, strong: retainsRegisteredObjects)
        // Only weak entries can go stale, so a registry that holds its objects is never purged.
        if !retainsRegisteredObjects && registry.count >= purgeAt { purgeRegistry() }
    }

    /// Drops the entries of released objects.
    func purgeRegistry() {
        registry = registry.filter { $0.value.object != nil }
        purgeAt = max(4096, registry.count * 2)
    }

    /// Turns strong entries weak: objects nothing else references are released.
    func releaseRetainedObjects() {
        for (id, entry) in registry where entry.strongObject != nil {
            registry[id] = Registered(entry.strongObject!, strong: false)
        }
        purgeRegistry()
    }

    /// The registered object for a stored row, or a new one. A fault is filled, and an
    /// unmodified object takes the row's (newer) values.
    func object(for record: Record) -> ManagedObject {
        let id = ObjectID(record.entity, record.values[record.entity.primaryKeyOrdinal])
        if let o = registry[id]?.object {
            if o.values == nil || (o.state == .saved && o.changedOrdinals.isEmpty) { o.load(record.values) }
            return o
        }
        if let o = deleted[id] { return o }
        let o = ManagedObject(id, context: self, state: .saved, values: record.values)
        register(o)
        return o
    }

    func fault(_ id: ObjectID) -> ManagedObject {
        if let o = registry[id]?.object { return o }
        if let o = deleted[id] { return o }
        let o = ManagedObject(id, context: self, state: .saved, values: nil)
        register(o)
        return o
    }

    /// For a context bound to a store transaction, when it ends: lets go of every object (they
    /// hold the context, so this also breaks the cycle) and refuses further use.
    func endTransaction() {
        transactionEnded = true
        activeRead = nil
        registry = [:]
        changed = [:]
        deleted = [:]
    }

    func invalidate(_ o: ManagedObject) {
        if registry[o.objectID]?.object === o { registry[o.objectID] = nil }
        if changed[o.objectID] === o { changed[o.objectID] = nil }
        if deleted[o.objectID] === o { deleted[o.objectID] = nil }
        o.state = .invalidated
    }

    func checkOwned(_ o: ManagedObject) throws {
        if transactionEnded {
            throw StoreError(.closed, "\(o.objectID) was read inside an ObjectGraph read or write transaction that has ended; "
                + "fetch it again in a context you keep (graph.newContext())", context: "\(o.objectID)")
        }
        guard o.owner === self else {
            throw StoreError(.invalidValue, "\(o.objectID) belongs to another context; use object(_ id:) here")
        }
        if o.state == .invalidated {
            throw StoreError(.notFound, "\(o.objectID) is no longer in this context (rolled back, or deleted and saved)")
        }
    }

    // MARK: - Internal: loading

    /// Runs `body` with the open store transaction, or opens a read transaction for it.
    func withRead<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        if let tx = activeRead { return try body(tx) }
        if transactionEnded {
            throw StoreError(.closed, "this context served an ObjectGraph read or write transaction that has ended; use graph.newContext()")
        }
        try graph.checkStoreVersion()
        return try graph.store.read { tx in
            activeRead = tx
            defer { activeRead = nil }
            return try body(tx)
        }
    }

    /// Loads a fault's attributes (one store read); `notFound` when its record is gone.
    func fire(_ o: ManagedObject) throws {
        guard o.values == nil else { return }
        try checkOwned(o)
        guard let r = try withRead({ try $0.fetch(o.entity.name, id: o.id) }) else {
            invalidate(o)
            throw StoreError(.notFound, "\(o.objectID) no longer exists in the store", context: "\(o.objectID)")
        }
        o.load(r.values)
    }

    /// The keys at the other end of a relationship as this context sees them, loading the
    /// relationship on first use (one store read, which also registers the related objects).
    func relatedKeys(_ o: ManagedObject, _ r: RelationshipInfo) throws -> [Value] {
        _ = try loadSlot(o, r)
        return o.slots![r.index].current
    }

    /// The objects at the other end of a relationship, primary key ascending. Objects read
    /// with the relationship come loaded; others are registered objects or faults.
    func relatedObjects(_ o: ManagedObject, _ r: RelationshipInfo) throws -> [ManagedObject] {
        let justLoaded = try loadSlot(o, r)
        var byKey: [Value: ManagedObject] = [:]
        for t in justLoaded { byKey[t.id] = t }
        return o.slots![r.index].current.map { byKey[$0] ?? fault(ObjectID(r.destination, $0)) }
    }

    /// Reads a relationship not read yet; returns the objects read with it (the caller keeps
    /// them alive: the identity map alone holds objects weakly).
    private func loadSlot(_ o: ManagedObject, _ r: RelationshipInfo) throws -> [ManagedObject] {
        if o.slots == nil { o.slots = Array(repeating: RelationshipSlot(), count: o.entity.relationships.count) }
        guard o.slots![r.index].loaded == nil else { return [] }
        if o.state == .inserted || o.neverStored {
            o.slots![r.index].loaded = []
            return []
        }
        let records = try withRead { try $0.related(o.entity.name, id: o.id, via: r.name) }
        let objects = records.map { object(for: $0) }
        o.slots![r.index].loaded = objects.map(\.id)
        if r.relationship.isOrdered && o.slots![r.index].isDirty { o.slots![r.index].arrange() }
        return objects
    }

    // MARK: - Internal: relationship edits (inverses kept in memory at once)

    func markChanged(_ o: ManagedObject) {
        if o.state == .saved || o.state == .inserted { changed[o.objectID] = o }
    }

    func editSlot(_ o: ManagedObject, _ index: Int, _ edit: (inout RelationshipSlot) -> Void) {
        if o.slots == nil { o.slots = Array(repeating: RelationshipSlot(), count: o.entity.relationships.count) }
        if o.entity.relationships[index].isOrdered { o.slots![index].arrange() }
        edit(&o.slots![index])
        markChanged(o)
    }

    /// Removes the link a–b on both sides.
    func unlinkPair(_ a: ManagedObject, _ r: RelationshipInfo, _ b: ManagedObject) {
        editSlot(a, r.index) { $0.remove(b.id) }
        editSlot(b, r.inverseIndex) { $0.remove(a.id) }
    }

    /// Links a to b, replacing to-one links on either side (their old partners lose them).
    func link(_ a: ManagedObject, _ r: RelationshipInfo, _ b: ManagedObject) throws {
        try checkEditable(a)
        try checkEditable(b)
        guard b.entity.index == r.destination.index else {
            throw StoreError(.invalidValue, "\(a.entity.name).\(r.name) leads to \(r.destination.name), not \(b.entity.name)")
        }
        let inverse = model.inverse(of: r)
        // Reads first, so a failed read changes nothing.
        let oldOfA = r.isToMany ? nil : try relatedKeys(a, r).first
        if !r.isToMany, oldOfA == b.id { return }
        let oldOfB = inverse.isToMany ? nil : try relatedKeys(b, inverse).first
        try checkSecondOwner(a, r, b, ownerOfA: oldOfA, ownerOfB: oldOfB)
        if r.relationship.isOrdered { _ = try relatedKeys(a, r) }   // an ordered list appends to what it holds
        if inverse.relationship.isOrdered { _ = try relatedKeys(b, inverse) }
        if let k = oldOfA { unlinkPair(a, r, fault(ObjectID(r.destination, k))) }
        if let k = oldOfB, k != a.id { unlinkPair(fault(ObjectID(a.entity, k)), r, b) }
        editSlot(a, r.index) { $0.add(b.id) }
        editSlot(b, r.inverseIndex) { $0.add(a.id) }
    }

    func unlink(_ a: ManagedObject, _ r: RelationshipInfo, _ b: ManagedObject) throws {
        try checkEditable(a)
        try checkEditable(b)
        unlinkPair(a, r, b)
    }

    func checkEditable(_ o: ManagedObject) throws {
        try checkOwned(o)
        if o.state == .deleted {
            throw StoreError(.invalidValue, "\(o.objectID) is deleted", context: "\(o.objectID)")
        }
    }
}

/// Internal: where a context reads and writes.
enum StoreBinding {
    /// A long-lived context: each read opens a store read transaction, each save a write.
    case repository
    /// A context living inside one store transaction (how `ObjectGraph` serves `Repository`).
    case read(any ReadTransaction)
    case write(any WriteTransaction)
}

/// What happens to an attribute edited here (unsaved) that another writer changed and saved
/// since this context read it: another context of the graph, an `ObjectGraph.write`, or any
/// other writer of the store.
public enum MergePolicy: String, Sendable, CaseIterable {
    /// The default (Core Data's `NSErrorMergePolicy`): `save()` throws `conflict`, naming the
    /// objects and attributes, writes nothing and keeps every edit. Edits of different
    /// attributes of one record never conflict.
    case reportConflicts
    /// The saved value replaces the unsaved edit (Core Data's store-trump policy).
    case storeWins
    /// The unsaved edit stays and overwrites the saved value on the next save.
    case objectWins

    @available(*, deprecated, renamed: "objectWins")
    public static var inMemoryWins: MergePolicy { .objectWins }
}
