import StoreCore

/// Ordered to-many relationships over SQL (storage: `SQLOrderedList`). Each operation reads the
/// owner's members in position order, changes that array and writes back the positions from the
/// first one that moved, inside a savepoint: a refused operation changes nothing.
extension SQLTransaction {
    public func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        let e = try self.entity(entity, forWrite: true)
        let r = try e.requireRelationship(relationship)
        try r.requireOrdered(in: e.name, for: "link(at: \(index))")
        let d = schema[r.destination]!
        let key = try e.checkedKey(id), tkey = try d.checkedKey(target)
        try requireExists(e, key)
        try requireExists(d, tkey)
        try linkOrdered(e, r, key, to: tkey, at: index)
    }

    public func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        let e = try self.entity(entity, forWrite: true)
        let r = try e.requireRelationship(relationship)
        try r.requireOrdered(in: e.name, for: "move(from: \(from), to: \(to))")
        let key = try e.checkedKey(id)
        try requireExists(e, key)
        let list = mapping.orderedList(e, r)!
        let members = try orderedMembers(list, key, of: r)
        guard try OrderedLinks.checkMove(e.name, r.name, from: from, to: to, count: members.count) else { return }
        try db.atomically {
            try writePositions(list, key, OrderedLinks.moving(members, from: from, to: to), from: min(from, to))
        }
    }

    /// Links `key` to `tkey` keeping every ordered list involved dense: the target joins `r`'s
    /// list at `index` (the end when `nil`), the source joins the inverse's list at its end, and
    /// a one-to-many member taken from a previous owner leaves no gap there.
    func linkOrdered(_ e: Entity, _ r: Relationship, _ key: Value, to tkey: Value, at index: Int?) throws {
        let (d, inv) = schema.inverse(of: r)
        let forward = mapping.orderedList(e, r), backward = mapping.orderedList(d, inv)
        let own = try forward.map { try orderedMembers($0, key, of: r) }
        let theirs = try backward.map { try orderedMembers($0, tkey, of: inv) }
        if let index { try OrderedLinks.checkInsertion(e.name, r.name, index: index, count: own?.count ?? 0) }
        try embedded.checkLink(in: self, e, key, r, tkey)
        if own?.contains(tkey) ?? theirs?.contains(key) ?? false { return }
        let displaced = try previousOwner(forward, member: tkey, unless: key) + previousOwner(backward, member: key, unless: tkey)
        try db.atomically {
            try linkRows(e, r, key, tkey)
            if let forward, var list = own {
                let at = index ?? list.count
                list.insert(tkey, at: at)
                try writePositions(forward, key, list, from: at)
            }
            if let backward, var list = theirs {
                list.append(key)
                try writePositions(backward, tkey, list, from: list.count - 1)
            }
            for (list, owner) in displaced { try closeGaps(list, owner) }
        }
    }

    /// Unlinks and closes the gap in every ordered list the link was in.
    func unlinkOrdered(_ e: Entity, _ r: Relationship, _ key: Value, from tkey: Value) throws {
        let (d, inv) = schema.inverse(of: r)
        let forward = mapping.orderedList(e, r), backward = mapping.orderedList(d, inv)
        let own = try forward.map { try orderedMembers($0, key, of: r) }
        let theirs = try backward.map { try orderedMembers($0, tkey, of: inv) }
        try db.atomically {
            try unlinkRows(e, r, key, tkey)
            if let forward, var list = own, let i = list.firstIndex(of: tkey) {
                list.remove(at: i)
                try writePositions(forward, key, list, from: i)
            }
            if let backward, var list = theirs, let i = list.firstIndex(of: key) {
                list.remove(at: i)
                try writePositions(backward, tkey, list, from: i)
            }
        }
    }

    /// The records of an ordered list, in position order.
    func orderedRelated(_ list: SQLOrderedList, _ owner: Value, _ d: Entity) throws -> [Record] {
        let dpk = q(d.primaryKey.name), t = q(list.table)
        if list.isForeignKey {
            let sql = "\(mapping.sql(d).select) WHERE \(q(list.ownerColumn)) = ? ORDER BY \(q(list.positionColumn)), \(dpk)"
            return try records(SQLStatement(sql), [owner], d)
        }
        let members = "SELECT \(q(list.memberColumn)) FROM \(t) WHERE \(q(list.ownerColumn)) = ?"
        let position = "SELECT \(q(list.positionColumn)) FROM \(t) WHERE \(t).\(q(list.ownerColumn)) = ? AND \(t).\(q(list.memberColumn)) = \(q(d.name)).\(dpk)"
        let sql = "\(mapping.sql(d).select) WHERE \(dpk) IN (\(members)) ORDER BY (\(position)), \(dpk)"
        return try records(SQLStatement(sql), [owner, owner], d)
    }

    /// The ordered lists that hold the records about to be deleted, with their owners: their
    /// gaps are closed once the records are gone.
    func orderedListsHolding(_ records: [(Entity, Value)]) throws -> [(SQLOrderedList, Value)] {
        var out: [(SQLOrderedList, Value)] = []
        for (e, id) in records {
            for r in e.relationships {
                let (d, inv) = schema.inverse(of: r)
                guard let list = mapping.orderedList(d, inv) else { continue }
                for owner in try relatedIDs(e, id, r) where !out.contains(where: { $0.0 == list && $0.1 == owner }) {
                    out.append((list, owner))
                }
            }
        }
        return out
    }

    /// Renumbers an owner's list 0, 1, … in its current order.
    func closeGaps(_ list: SQLOrderedList, _ owner: Value) throws {
        let members = try db.column(SQLStatement(membersSQL(list)), memberType(list), [owner])
        try writePositions(list, owner, members, from: 0)
    }

    // MARK: Internal helpers

    private func membersSQL(_ list: SQLOrderedList) -> String {
        "SELECT \(q(list.memberColumn)) FROM \(q(list.table)) WHERE \(q(list.ownerColumn)) = ? ORDER BY \(q(list.positionColumn)), \(q(list.memberColumn))"
    }

    private func memberType(_ list: SQLOrderedList) -> AttributeType {
        let owner = mapping.orderedLists.first { $0.list == list }!
        return schema[owner.relationship.destination]!.primaryKey.type
    }

    private func orderedMembers(_ list: SQLOrderedList, _ owner: Value, of r: Relationship) throws -> [Value] {
        try db.column(SQLStatement(membersSQL(list)), schema[r.destination]!.primaryKey.type, [owner])
    }

    /// The list a one-to-many member is in now, when its owner is not `owner`.
    private func previousOwner(_ list: SQLOrderedList?, member: Value, unless owner: Value) throws -> [(SQLOrderedList, Value)] {
        guard let list, list.isForeignKey else { return [] }
        let sql = "SELECT \(q(list.ownerColumn)) FROM \(q(list.table)) WHERE \(q(list.memberColumn)) = ? AND \(q(list.ownerColumn)) IS NOT NULL"
        let owners = try db.column(SQLStatement(sql), ownerType(list), [member])
        return owners.filter { $0 != owner }.map { (list, $0) }
    }

    private func ownerType(_ list: SQLOrderedList) -> AttributeType {
        mapping.orderedLists.first { $0.list == list }!.entity.primaryKey.type
    }

    private func writePositions(_ list: SQLOrderedList, _ owner: Value, _ members: [Value], from first: Int) throws {
        let sql = SQLStatement("UPDATE \(q(list.table)) SET \(q(list.positionColumn)) = ? WHERE \(q(list.ownerColumn)) = ? AND \(q(list.memberColumn)) = ?")
        for i in members.indices where i >= first { try db.execute(sql, [.int64(Int64(i)), owner, members[i]]) }
    }

    /// Every ordered list's positions are 0, 1, … per owner: none missing, none repeated.
    func checkOrder(into report: inout VerificationReport) {
        let lists = mapping.orderedLists
        if lists.isEmpty { return }
        report.checks.append("ordered relationships: positions 0..<n per owner, none missing or repeated")
        for (e, r, list) in lists {
            let owner = q(list.ownerColumn), pos = q(list.positionColumn)
            let sql = "SELECT \(owner) FROM \(q(list.table)) WHERE \(owner) IS NOT NULL GROUP BY \(owner) HAVING COUNT(\(pos)) != COUNT(*) OR COUNT(DISTINCT \(pos)) != COUNT(*) OR MIN(\(pos)) != 0 OR MAX(\(pos)) != COUNT(*) - 1"
            do {
                for id in try db.column(SQLStatement(sql), e.primaryKey.type, []) {
                    report.add("\(e.name).\(r.name)", "the list of \(e.name) \(id) has missing or repeated positions")
                }
            } catch { report.add("\(e.name).\(r.name)", "checking the list positions failed: \(error)") }
        }
    }
}
