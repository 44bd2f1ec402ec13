import CLMDB
import StoreCore

/// Rule 6 of the planner: relationships crossed from the other side.
///
/// Without a usable index, a conjunct through one relationship is answered from the records it
/// names rather than by following the relationship from every record:
/// - `author.username == x` (to-one) and `ANY tags.name == x` (to-many): the destination's
///   matches (planned as a query of their own, so an index or key there is used), then their
///   links back through the inverse's database; the sources come out in primary key order.
///   Chosen when the destination is read through a key or an index, or holds no more records
///   than the source; never for a comparison that a missing link (`nil`) passes.
/// - `posts.@count > k`: the link database's keys with their number of links
///   (`mdb_cursor_count`), for a comparison that an owner without links does not pass.
extension LMDBQueryPlanner {
    static func linkedChoice(_ conjuncts: [ResolvedPredicate], _ q: ResolvedQuery, _ sort: SortNeed, _ layout: LMDBLayout,
                             entries: (MDB_dbi) -> Int?) -> Choice? {
        let e = q.entity
        for (i, p) in conjuncts.enumerated() {
            guard case .condition(let c) = p, c.path.steps.count == 1, let step = c.path.steps.first,
                  let position = e.relationships.firstIndex(where: { $0.name == step.relationship.name }) else { continue }
            var choice = Choice(consumed: [i], orderFromAccess: sort.wantsPrimaryOrder,
                                link: LinkCrossed(entity: e, relationship: step.relationship))
            if c.path.isCountOnly {
                guard !QueryEvaluator.test(.int64(0), c.comparison, c.options) else { continue }
                choice.access = .linkCounts(layout.relationships[e.index][position], c)
                choice.conditions = [.link(c)]
                return choice
            }
            guard case .attribute = c.path.terminal, c.quantifier != .none,
                  !QueryEvaluator.test(.null, c.comparison, c.options), let there = c.fromFirstStep() else { continue }
            let sub = plan(ResolvedQuery(step.destination, matching: .condition(there)), layout: layout, entries: entries)
            guard crossesCheaply(sub, from: e, to: step.destination, layout, entries) else { continue }
            choice.access = .linked(sub, inverse: layout.inverses[e.index][position])
            choice.conditions = [.link(c)]
            return choice
        }
        return nil
    }

    /// Whether reading the destination's matches is cheaper than reading every source record.
    private static func crossesCheaply(_ sub: QueryPlan, from source: Entity, to destination: Entity, _ layout: LMDBLayout,
                                       _ entries: (MDB_dbi) -> Int?) -> Bool {
        if case .scan = sub.access {
            guard let there = entries(layout.primary[destination.index]),
                  let here = entries(layout.primary[source.index]) else { return false }
            return there <= here
        }
        return true
    }
}
