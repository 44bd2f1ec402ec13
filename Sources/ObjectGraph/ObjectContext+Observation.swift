import StoreCore

/// What a results observer receives.
public enum ResultsChange {
    /// The results when observation starts.
    case initial([ManagedObject])
    /// The results after a save or merge changed them, with the change from the previous ones.
    case update([ManagedObject], CollectionChange)
    /// Re-running the query failed; observation goes on.
    case error(any Error)
}

/// What an object observer receives.
public enum ObjectChange: Sendable, Hashable {
    /// Saved changes of these attributes and relationships.
    case changed(keys: [String])
    /// The object's record was deleted; observation ends.
    case deleted
}

/// Keeps an observation alive; it stops when this is released or `cancel()` is called.
public final class ObservationToken {
    private weak var context: ObjectContext?
    private let id: Int

    init(context: ObjectContext, id: Int) {
        self.context = context
        self.id = id
    }

    /// Stops the observation. On a queue-bound context it may be called from any thread: it
    /// waits for a delivery under way, and none comes after it returns.
    public func cancel() {
        guard let context else { return }
        let id = self.id
        let remove = {
            context.resultsObservers[id] = nil
            context.objectObservers[id] = nil
        }
        if let queue = context.queue { queue.sync(remove) } else { remove() }
    }

    deinit { cancel() }
}

struct ResultsObserver {
    let query: Query
    var last: [ObjectID]
    let handler: (ResultsChange) -> Void
    /// The attribute values delivered last, where another process's commits may arrive
    /// (`ObjectGraph.otherProcesses`): what their modifications are found from.
    var values: [ObjectID: [Value]]?
}

struct ObjectObserver {
    let object: ManagedObject
    let handler: (ObjectChange) -> Void
    /// Another process's commits may arrive (`ObjectGraph.otherProcesses`).
    var watched = false
    /// Its attribute values as stored when last looked at (nil: no record yet), where watched:
    /// what another process's changed keys are found from.
    var stored: [Value]?
}

extension ObjectContext {
    /// Observes a query: `handler` gets the initial results at once, then, after each save of
    /// this context and each merge of other contexts' saves that changes the results, the new
    /// results and a `CollectionChange` (deletions, insertions, modifications).
    ///
    /// ```swift
    /// let token = try context.observe(Query("User", sort: [.asc("username")])) { change in
    ///     if case .update(_, let c) = change { table.apply(c.deletions, c.insertions, c.modifications) }
    /// }
    /// ```
    ///
    /// Handlers run on the context's thread, inside the call that saved or merged; on a
    /// queue-bound context (`ObjectGraph.newBackgroundContext`), on its queue, pushed after
    /// each save elsewhere without a call to `mergeChanges()`.
    public func observe(_ query: Query, _ handler: @escaping (ResultsChange) -> Void) throws -> ObservationToken {
        try checkOnOwnQueue("observe(\(query.entity))")
        let objects = try fetch(query)
        let id = nextObserverID
        nextObserverID += 1
        resultsObservers[id] = ResultsObserver(query: query, last: objects.map(\.objectID), handler: handler,
                                               values: graph.otherProcesses == nil ? nil : Self.values(of: objects))
        handler(.initial(objects))
        return ObservationToken(context: self, id: id)
    }

    /// Observes one object: `handler` gets the names of changed keys after each save or merge
    /// that changed it, or `.deleted` once.
    public func observe(_ object: ManagedObject, _ handler: @escaping (ObjectChange) -> Void) throws -> ObservationToken {
        try checkOnOwnQueue("observe(\(object.objectID))")
        try checkOwned(object)
        let id = nextObserverID
        nextObserverID += 1
        let watched = graph.otherProcesses != nil
        objectObservers[id] = ObjectObserver(object: object, handler: handler, watched: watched,
                                             stored: watched ? try storedValues(of: object) : nil)
        return ObservationToken(context: self, id: id)
    }

    /// The loaded attribute values of `objects` (a fault's are absent: it counts as changed).
    static func values(of objects: [ManagedObject]) -> [ObjectID: [Value]] {
        Dictionary(objects.compactMap { o in o.values.map { (o.objectID, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    func notifyObservers(_ c: SavedChanges) {
        isNotifying = true
        defer { isNotifying = false }
        for (id, var o) in resultsObservers.sorted(by: { $0.key < $1.key }) {
            let objects: [ManagedObject]
            do {
                objects = try fetch(o.query)
            } catch {
                o.handler(.error(error))
                continue
            }
            let new = objects.map(\.objectID)
            let now = o.values == nil ? nil : Self.values(of: objects)
            let change = CollectionChange.between(old: o.last, new: new) { id in
                if c.updated[id] != nil { return true }
                guard c.byAnotherProcess, let before = o.values, let now else { return c.mayAffectUnlisted }
                return before[id] != now[id]
            }
            o.last = new
            o.values = now
            resultsObservers[id] = o
            if !change.isEmpty { o.handler(.update(objects, change)) }
        }
        for (id, var o) in objectObservers.sorted(by: { $0.key < $1.key }) {
            let oid = o.object.objectID
            // Watched, and changed here or maybe elsewhere: the record as stored now (nil inside:
            // gone), unless the read failed.
            var now: [Value]?? = nil
            if o.watched && (c.byAnotherProcess || c.updated[oid] != nil || c.inserted.contains(oid)) { now = try? .some(storedValues(of: o.object)) }
            if c.deleted.contains(oid) || (c.byAnotherProcess && o.stored != nil && now == .some(nil)) {
                objectObservers[id] = nil
                o.handler(.deleted)
                continue
            }
            var keys = c.updated[oid] ?? []
            if case .some(let after) = now {
                if c.byAnotherProcess, let before = o.stored, let after {
                    keys.formUnion(o.object.entity.attributes.indices.filter { before[$0] != after[$0] }.map { o.object.entity.attributes[$0].name })
                }
                o.stored = after
            }
            objectObservers[id] = o
            if !keys.isEmpty { o.handler(.changed(keys: keys.sorted())) }
        }
    }

    /// The object's attribute values as the store holds them now; nil when it holds no such record.
    private func storedValues(of object: ManagedObject) throws -> [Value]? {
        try withRead { try $0.fetch(object.entity.name, id: object.id) }?.values
    }
}
