import StoreCore

extension ObjectContext {
    /// Internal: inserts records straight into the store transaction the context is bound to,
    /// through the store's own insert (one record) or batch insert (several), making no objects:
    /// what `WriteTransaction.insert` on the graph does when nothing else is pending. The
    /// store's operation is atomic, so a refused insert (a key or unique value taken, a bad
    /// value) throws at the call and leaves the context and the transaction as they were.
    /// The inserted IDs join the transaction's changes for observers.
    ///
    /// Returns false, doing nothing, when it does not apply and the caller must save through
    /// objects: the context is not bound to a write, has unsaved work or a failed save, an
    /// entity is embedded (its owner is checked at save), or a record's ID is registered here or was
    /// deleted earlier in the transaction.
    func insertDirectly(_ records: [Record]) throws -> Bool {
        guard case .write(let tx) = binding, canInsertDirectly, !records.isEmpty else { return false }
        var ids: [ObjectID] = []
        ids.reserveCapacity(records.count)
        for r in records {
            guard let id = try directInsertID(r) else { return false }
            ids.append(id)
        }
        try tx.insert(contentsOf: records)
        directInserts += ids
        return true
    }

    /// `insertDirectly` of one record (no arrays made per insert).
    func insertDirectly(_ record: Record) throws -> Bool {
        guard case .write(let tx) = binding, canInsertDirectly, let id = try directInsertID(record) else { return false }
        try tx.insert(record)
        directInserts.append(id)
        return true
    }

    private var canInsertDirectly: Bool { poison == nil && !mayHaveUnsavedWork }

    /// The ID of a record to insert directly; nil when it cannot be (see `insertDirectly`).
    private func directInsertID(_ r: Record) throws -> ObjectID? {
        let e = try schema.entity(of: r.entity)
        guard !e.isEmbedded, r.values.count == e.attributes.count else { return nil }
        // The key in stored form; the store checks every value of the record itself.
        let key = r.values[e.primaryKeyOrdinal]
        let id = ObjectID(e, try e.converted(key, forOrdinal: e.primaryKeyOrdinal) ?? key)
        guard registry[id] == nil, boundChanges.deleted.isEmpty || !boundChanges.deleted.contains(id) else { return nil }
        return id
    }

    /// Internal: what the bound transaction changed, the direct inserts still in their list.
    var transactionChanges: PendingChanges { PendingChanges(saved: boundChanges, directInserts: directInserts) }
}
