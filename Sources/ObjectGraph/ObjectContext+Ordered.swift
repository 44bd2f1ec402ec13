import StoreCore

/// Internal: edits of ordered to-many relationships. The slot's `arranged` holds the order as
/// this context sees it; `save()` writes the links, then moves them into that order.
extension ObjectContext {
    /// Links a to b at `index` of a's ordered relationship `r` (b already there: no change).
    func link(_ a: ManagedObject, _ r: RelationshipInfo, _ b: ManagedObject, at index: Int) throws {
        try r.relationship.requireOrdered(in: a.entity.name, for: "insert(at: \(index))")
        let keys = try relatedKeys(a, r)
        try OrderedLinks.checkInsertion(a.entity.name, r.name, index: index, count: keys.count)
        try link(a, r, b)
        if keys.contains(b.id) { return }
        let now = try relatedKeys(a, r)
        guard let last = now.firstIndex(of: b.id) else { return }
        editSlot(a, r.index) { $0.arranged = OrderedLinks.moving(now, from: last, to: index) }
    }

    /// Moves the link at `from` of a's ordered relationship `r` to `to`.
    func moveLink(_ a: ManagedObject, _ r: RelationshipInfo, from: Int, to: Int) throws {
        try checkEditable(a)
        try r.relationship.requireOrdered(in: a.entity.name, for: "move(from: \(from), to: \(to))")
        let keys = try relatedKeys(a, r)
        guard try OrderedLinks.checkMove(a.entity.name, r.name, from: from, to: to, count: keys.count) else { return }
        editSlot(a, r.index) { $0.arranged = OrderedLinks.moving(keys, from: from, to: to) }
    }

    /// Unlinks the object at `index` of a's ordered relationship `r`; returns it.
    func unlink(_ a: ManagedObject, _ r: RelationshipInfo, at index: Int) throws -> ManagedObject {
        try r.relationship.requireOrdered(in: a.entity.name, for: "remove(at: \(index))")
        let keys = try relatedKeys(a, r)
        try OrderedLinks.checkExisting(a.entity.name, r.name, index: index, count: keys.count)
        let b = fault(ObjectID(r.destination, keys[index]))
        try unlink(a, r, b)
        return b
    }
}
