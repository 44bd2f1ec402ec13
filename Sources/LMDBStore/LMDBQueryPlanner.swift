import CLMDB
import StoreCore

/// The constraint on the first key component after the fixed (equality) ones. Internal.
enum KeyConstraint: Sendable {
    /// `IN`: one seek per value, in ascending order (sorted, duplicates removed).
    case oneOf([Value])
    /// `<`, `<=`, `>`, `>=`, `BETWEEN` (nulls never match).
    case range(lower: Value?, lowerInclusive: Bool, upper: Value?, upperInclusive: Bool)
    /// `BEGINSWITH` without options: a byte-prefix range.
    case prefix(String)
}

/// An ordered key space to walk: the primary database (keys = primary keys, values = records)
/// or a secondary index (keys = index values, values = primary keys). Internal.
struct KeySpace: Sendable {
    let dbi: MDB_dbi
    let types: [AttributeType]
    let isPrimary: Bool
    let name: String
}

/// A plan with everything the executor needs. Internal; `summary` is the public view. A class:
/// walks hand it (and a relationship access its sub-plan) down by reference, not as a copy of
/// every field.
final class QueryPlan: Sendable {
    enum Access: Sendable {
        case keys([Value])
        case range(KeySpace, fixed: [Value], next: KeyConstraint?)
        /// An index walked from its last key down, within the keys that start with `fixed`;
        /// the records of one key in primary key order (ties in a sort are broken ascending).
        case rangeDescending(KeySpace, fixed: [Value])
        case scan(reverse: Bool)
        /// The records linked to the matches of another plan (on the relationship's
        /// destination), read through the inverse's database, in primary key order.
        case linked(QueryPlan, inverse: MDB_dbi)
        /// The owners in a to-many's link database whose number of links passes `condition`
        /// (a `@count` comparison that no owner without links passes), in primary key order.
        case linkCounts(MDB_dbi, ResolvedCondition)
    }
    let query: ResolvedQuery
    let access: Access
    /// What remains to check per candidate; nil when the access answers the whole predicate.
    let residual: ResolvedPredicate?
    /// `residual`, prepared for records (`RecordFilter`).
    let filter: RecordFilter?
    /// The access path yields the requested order.
    let orderFromAccess: Bool
    /// Ordering comes from index components that may be cut at the key limit (strings,
    /// bytes): output is buffered so the executor can fall back to sorting in memory.
    let orderMayTruncate: Bool
    /// The conditions the access answers, and the relationship it crosses, for `summary`.
    let answered: [LMDBQueryPlanner.ConditionText]
    let link: LMDBQueryPlanner.LinkCrossed?

    init(query: ResolvedQuery, access: Access, residual: ResolvedPredicate?, filter: RecordFilter?, orderFromAccess: Bool,
         orderMayTruncate: Bool, answered: [LMDBQueryPlanner.ConditionText], link: LMDBQueryPlanner.LinkCrossed?) {
        self.query = query
        self.access = access
        self.residual = residual
        self.filter = filter
        self.orderFromAccess = orderFromAccess
        self.orderMayTruncate = orderMayTruncate
        self.answered = answered
        self.link = link
    }

    /// The public view of the plan (formatted on demand: planning builds no text).
    var summary: LMDBQueryPlan { LMDBQueryPlanner.summary(self) }

    /// The primary keys `walk` hands out are the map's bytes, valid for the transaction (a
    /// point read's keys and several matches' gathered links are copies, valid for the call).
    var keysStayInMap: Bool {
        switch access {
        case .keys, .linked: false
        case .range, .rangeDescending, .scan, .linkCounts: true
        }
    }
}

/// The query planner. Rules, in order:
///
/// 1. Split the predicate into its top-level AND conjuncts. A conjunct is *usable* when it
///    compares a direct attribute (no key path, no `[c]`/`[d]`) with `==`, `IN`, `<`, `<=`, `>`,
///    `>=`, `BETWEEN` or `BEGINSWITH`, with operands of the attribute's own type.
/// 2. Primary key `==` or `IN` → point reads. Otherwise the best index: the most leading
///    components fixed by `==`, then one more component constrained by `IN`, a range or a
///    prefix; a unique index fully fixed wins; a range on the primary key reads no second
///    database and beats an index range of equal rank. `Score` holds the ranks.
/// 3. Without a usable conjunct: with a limit and sort keys that are exactly an index's
///    components (all ascending, or all descending: the index walked backwards, each key's
///    records still in primary key order), walk that index in order and stop early; sort by
///    the primary key descending walks the primary database backwards; otherwise scan every
///    record. An index range with its leading components fixed is walked backwards likewise
///    when the sort asks for the rest descending.
/// 4. Conjuncts the access does not answer are checked per record (with StoreCore's
///    `QueryEvaluator`, so string semantics are the shared ones). Index keys cut at the key
///    limit are rechecked against the whole predicate.
/// 5. The order comes from the access path when it matches the sort keys (after dropping sort
///    keys fixed by `==`), and a limit then stops the walk; otherwise matches are sorted in
///    memory, keeping only the best offset+limit when there is a limit.
/// 6. Without a usable index: a key path, `ANY` or `@count` through one relationship is
///    answered from the relationship's other side (`LMDBQueryPlanner+Links.swift`).
///
/// Counts (`LMDBTransaction.count`) of an index range with nothing left to check add up each
/// key's duplicates (`mdb_cursor_count`) instead of visiting them.
enum LMDBQueryPlanner {
    /// A usable conjunct: one attribute, one kind of constraint. Internal helper.
    private enum Usable {
        case equal(Value)
        case oneOf([Value])
        case lower(Value, inclusive: Bool)
        case upper(Value, inclusive: Bool)
        case between(Value, Value)
        case prefix(String)
    }

    /// The usable conjuncts of one attribute: each one's position among the conjuncts, and its
    /// constraint.
    private typealias UsableList = [(index: Int, kind: Usable)]

    /// How candidate access paths rank (rule 2): the highest score wins; on a tie the first
    /// candidate considered (the primary key, then the indexes in declaration order) stays.
    private enum Score {
        /// `id == x`: one point read, at most one record; far above any index's score.
        static let primaryKeyEqual = 1000
        /// `id IN {...}`: one point read per value; below a single key, far above any index's score.
        static let primaryKeyIn = 900
        /// A range or prefix of the primary key: it reads no second database, so it beats an
        /// index range with nothing fixed (`nextComponent`), not one with a component fixed.
        static let primaryKeyRange = 7
        /// Per leading index component fixed by `==`: each one narrows the range further.
        static let fixedComponent = 10
        /// The component after the fixed ones constrained by `IN`, a range or a prefix: it
        /// narrows less than fixing one more component.
        static let nextComponent = 5
        /// Added when a unique index has every component fixed by a non-null `==`: at most one
        /// record, so it beats the ranges of non-unique indexes.
        static let uniqueMatch = 100

        /// An index candidate's score.
        static func index(fixed: Int, constrainsNext: Bool, isUniqueMatch: Bool) -> Int {
            fixed * fixedComponent + (constrainsNext ? nextComponent : 0) + (isUniqueMatch ? uniqueMatch : 0)
        }
    }

    /// An access path that answers some conjuncts, with its score.
    private struct Candidate {
        let score: Int
        let access: QueryPlan.Access
        /// Positions of the conjuncts the access answers.
        let consumed: Set<Int>
        /// The answered conditions, for the summary.
        let conditions: [ConditionText]
        /// For an index: the components after the fixed ones, the order within its range.
        let orderOrdinals: [Int]
    }

    /// The sort keys that matter, and the order they ask for.
    struct SortNeed {
        /// The query's sort keys without those on attributes fixed by a top-level `==`.
        let keys: [ResolvedSortKey]
        /// The keys' attribute ordinals when every key is a plain ascending attribute.
        let ascendingOrdinals: [Int]?
        /// The keys' attribute ordinals when every key is a plain descending attribute.
        let descendingOrdinals: [Int]?
        /// No sort keys, or the primary key ascending: the primary database's own order.
        let wantsPrimaryOrder: Bool
    }

    /// The access path chosen, and what it answers of the predicate and the order.
    struct Choice {
        var access: QueryPlan.Access = .scan(reverse: false)
        var consumed = Set<Int>()
        var conditions: [ConditionText] = []
        var orderFromAccess: Bool
        var orderMayTruncate = false
        /// For a relationship access: the relationship crossed.
        var link: LinkCrossed?
    }

    /// The plan for `q`. `entries` gives a database's number of entries (`mdb_stat`), which
    /// decides whether a relationship is crossed from its other side (rule 6); without it, it
    /// is crossed only when the other side is read through a key or an index.
    static func plan(_ q: ResolvedQuery, layout: LMDBLayout, entries: (MDB_dbi) -> Int? = { _ in nil }) -> QueryPlan {
        var conjuncts: [ResolvedPredicate] = []
        flatten(q.predicate, into: &conjuncts)
        let usable = usableConjuncts(conjuncts, q.entity)
        let sort = sortNeed(q, usable)
        let choice = if let best = bestCandidate(usable, q.entity, layout) {
            choice(from: best, sort)
        } else if let linked = linkedChoice(conjuncts, q, sort, layout, entries: entries) {
            linked
        } else {
            choiceWithoutCandidate(q, sort, layout)
        }
        let residual = residual(conjuncts, consumed: choice.consumed)
        return QueryPlan(query: q, access: choice.access, residual: residual, filter: residual.map(RecordFilter.init),
                         orderFromAccess: choice.orderFromAccess,
                         orderMayTruncate: choice.orderMayTruncate, answered: choice.conditions, link: choice.link)
    }

    // MARK: Steps

    /// Usable conjuncts by attribute ordinal (rule 1).
    private static func usableConjuncts(_ conjuncts: [ResolvedPredicate], _ e: Entity) -> [Int: UsableList] {
        var usable: [Int: UsableList] = [:]
        for (i, c) in conjuncts.enumerated() {
            if let (o, u) = classify(c, e) { usable[o, default: []].append((i, u)) }
        }
        return usable
    }

    /// The highest-scoring candidate (rule 2), or nil when no conjunct is usable by any.
    /// Considers the candidates one by one, building no list of them (a plan per query allocates little).
    private static func bestCandidate(_ usable: [Int: UsableList], _ e: Entity, _ layout: LMDBLayout) -> Candidate? {
        var best = primaryKeyCandidate(usable, e, layout)
        for index in layout.indexes[e.index] {
            if let c = indexCandidate(index, usable, e), c.score > (best?.score ?? 0) { best = c }
        }
        return best
    }

    /// Point reads for a non-null `==` or an `IN` on the primary key, else a range of the
    /// primary database.
    private static func primaryKeyCandidate(_ usable: [Int: UsableList], _ e: Entity, _ layout: LMDBLayout) -> Candidate? {
        guard let list = usable[e.primaryKeyOrdinal] else { return nil }
        let name = e.primaryKey.name
        if let (i, u) = list.first(where: { if case .equal(let v) = $0.kind { !v.isNull } else { false } }),
           case .equal(let v) = u {
            return Candidate(score: Score.primaryKeyEqual, access: .keys([v]), consumed: [i],
                             conditions: [.compare(name, "==", v)], orderOrdinals: [])
        }
        if let (i, u) = list.first(where: { if case .oneOf = $0.kind { true } else { false } }), case .oneOf(let vs) = u {
            return Candidate(score: Score.primaryKeyIn, access: .keys(vs.filter { !$0.isNull }), consumed: [i],
                             conditions: [.oneOf(name, count: vs.count)], orderOrdinals: [])
        }
        guard let (next, used, text) = nextConstraint(list, name: name) else { return nil }
        let primary = KeySpace(dbi: layout.primary[e.index], types: [e.primaryKey.type], isPrimary: true, name: e.name)
        return Candidate(score: Score.primaryKeyRange, access: .range(primary, fixed: [], next: next), consumed: used,
                         conditions: text, orderOrdinals: [])
    }

    /// A range of `index`: its leading components fixed by `==`, then one more constrained;
    /// nil when no conjunct applies.
    private static func indexCandidate(_ index: LMDBLayout.Index, _ usable: [Int: UsableList], _ e: Entity) -> Candidate? {
        var fixed: [Value] = [], consumed = Set<Int>(), conditions: [ConditionText] = []
        for o in index.ordinals {
            guard let (i, u) = usable[o]?.first(where: { if case .equal = $0.kind { true } else { false } }),
                  case .equal(let v) = u else { break }
            fixed.append(v)
            consumed.insert(i)
            conditions.append(.compare(e.attributes[o].name, "==", v))
        }
        var next: KeyConstraint?
        if fixed.count < index.ordinals.count, let list = usable[index.ordinals[fixed.count]],
           let (n, used, text) = nextConstraint(list, name: e.attributes[index.ordinals[fixed.count]].name) {
            next = n
            consumed.formUnion(used)
            conditions += text
        }
        guard !consumed.isEmpty else { return nil }
        let isUniqueMatch = index.description.isUnique && fixed.count == index.ordinals.count && !fixed.contains(where: \.isNull)
        let space = KeySpace(dbi: index.dbi, types: index.types, isPrimary: false, name: index.name)
        return Candidate(score: Score.index(fixed: fixed.count, constrainsNext: next != nil, isUniqueMatch: isUniqueMatch),
                         access: .range(space, fixed: fixed, next: next), consumed: consumed, conditions: conditions,
                         orderOrdinals: Array(index.ordinals.dropFirst(fixed.count)))
    }

    /// The sort keys left after dropping those fixed by a top-level `==` (rule 5).
    private static func sortNeed(_ q: ResolvedQuery, _ usable: [Int: UsableList]) -> SortNeed {
        let constant = Set(usable.filter { $0.value.contains { if case .equal = $0.kind { true } else { false } } }.keys)
        let sort = q.sort.filter { k in
            guard k.path.steps.isEmpty, case .attribute(_, let o, _) = k.path.terminal else { return true }
            return !constant.contains(o)
        }
        func ordinals(ascending: Bool) -> [Int]? {
            sort.allSatisfy { $0.ascending == ascending && $0.options.isEmpty && $0.path.steps.isEmpty }
                ? sort.compactMap { if case .attribute(_, let o, _) = $0.path.terminal { o } else { nil } } : nil
        }
        let ascendingOrdinals = ordinals(ascending: true)
        return SortNeed(keys: sort, ascendingOrdinals: ascendingOrdinals, descendingOrdinals: ordinals(ascending: false),
                        wantsPrimaryOrder: sort.isEmpty || ascendingOrdinals == [q.entity.primaryKeyOrdinal])
    }

    /// The best candidate's access, and whether it yields the sort order.
    private static func choice(from best: Candidate, _ sort: SortNeed) -> Choice {
        var choice = Choice(access: best.access, consumed: best.consumed, conditions: best.conditions,
                            orderFromAccess: sort.wantsPrimaryOrder)
        if case .range(let space, let fixed, let next) = best.access, !space.isPrimary {
            // Within an index: (remaining components, primary key) ascending.
            let order = best.orderOrdinals
            let pureEquality = next == nil && fixed.count == space.types.count
            choice.orderFromAccess = (pureEquality && sort.keys.isEmpty) || (!order.isEmpty && sort.ascendingOrdinals == order)
            // Any string or bytes component may cut the key, and a cut before the order's
            // components leaves their order unknown too.
            choice.orderMayTruncate = space.types.contains { $0 == .string || $0 == .bytes }
            if next == nil, !order.isEmpty, !sort.keys.isEmpty, sort.descendingOrdinals == order, fitsUncut(fixed) {
                choice.access = .rangeDescending(space, fixed: fixed)
                choice.orderFromAccess = true
            }
        }
        return choice
    }

    /// Without a usable conjunct (rule 3): an index walked in sort order when a limit can stop
    /// it, the primary database backwards for the primary key descending, else a scan.
    private static func choiceWithoutCandidate(_ q: ResolvedQuery, _ sort: SortNeed, _ layout: LMDBLayout) -> Choice {
        let e = q.entity, keys = sort.keys
        for (ords, descending) in [(sort.ascendingOrdinals, false), (sort.descendingOrdinals, true)] {
            guard q.limit != nil, !keys.isEmpty, let ords,
                  let index = layout.indexes[e.index].first(where: { $0.ordinals == ords }) else { continue }
            let space = KeySpace(dbi: index.dbi, types: index.types, isPrimary: false, name: index.name)
            return Choice(access: descending ? .rangeDescending(space, fixed: []) : .range(space, fixed: [], next: nil),
                          orderFromAccess: true, orderMayTruncate: index.types.contains { $0 == .string || $0 == .bytes })
        }
        if keys.count == 1, keys[0].path.steps.isEmpty, !keys[0].ascending, keys[0].options.isEmpty,
           case .attribute(_, e.primaryKeyOrdinal, _) = keys[0].path.terminal {
            return Choice(access: .scan(reverse: true), orderFromAccess: true)
        }
        return Choice(orderFromAccess: sort.wantsPrimaryOrder)
    }

    /// Whether fixed index components encode within the key limit (a descending walk seeks
    /// past them, which a cut key would defeat).
    private static func fitsUncut(_ fixed: [Value]) -> Bool {
        KeyEncoding.encode(fixed).count < LMDBLayout.indexKeyLimit
    }

    /// The conjuncts the access does not answer, checked per record (rule 4); nil when none.
    private static func residual(_ conjuncts: [ResolvedPredicate], consumed: Set<Int>) -> ResolvedPredicate? {
        let rest = conjuncts.indices.filter { !consumed.contains($0) }.map { conjuncts[$0] }.filter {
            if case .constant(true) = $0 { false } else { true }
        }
        return rest.isEmpty ? nil : (rest.count == 1 ? rest[0] : .and(rest))
    }

    /// The public view of a plan.
    static func summary(_ plan: QueryPlan) -> LMDBQueryPlan {
        let q = plan.query, linkName = plan.link?.name ?? ""
        let access: LMDBQueryPlan.Access = switch plan.access {
        case .keys(let vs): .primaryKeys(count: vs.count)
        case .range(let s, _, _): s.isPrimary ? .primaryRange : .index(s.name)
        case .rangeDescending(let s, _): .indexDescending(s.name)
        case .scan(let reverse): .scan(reverse: reverse)
        case .linked(let sub, _): .linked(through: linkName, from: sub.summary)
        case .linkCounts: .linkCounts(linkName)
        }
        let order: LMDBQueryPlan.Order = plan.orderFromAccess ? .access : (q.limit.map { .topK($0 + q.offset) } ?? .memory)
        return LMDBQueryPlan(entity: q.entity.name, access: access, accessConditions: plan.answered.map(\.text),
                             filtersRecords: plan.residual != nil, order: order)
    }

    // MARK: Internal helpers

    private static func flatten(_ p: ResolvedPredicate, into out: inout [ResolvedPredicate]) {
        if case .and(let ps) = p { for q in ps { flatten(q, into: &out) } } else { out.append(p) }
    }

    /// The attribute and constraint of a usable conjunct.
    private static func classify(_ p: ResolvedPredicate, _ e: Entity) -> (Int, Usable)? {
        guard case .condition(let c) = p, c.path.steps.isEmpty, c.options.isEmpty, c.quantifier == .single,
              case .attribute(_, let o, let type) = c.path.terminal else { return nil }
        func fits(_ v: Value) -> Bool { v.naturalType == type }
        switch c.comparison {
        case .equal(let v) where v.isNull || fits(v): return (o, .equal(v))
        case .in(let vs) where vs.allSatisfy({ $0.isNull || fits($0) }):
            var seen = Set<Value>()
            let sorted = vs.filter { seen.insert($0).inserted }.sorted { Value.compare($0, $1) == .orderedAscending }
            return (o, .oneOf(sorted))
        case .less(let v) where fits(v): return (o, .upper(v, inclusive: false))
        case .lessOrEqual(let v) where fits(v): return (o, .upper(v, inclusive: true))
        case .greater(let v) where fits(v): return (o, .lower(v, inclusive: false))
        case .greaterOrEqual(let v) where fits(v): return (o, .lower(v, inclusive: true))
        case .between(let a, let b) where fits(a) && fits(b): return (o, .between(a, b))
        case .beginsWith(let s) where type == .string: return (o, .prefix(s))
        default: return nil
        }
    }

    /// The constraint for the component after the fixed ones: `IN` first, then the tightest
    /// range from every range conjunct, then a prefix.
    private static func nextConstraint(_ list: UsableList, name: String)
        -> (KeyConstraint, Set<Int>, [ConditionText])?
    {
        if let (i, u) = list.first(where: { if case .oneOf = $0.kind { true } else { false } }), case .oneOf(let vs) = u {
            return (.oneOf(vs), [i], [.oneOf(name, count: vs.count)])
        }
        var lower: (Value, Bool)?, upper: (Value, Bool)?, used = Set<Int>()
        func tighten(_ current: inout (Value, Bool)?, _ v: Value, _ inclusive: Bool, lower isLower: Bool) {
            guard let (c, ci) = current else { current = (v, inclusive); return }
            let r = Value.compare(v, c)
            if r == .orderedSame { current = (c, ci && inclusive) }
            else if (r == .orderedDescending) == isLower { current = (v, inclusive) }
        }
        for (i, u) in list {
            switch u {
            case .lower(let v, let inc): tighten(&lower, v, inc, lower: true); used.insert(i)
            case .upper(let v, let inc): tighten(&upper, v, inc, lower: false); used.insert(i)
            case .between(let a, let b):
                tighten(&lower, a, true, lower: true); tighten(&upper, b, true, lower: false); used.insert(i)
            default: break
            }
        }
        if !used.isEmpty {
            var text: [ConditionText] = []
            if let (v, inc) = lower { text.append(.compare(name, inc ? ">=" : ">", v)) }
            if let (v, inc) = upper { text.append(.compare(name, inc ? "<=" : "<", v)) }
            return (.range(lower: lower?.0, lowerInclusive: lower?.1 ?? true, upper: upper?.0, upperInclusive: upper?.1 ?? true),
                    used, text)
        }
        if let (i, u) = list.first(where: { if case .prefix = $0.kind { true } else { false } }), case .prefix(let s) = u {
            return (.prefix(s), [i], [.prefix(name, s)])
        }
        return nil
    }
}
