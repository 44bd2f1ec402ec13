import StoreCore

/// Internal: one relationship of one managed object. `loaded` is what the store held when the
/// relationship was read (nil while it is a fault); `added`/`removed` are unsaved changes.
/// An ordered to-many edited in this context also keeps its whole unsaved order in `arranged`.
struct RelationshipSlot {
    var loaded: [Value]?
    var added: Set<Value> = []
    var removed: Set<Value> = []
    /// The unsaved order of an ordered to-many (`ObjectContext+Ordered`); nil when unordered
    /// or not edited.
    var arranged: [Value]?

    var isDirty: Bool { !added.isEmpty || !removed.isEmpty || (arranged != nil && arranged != loaded) }

    /// The related keys as the context sees them: primary key ascending, or the list order of
    /// an ordered to-many. Requires `loaded`.
    var current: [Value] {
        if let arranged { return arranged }
        guard isDirty else { return loaded ?? [] }
        var out = (loaded ?? []).filter { !removed.contains($0) }
        let present = Set(out)
        out += added.filter { !present.contains($0) }
        return out.sorted { Value.compare($0, $1) == .orderedAscending }
    }

    mutating func add(_ key: Value) {
        if removed.remove(key) == nil { added.insert(key) }
        if arranged != nil, !arranged!.contains(key) { arranged!.append(key) }
    }

    mutating func remove(_ key: Value) {
        if added.remove(key) == nil { removed.insert(key) }
        arranged?.removeAll { $0 == key }
    }

    /// Starts keeping the whole order of an ordered to-many (loaded, less removed, then added).
    mutating func arrange() {
        guard arranged == nil, let loaded else { return }
        let kept = loaded.filter { !removed.contains($0) }
        arranged = kept + added.filter { !kept.contains($0) }.sorted { Value.compare($0, $1) == .orderedAscending }
    }

    /// After a save: the current state becomes the loaded one.
    mutating func commit() {
        if loaded != nil { loaded = current }
        added = []
        removed = []
        arranged = nil
    }

    mutating func discardChanges() {
        added = []
        removed = []
        arranged = nil
    }
}
