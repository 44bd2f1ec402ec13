import StoreCore

// Batch operations go straight to the store in one transaction of their own, as Core Data's
// batch insert/update/delete requests do, and are then merged into the registered objects of
// this context (by `mergePolicy`) and of every other context of the graph.

extension ObjectContext {
    /// Inserts records without creating objects: all of them or, on error, none.
    public func batchInsert(_ records: [Record]) throws {
        var c = SavedChanges()
        try withWrite { tx in
            try tx.insert(contentsOf: records)
        }
        for r in records { c.inserted.insert(ObjectID(r.entity, r.id)) }
        try finishBatch(c)
    }

    /// Sets attributes on every matching record; returns how many matched. Registered objects
    /// of those records reload.
    @discardableResult
    public func batchUpdate(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        let e = try schema.entity(entity)
        var c = SavedChanges()
        let keys = Set(changes.keys)
        let n = try withWrite { tx in
            var ids: [Value] = []
            try tx.forEach(Query(entity, where: predicate)) { ids.append($0.id) }
            let n = try tx.update(entity, where: predicate, set: changes)
            for id in ids { c.updated[ObjectID(e, id)] = keys }
            return n
        }
        try finishBatch(c)
        return n
    }

    /// Deletes every matching record, the store applying the delete rules; returns how many
    /// matched. Their objects leave the context; other objects refresh, since the rules may
    /// have changed them.
    @discardableResult
    public func batchDelete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        let e = try schema.entity(entity)
        var c = SavedChanges()
        let n = try withWrite { tx in
            var ids: [Value] = []
            try tx.forEach(Query(entity, where: predicate)) { ids.append($0.id) }
            let n = try tx.delete(entity, where: predicate)
            for id in ids { c.deleted.insert(ObjectID(e, id)) }
            return n
        }
        c.mayAffectUnlisted = !e.relationships.isEmpty
        try finishBatch(c)
        return n
    }

    private func withWrite<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        if let poison { throw poison }
        switch binding {
        case .repository:
            try graph.checkStoreVersion()
            return try graph.store.write(body)
        case .write(let tx): return try body(tx)
        case .read: throw StoreError(.unsupported, "this context reads inside a read transaction and cannot write")
        }
    }

    private func finishBatch(_ c: SavedChanges) throws {
        guard !c.isEmpty else { return }
        try apply(c)
        switch binding {
        case .repository:
            graph.broadcast(c, except: inbox)
            notifyObservers(c)
        case .read, .write:
            boundChanges.merge(c)
        }
    }
}
