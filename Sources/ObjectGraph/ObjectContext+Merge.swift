import Foundation
import StoreCore

extension ObjectContext {
    /// Merges the changes other contexts of this graph have saved since the last merge into the
    /// registered objects, then tells this context's observers. Runs before each fetch and
    /// save when `automaticallyMergesChanges` is on.
    ///
    /// - Deleted records: their objects leave the context (unsaved edits of them are dropped).
    /// - Updated records: unmodified objects turn into faults (they reload on next touch);
    ///   objects with unsaved edits reload now and keep or lose edits by `mergePolicy`.
    /// - Changed relationships reload on next access; unsaved link changes are kept.
    public func mergeChanges() throws {
        let batches = inbox.drain()
        guard !batches.isEmpty else { return }
        var all = SavedChanges()
        for c in batches { all.merge(c) }
        try apply(all)
        notifyObservers(all)
    }

    func mergeIfAutomatic() throws {
        if automaticallyMergesChanges, !isNotifying, binding.isRepository { try mergeChanges() }
    }

    /// Brings registered objects up to date with changes already in the store.
    func apply(_ c: SavedChanges) throws {
        for id in c.deleted {
            // Under reportConflicts an edited object stays, so that its save reports the delete.
            if let o = registered(id), !(mergePolicy == .reportConflicts && o.isUpdated) { invalidate(o) }
            if let o = deleted[id] { invalidate(o) }
        }
        for (id, keys) in c.updated {
            guard let o = registered(id) else { continue }
            if o.slots != nil {
                for r in model.relationships[o.entity.index] where keys.contains(r.name) { o.slots![r.index].loaded = nil }
            }
            guard o.values != nil, keys.contains(where: { o.entity.ordinal(of: $0) != nil }) else { continue }
            if o.changedOrdinals.isEmpty, o.state == .saved {
                o.values = nil      // attributes only: its unsaved link changes stay
                o.committed = nil
                o.model?.persistentValuesDidChange()
                continue
            }
            try reload(o, changedElsewhere: keys)
        }
        if c.mayAffectUnlisted {
            for (_, w) in registry {
                guard let o = w.object, o.state == .saved else { continue }
                if !o.hasChanges {
                    o.turnIntoFault()
                } else if o.slots != nil {
                    for i in o.slots!.indices { o.slots![i].loaded = nil }
                }
            }
        }
    }

    /// Reloads an edited object: the stored values become its saved state and unsaved edits
    /// stay, but for attributes also changed elsewhere: `storeWins` drops the edit, and
    /// `reportConflicts` keeps the snapshot the edit was made on, so that `save()` reports it.
    private func reload(_ o: ManagedObject, changedElsewhere keys: Set<String>) throws {
        guard let r = try withRead({ try $0.fetch(o.entity.name, id: o.id) }) else {
            if mergePolicy != .reportConflicts { invalidate(o) }
            return
        }
        var values = r.values
        var committed = r.values
        for i in o.changedOrdinals {
            let theirs = keys.contains(o.entity.attributes[i].name)
            if theirs && mergePolicy == .storeWins {
                o.changedOrdinals.remove(i)
                continue
            }
            values[i] = o.values![i]
            if theirs && mergePolicy == .reportConflicts, let snapshot = o.committed { committed[i] = snapshot[i] }
        }
        o.values = values
        o.committed = committed
        o.model?.persistentValuesDidChange()
    }

    // MARK: - Refreshing

    /// Turns an unmodified object back into a fault (attributes and relationships reload on
    /// next touch) so its memory can go. An object with unsaved changes is left as it is.
    public func refresh(_ object: ManagedObject) {
        guard object.context === self, object.state == .saved, !object.hasChanges else { return }
        object.turnIntoFault()
    }

    /// Drops every unsaved change (`rollback()`), turns every registered object into a fault,
    /// lets go of retained objects and forgets released ones: memory held by the context goes
    /// back to what the caller still references.
    public func reset() {
        rollback()
        for (_, w) in registry {
            if let o = w.object { refresh(o) }
        }
        if retainsRegisteredObjects { releaseRetainedObjects() } else { purgeRegistry() }
    }
}

extension StoreBinding {
    var isRepository: Bool { if case .repository = self { true } else { false } }
}

extension ObjectContext {
    /// Blocks the context's thread until other contexts of the graph have saved changes for it
    /// to merge, or `timeout` seconds pass; true when changes are waiting. It merges nothing:
    /// call `mergeChanges()` (or fetch, with automatic merging) next. This is the run-loop
    /// wait of a thread that only reacts to saves elsewhere.
    ///
    /// ```swift
    /// while context.waitForChanges(timeout: 1) { try context.mergeChanges() }  // observers fire
    /// ```
    public func waitForChanges(timeout: Double) -> Bool {
        inbox.wait(until: Date(timeIntervalSinceNow: max(0, timeout)))
    }
}
