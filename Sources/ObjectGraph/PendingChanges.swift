import StoreCore

/// Internal: what a graph write transaction changed, as it stands at commit: the changes its
/// saves published, and the IDs inserted directly (see `ObjectContext.insertDirectly`), kept in
/// a list. They become one `SavedChanges` only when a context listens, so a transaction nobody
/// observes never builds a set of its inserts.
struct PendingChanges {
    var saved = SavedChanges()
    var directInserts: [ObjectID] = []

    var isEmpty: Bool { saved.isEmpty && directInserts.isEmpty }

    /// The direct inserts folded into the saved changes (those a later save deleted stay
    /// deleted, as `SavedChanges.merge` has it).
    var resolved: SavedChanges {
        guard !directInserts.isEmpty else { return saved }
        var changes = saved
        changes.inserted.reserveCapacity(changes.inserted.count + directInserts.count)
        for id in directInserts where changes.deleted.isEmpty || !changes.deleted.contains(id) { changes.inserted.insert(id) }
        return changes
    }
}
