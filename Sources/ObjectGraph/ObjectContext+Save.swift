import StoreCore

extension ObjectContext {
    /// True when there are unsaved inserts, updates or deletes.
    public var hasChanges: Bool {
        !deleted.isEmpty || changed.values.contains { $0.hasChanges }
    }

    /// Internal: whether any object may carry unsaved work (cheap; `hasChanges` is exact).
    /// Without it, reads go straight to the store.
    var mayHaveUnsavedWork: Bool { !changed.isEmpty || !deleted.isEmpty }

    public var insertedObjects: [ManagedObject] { changed.values.filter(\.isInserted) }
    public var updatedObjects: [ManagedObject] { changed.values.filter(\.isUpdated) }
    public var deletedObjects: [ManagedObject] { Array(deleted.values) }

    /// Writes every change in one store transaction: inserts, only the changed attributes of
    /// updated objects, link changes, deletes. Validation (required attributes, types, deny
    /// rules) runs first; when anything fails, the context and the store stay as they were.
    /// An edited attribute that another writer changed since this context read it is settled
    /// by `mergePolicy`: by default the save throws `conflict` naming it (`MergeConflict`).
    public func save() throws {
        if let poison { throw poison }
        try throwRecordedAccessErrors()
        try mergeIfAutomatic()
        guard hasChanges else { return }
        var plan = try SavePlan(self)
        switch binding {
        case .repository:
            try graph.checkStoreVersion()
            try graph.store.write { tx in
                let conflicts = try conflicts(in: tx)
                if !conflicts.isEmpty, try settle(conflicts, in: tx) { plan = try SavePlan(self) }
                try plan.perform(in: tx)
            }
        case .read:
            throw StoreError(.unsupported, "this context reads inside a read transaction and cannot save")
        case .write(let tx):
            var applied = 0
            do {
                try plan.perform(in: tx, applied: &applied)
            } catch {
                // A partial save cannot be undone inside the store transaction: the whole
                // write must roll back, so every later call gets this error.
                if applied > 0 { poison = error }
                throw error
            }
        }
        commitSaved()
        publish(plan.changes)
    }

    /// Drops every unsaved change: inserted objects leave the context, updated ones get their
    /// saved values back, deleted ones return.
    public func rollback() {
        for o in changed.values {
            if o.state == .inserted {
                invalidate(o)
            } else {
                if let c = o.committed { o.values = c }
                o.changedOrdinals = []
                discardSlotChanges(o)
            }
        }
        changed = [:]
        for o in deleted.values {
            if o.neverStored {
                o.state = .invalidated
                continue
            }
            o.state = .saved
            discardSlotChanges(o)
            register(o)
        }
        deleted = [:]
    }

    private func discardSlotChanges(_ o: ManagedObject) {
        guard o.slots != nil else { return }
        for i in o.slots!.indices { o.slots![i].discardChanges() }
    }

    /// After the store committed: the current state becomes the saved one.
    private func commitSaved() {
        for o in deleted.values {
            o.state = .invalidated
            o.slots = nil
        }
        deleted = [:]
        for o in changed.values {
            if o.state == .inserted { o.state = .saved }
            o.committed = o.values
            o.changedOrdinals = []
            if o.slots != nil {
                for i in o.slots!.indices { o.slots![i].commit() }
            }
        }
        changed = [:]
    }

    /// Tells observers and other contexts (for a context inside a store write: after commit).
    func publish(_ changes: SavedChanges) {
        guard !changes.isEmpty else { return }
        switch binding {
        case .repository:
            graph.broadcast(changes, except: inbox)
            notifyObservers(changes)
        case .read, .write:
            boundChanges.merge(changes)
        }
    }
}

/// Internal: the store operations of one save, in an order that cannot trip over itself:
/// unlinks, deletes (their links are gone, so the store's rules have nothing left to do —
/// the graph applied them), updates, inserts, links.
struct SavePlan {
    struct LinkOp {
        let entity: String
        let id: Value
        let relationship: String
        let target: Value
    }

    var unlinks: [LinkOp] = []
    var deletes: [ObjectID] = []
    var updates: [(ObjectID, [String: Value])] = []
    /// Inserted records by entity index.
    var inserts: [[Record]]
    var links: [LinkOp] = []
    /// The unsaved orders of ordered to-manys, applied after the links (`SavePlan+Ordered`).
    var orders: [OrderOp] = []
    var changes = SavedChanges()

    /// Validates and plans; throws the first validation error.
    init(_ context: ObjectContext) throws {
        let model = context.model
        inserts = Array(repeating: [], count: context.schema.entities.count)
        changes.inserted.reserveCapacity(context.changed.count)
        for o in context.deleted.values {
            for r in model.relationships[o.entity.index] where r.relationship.deleteRule == .deny {
                let n = o.slots?[r.index].current.count ?? 0
                if n > 0 {
                    throw StoreError(.constraintViolation,
                                     "cannot delete \(o.objectID): \(r.name) still has \(n) related record(s) and its delete rule is deny",
                                     context: "\(o.objectID)")
                }
            }
            if o.neverStored { continue }
            deletes.append(o.objectID)
            changes.deleted.insert(o.objectID)
            planLinks(o, model)
        }
        for o in context.changed.values where o.hasChanges {
            let e = o.entity
            if o.state == .inserted {
                inserts[e.index].append(try e.checkedRecord(Record(e, values: o.values!)))
                changes.inserted.insert(o.objectID)
            } else {
                var set: [String: Value] = [:]
                for i in o.changedOrdinals.sorted() where o.committed.map({ !o.values![i].isIdentical(to: $0[i]) }) ?? true {
                    set[e.attributes[i].name] = try e.checkedValue(o.values![i], forOrdinal: i)
                }
                if !set.isEmpty { updates.append((o.objectID, set)) }
                let keys = o.changedKeys
                if !keys.isEmpty { changes.updated[o.objectID] = keys }
            }
            planLinks(o, model)
            planOrders(o, model)
        }
    }

    private mutating func planLinks(_ o: ManagedObject, _ model: GraphModel) {
        guard let slots = o.slots else { return }
        for r in model.relationships[o.entity.index] where r.isCanonical && slots[r.index].isDirty {
            let s = slots[r.index]
            for t in s.removed.sorted(by: Value.ascending) { unlinks.append(LinkOp(entity: o.entity.name, id: o.id, relationship: r.name, target: t)) }
            for t in s.added.sorted(by: Value.ascending) { links.append(LinkOp(entity: o.entity.name, id: o.id, relationship: r.name, target: t)) }
        }
    }

    func perform(in tx: any WriteTransaction) throws {
        var applied = 0
        try perform(in: tx, applied: &applied)
    }

    /// Runs the operations; `applied` counts those that succeeded.
    func perform(in tx: any WriteTransaction, applied: inout Int) throws {
        for op in unlinks {
            try tx.unlink(op.entity, id: op.id, op.relationship, from: op.target)
            applied += 1
        }
        for id in deletes {
            try tx.delete(id.entity.name, id: id.key)
            applied += 1
        }
        for (id, set) in updates {
            try tx.update(id.entity.name, id: id.key, set: set)
            applied += 1
        }
        for records in inserts where !records.isEmpty {
            if records.count == 1 { try tx.insert(records[0]) } else { try tx.insert(contentsOf: records) }
            applied += records.count
        }
        for op in links {
            try tx.link(op.entity, id: op.id, op.relationship, to: op.target)
            applied += 1
        }
        for op in orders {
            try op.apply(in: tx)
            applied += 1
        }
    }
}

extension Value {
    /// Internal: ascending order for sorting keys.
    static func ascending(_ a: Value, _ b: Value) -> Bool { compare(a, b) == .orderedAscending }
}
