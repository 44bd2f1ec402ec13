import StoreCore

/// Internal: one relationship of one managed object. `loaded` is what the store held when the
/// relationship was read (nil while it is a fault); `added`/`removed` are unsaved changes.
struct RelationshipSlot {
    var loaded: [Value]?
    var added: Set<Value> = []
    var removed: Set<Value> = []

    var isDirty: Bool { !added.isEmpty || !removed.isEmpty }

    /// The related keys as the context sees them, primary key ascending. Requires `loaded`.
    var current: [Value] {
        guard isDirty else { return loaded ?? [] }
        var out = (loaded ?? []).filter { !removed.contains($0) }
        let present = Set(out)
        out += added.filter { !present.contains($0) }
        return out.sorted { Value.compare($0, $1) == .orderedAscending }
    }

    mutating func add(_ key: Value) {
        if removed.remove(key) == nil { added.insert(key) }
    }

    mutating func remove(_ key: Value) {
        if added.remove(key) == nil { removed.insert(key) }
    }

    /// After a save: the current state becomes the loaded one.
    mutating func commit() {
        if loaded != nil { loaded = current }
        added = []
        removed = []
    }

    mutating func discardChanges() {
        added = []
        removed = []
    }
}
