import CLMDB
import StoreCore

/// Ordered to-many relationships in LMDB (storage: `LMDBOrder`): the order database is kept
/// beside the link databases by `link`, `unlink` and the delete rules.
extension LMDBTransaction {
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        try link(entity, id, relationship, target, at: Optional(index))
    }

    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        let (e, r, position) = try resolveRelationship(entity, relationship)
        try r.requireOrdered(in: e.name, for: "move(from: \(from), to: \(to))")
        let key = primaryKey(try e.checkedKey(id))
        guard try recordBytes(e, key) != nil else { throw StoreError(.notFound, "\(e.name) \(id) does not exist") }
        let dbi = layout.orders[e.index][position]!
        let members = try orderedKeys(dbi, key)
        guard try OrderedLinks.checkMove(e.name, r.name, from: from, to: to, count: members.count) else { return }
        _ = try noteMapFull { try txn.put(dbi, key, LMDBOrder.encode(OrderedLinks.moving(members, from: from, to: to))) }
    }

    /// The member keys of `owner`'s list, in order (empty without links).
    func orderedKeys(_ dbi: MDB_dbi, _ owner: [UInt8]) throws -> [[UInt8]] {
        guard let bytes = try txn.get(dbi, owner) else { return [] }
        guard let keys = LMDBOrder.decode(bytes) else {
            throw StoreError(.corrupted, "the list order stored for \(KeyEncoding.describe(owner)) cannot be read")
        }
        return keys
    }

    /// The order databases of `e`'s relationship at `position` and of its inverse (nil: unordered).
    @inline(__always)
    func orderDatabases(_ e: Entity, _ position: Int) -> (forward: MDB_dbi?, backward: MDB_dbi?) {
        (layout.orders[e.index][position], layout.inverseOrders[e.index][position])
    }

    /// Puts `member` at `index` of `owner`'s list (its end when nil); a member already there stays.
    func addToOrder(_ dbi: MDB_dbi?, owner: [UInt8], member: [UInt8], at index: Int?) throws {
        guard let dbi else { return }
        var keys = try orderedKeys(dbi, owner)
        if keys.contains(member) { return }
        keys.insert(member, at: index ?? keys.count)
        try txn.put(dbi, owner, LMDBOrder.encode(keys))
    }

    /// Takes `member` out of `owner`'s list; the members after it move up one place.
    func removeFromOrder(_ dbi: MDB_dbi?, owner: [UInt8], member: [UInt8]) throws {
        guard let dbi else { return }
        var keys = try orderedKeys(dbi, owner)
        guard let i = keys.firstIndex(of: member) else { return }
        keys.remove(at: i)
        if keys.isEmpty { try txn.delete(dbi, owner) } else { try txn.put(dbi, owner, LMDBOrder.encode(keys)) }
    }

    /// After a migration: each owner with links but no list order yet (a relationship made
    /// ordered, or one whose entity was renamed) gets its links in key order.
    func fillMissingOrders() throws {
        for e in schema.entities {
            for i in e.relationships.indices {
                guard let dbi = layout.orders[e.index][i] else { continue }
                let links = layout.relationships[e.index][i]
                var owners: [[UInt8]] = []
                try LMDBCursor(txn, links).forEachEntry { k, _ in if !(owners.last?.elementsEqual(k) ?? false) { owners.append(Array(k)) } }
                for owner in owners where try txn.get(dbi, owner) == nil {
                    try txn.put(dbi, owner, LMDBOrder.encode(try linkedKeys(links, owner)))
                }
            }
        }
    }

    /// Each ordered list against its links: the same members, none twice, no list without links.
    func checkOrders(into report: inout VerificationReport) {
        var checked = false
        for e in schema.entities {
            for (i, r) in e.relationships.enumerated() {
                guard let dbi = layout.orders[e.index][i] else { continue }
                checked = true
                checkOrder(e, r, dbi, links: layout.relationships[e.index][i], &report)
            }
        }
        if checked { report.checks.append("order databases: each list holds its owner's links, each once") }
    }

    private func checkOrder(_ e: Entity, _ r: Relationship, _ dbi: MDB_dbi, links: MDB_dbi, _ report: inout VerificationReport) {
        let area = LMDBOrder.databaseName(e, r)
        do {
            var owners = Set<[UInt8]>()
            try LMDBCursor(txn, links).forEachEntry { k, _ in owners.insert(Array(k)) }
            try LMDBCursor(txn, dbi).forEachEntry { k, _ in owners.insert(Array(k)) }
            for owner in owners {
                let list = try orderedKeys(dbi, owner), linked = try linkedKeys(links, owner)
                if list.count != Set(list).count || Set(list) != Set(linked) {
                    report.add(area, "the list of \(KeyEncoding.describe(owner)) has \(list.count) places for \(linked.count) links (missing or repeated positions)")
                }
            }
        } catch { report.add(area, "reading the list order failed: \(error)") }
    }
}
