import StoreCore

/// Ordered relationships through `FaultyTransaction`: forwarded, bent by the ordered faults.
extension FaultyTransaction {
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        var index = index
        if fault == .orderedInsertIndexClamped, schema[entity]?.relationship(relationship)?.isOrdered == true {
            let count = try w.related(entity, id: id, via: relationship).count
            index = min(max(index, 0), count)
        }
        try w.link(entity, id: id, relationship, to: target, at: index)
    }

    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        if fault == .orderedMoveIgnored { return }
        try w.move(entity, id: id, relationship, from: from, to: to)
    }

    /// `orderedInverseLinkPrepends`: a link from the unordered side of a many-to-many whose
    /// other side is ordered, then moved to the front of that list.
    func linkPrependingToOrderedInverse(_ entity: String, _ id: Value, _ relationship: String, _ target: Value) throws {
        try w.link(entity, id: id, relationship, to: target)
        guard let r = schema[entity]?.relationship(relationship), r.isToMany, !r.isOrdered else { return }
        let inverse = schema.inverse(of: r).relationship
        guard inverse.isOrdered else { return }
        let list = try w.related(r.destination, id: target, via: inverse.name).map(\.id)
        if let i = list.firstIndex(of: id), i > 0 { try w.move(r.destination, id: target, inverse.name, from: i, to: 0) }
    }

    /// `orderedUnlinkFillsGapWithLast`: the unlink, then the last link moved into the gap.
    func unlinkFillingGapWithLast(_ entity: String, _ id: Value, _ relationship: String, _ target: Value) throws {
        guard let r = schema[entity]?.relationship(relationship), r.isOrdered else {
            return try w.unlink(entity, id: id, relationship, from: target)
        }
        let before = try w.related(entity, id: id, via: relationship).map(\.id)
        try w.unlink(entity, id: id, relationship, from: target)
        if let gap = before.firstIndex(of: target) { try fillGap(entity, id, relationship, gap) }
    }

    /// `orderedDeleteFillsGapWithLast`: the delete, then each ordered list that held the record
    /// has its last link moved into the gap.
    func deleteFillingGapsWithLast(_ entity: String, _ id: Value) throws {
        var gaps: [(String, Value, String, Int)] = []
        for r in schema[entity]?.relationships ?? [] {
            let inverse = schema.inverse(of: r).relationship
            guard inverse.isOrdered else { continue }
            for owner in try w.related(entity, id: id, via: r.name).map(\.id) {
                let list = try w.related(r.destination, id: owner, via: inverse.name).map(\.id)
                if let i = list.firstIndex(of: id) { gaps.append((r.destination, owner, inverse.name, i)) }
            }
        }
        try w.delete(entity, id: id)
        for (e, owner, name, gap) in gaps { try fillGap(e, owner, name, gap) }
    }

    /// Moves the last link of a list to `gap` (a list one shorter than before).
    private func fillGap(_ entity: String, _ id: Value, _ relationship: String, _ gap: Int) throws {
        let count = try w.related(entity, id: id, via: relationship).count
        if gap < count - 1 { try w.move(entity, id: id, relationship, from: count - 1, to: gap) }
    }

    /// `orderedCountOffByOne`: `x.@count` of an ordered to-many `x` reads one less.
    func bendOrderedCount(_ c: Condition) -> Condition {
        guard c.keyPath.isCount, c.keyPath.components.count == 1,
              schema.entities.contains(where: { $0.relationship(c.keyPath.components[0])?.isOrdered == true }) else { return c }
        var c = c
        c.comparison = c.comparison.mappingIntegers { $0 + 1 }
        return c
    }

    /// `linksDroppedWhenMadeOrdered`: the links of each relationship the plan made ordered, gone.
    static func dropLinksMadeOrdered(_ repo: any Repository, _ plan: MigrationPlan) throws {
        try repo.write { tx in
            for m in plan.migrations {
                for e in tx.schema.entities {
                    for r in e.relationships where r.isOrdered && m.source[e.name]?.relationship(r.name)?.isOrdered == false {
                        for owner in try tx.fetch(Query(e.name)).map(\.id) {
                            for t in try tx.related(e.name, id: owner, via: r.name).map(\.id) { try tx.unlink(e.name, id: owner, r.name, from: t) }
                        }
                    }
                }
            }
        }
    }

    /// `orderLostByMigration`: every ordered list rewritten in primary-key order.
    static func sortOrderedLists(_ repo: any Repository) throws {
        try repo.write { tx in
            for e in tx.schema.entities {
                for r in e.relationships where r.isOrdered {
                    for owner in try tx.fetch(Query(e.name)).map(\.id) {
                        let keys = try tx.related(e.name, id: owner, via: r.name).map(\.id)
                        let sorted = keys.sorted { Value.compare($0, $1) == .orderedAscending }
                        for (i, k) in sorted.enumerated() {
                            let now = try tx.related(e.name, id: owner, via: r.name).map(\.id)
                            if let j = now.firstIndex(of: k), j != i { try tx.move(e.name, id: owner, r.name, from: j, to: i) }
                        }
                    }
                }
            }
        }
    }
}
