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

/// A plan with everything the executor needs. Internal; `summary` is the public view.
struct QueryPlan: Sendable {
    enum Access: Sendable {
        case keys([Value])
        case range(KeySpace, fixed: [Value], next: KeyConstraint?)
        case scan(reverse: Bool)
    }
    let query: ResolvedQuery
    let access: Access
    /// What remains to check per candidate; nil when the access answers the whole predicate.
    let residual: ResolvedPredicate?
    /// The access path yields the requested order.
    let orderFromAccess: Bool
    /// Ordering comes from index components that may be cut at the key limit (strings,
    /// bytes): output is buffered so the executor can fall back to sorting in memory.
    let orderMayTruncate: Bool
    let summary: LMDBQueryPlan
}

/// The query planner. Rules, in order:
///
/// 1. Split the predicate into its top-level AND conjuncts. A conjunct is *usable* when it
///    compares a direct attribute (no key path, no `[c]`/`[d]`) with `==`, `IN`, `<`, `<=`, `>`,
///    `>=`, `BETWEEN` or `BEGINSWITH`, with operands of the attribute's own type.
/// 2. Primary key `==` or `IN` → point reads. Otherwise the best index: the most leading
///    components fixed by `==`, then one more component constrained by `IN`, a range or a
///    prefix; a unique index fully fixed wins; a range on the primary key reads no second
///    database and beats an index range of equal rank.
/// 3. Without a usable conjunct: with a limit and sort keys that are exactly an index's
///    components (ascending), walk that index in order and stop early; sort by the primary
///    key descending walks the primary database backwards; otherwise scan every record.
/// 4. Conjuncts the access does not answer are checked per record (with StoreCore's
///    `QueryEvaluator`, so string semantics are the shared ones). Index keys cut at the key
///    limit are rechecked against the whole predicate.
/// 5. The order comes from the access path when it matches the sort keys (after dropping sort
///    keys fixed by `==`), and a limit then stops the walk; otherwise matches are sorted in
///    memory, keeping only the best offset+limit when there is a limit.
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

    static func plan(_ q: ResolvedQuery, layout: LMDBLayout) -> QueryPlan {
        let e = q.entity
        var conjuncts: [ResolvedPredicate] = []
        flatten(q.predicate, into: &conjuncts)

        // Usable conjuncts by attribute ordinal.
        var usable: [Int: [(index: Int, kind: Usable)]] = [:]
        for (i, c) in conjuncts.enumerated() {
            if let (o, u) = classify(c, e) { usable[o, default: []].append((i, u)) }
        }

        var best: (score: Int, access: QueryPlan.Access, consumed: Set<Int>, conditions: [String],
                   orderOrdinals: [Int]?)? = nil
        func consider(_ score: Int, _ access: QueryPlan.Access, _ consumed: Set<Int>, _ conditions: [String], _ order: [Int]?) {
            if score > (best?.score ?? 0) { best = (score, access, consumed, conditions, order) }
        }

        // Primary key.
        let pk = e.primaryKeyOrdinal
        let pkName = e.primaryKey.name
        let primary = KeySpace(dbi: layout.primary[e.index], types: [e.primaryKey.type], isPrimary: true, name: e.name)
        if let list = usable[pk] {
            if let (i, u) = list.first(where: { if case .equal(let v) = $0.kind { !v.isNull } else { false } }),
               case .equal(let v) = u {
                consider(1000, .keys([v]), [i], ["\(pkName) == \(v)"], [])
            } else if let (i, u) = list.first(where: { if case .oneOf = $0.kind { true } else { false } }),
                      case .oneOf(let vs) = u {
                consider(900, .keys(vs.filter { !$0.isNull }), [i], ["\(pkName) IN \(vs.count) values"], [])
            } else if let (next, used, text) = nextConstraint(list, name: pkName) {
                consider(7, .range(primary, fixed: [], next: next), used, text, [])
            }
        }

        // Secondary indexes.
        for index in layout.indexes[e.index] {
            var fixed: [Value] = [], consumed = Set<Int>(), conditions: [String] = []
            for o in index.ordinals {
                guard let (i, u) = usable[o]?.first(where: { if case .equal = $0.kind { true } else { false } }),
                      case .equal(let v) = u else { break }
                fixed.append(v)
                consumed.insert(i)
                conditions.append("\(e.attributes[o].name) == \(v)")
            }
            var next: KeyConstraint?
            if fixed.count < index.ordinals.count, let list = usable[index.ordinals[fixed.count]],
               let (n, used, text) = nextConstraint(list, name: e.attributes[index.ordinals[fixed.count]].name) {
                next = n
                consumed.formUnion(used)
                conditions += text
            }
            guard !consumed.isEmpty else { continue }
            var score = fixed.count * 10 + (next == nil ? 0 : 5)
            if index.description.isUnique && fixed.count == index.ordinals.count && !fixed.contains(where: \.isNull) { score += 100 }
            let space = KeySpace(dbi: index.dbi, types: index.types, isPrimary: false, name: index.name)
            let order = Array(index.ordinals.dropFirst(fixed.count))
            consider(score, .range(space, fixed: fixed, next: next), consumed, conditions, order)
        }

        // Sort keys that matter: drop those fixed by a top-level `==`.
        let constant = Set(usable.filter { $0.value.contains { if case .equal = $0.kind { true } else { false } } }.keys)
        let sort = q.sort.filter { k in
            guard k.path.steps.isEmpty, case .attribute(_, let o, _) = k.path.terminal else { return true }
            return !constant.contains(o)
        }
        let ascendingOrdinals: [Int]? = sort.allSatisfy { $0.ascending && $0.options.isEmpty && $0.path.steps.isEmpty }
            ? sort.compactMap { if case .attribute(_, let o, _) = $0.path.terminal { o } else { nil } } : nil
        let wantsPrimaryOrder = sort.isEmpty || ascendingOrdinals == [pk]

        var access: QueryPlan.Access = .scan(reverse: false)
        var consumed = Set<Int>(), conditions: [String] = []
        var orderFromAccess = wantsPrimaryOrder
        var orderMayTruncate = false
        if let b = best {
            access = b.access
            consumed = b.consumed
            conditions = b.conditions
            switch b.access {
            case .keys, .scan: orderFromAccess = wantsPrimaryOrder
            case .range(let space, let fixed, let next):
                if space.isPrimary {
                    orderFromAccess = wantsPrimaryOrder
                } else if let order = b.orderOrdinals {
                    // Within an index: (remaining components, primary key) ascending.
                    let pureEquality = next == nil && fixed.count == space.types.count
                    orderFromAccess = (pureEquality && sort.isEmpty) || (!order.isEmpty && ascendingOrdinals == order)
                    orderMayTruncate = order.contains { [.string, .bytes].contains(e.attributes[$0].type) }
                }
            }
        } else if q.limit != nil, !sort.isEmpty, let ords = ascendingOrdinals,
                  let index = layout.indexes[e.index].first(where: { $0.ordinals == ords }) {
            access = .range(KeySpace(dbi: index.dbi, types: index.types, isPrimary: false, name: index.name), fixed: [], next: nil)
            orderFromAccess = true
            orderMayTruncate = index.types.contains { $0 == .string || $0 == .bytes }
        } else if sort.count == 1, sort[0].path.steps.isEmpty, !sort[0].ascending, sort[0].options.isEmpty,
                  case .attribute(_, pk, _) = sort[0].path.terminal {
            access = .scan(reverse: true)
            orderFromAccess = true
        }

        let rest = conjuncts.indices.filter { !consumed.contains($0) }.map { conjuncts[$0] }.filter {
            if case .constant(true) = $0 { false } else { true }
        }
        let residual: ResolvedPredicate? = rest.isEmpty ? nil : (rest.count == 1 ? rest[0] : .and(rest))

        let summaryAccess: LMDBQueryPlan.Access
        switch access {
        case .keys(let vs): summaryAccess = .primaryKeys(count: vs.count)
        case .range(let s, _, _): summaryAccess = s.isPrimary ? .primaryRange : .index(s.name)
        case .scan(let reverse): summaryAccess = .scan(reverse: reverse)
        }
        let order: LMDBQueryPlan.Order = orderFromAccess ? .access : (q.limit.map { .topK($0 + q.offset) } ?? .memory)
        let summary = LMDBQueryPlan(entity: e.name, access: summaryAccess, accessConditions: conditions,
                                    filtersRecords: residual != nil, order: order)
        return QueryPlan(query: q, access: access, residual: residual, orderFromAccess: orderFromAccess,
                         orderMayTruncate: orderMayTruncate, summary: summary)
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
    private static func nextConstraint(_ list: [(index: Int, kind: Usable)], name: String)
        -> (KeyConstraint, Set<Int>, [String])?
    {
        if let (i, u) = list.first(where: { if case .oneOf = $0.kind { true } else { false } }), case .oneOf(let vs) = u {
            return (.oneOf(vs), [i], ["\(name) IN \(vs.count) values"])
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
            var text: [String] = []
            if let (v, inc) = lower { text.append("\(name) \(inc ? ">=" : ">") \(v)") }
            if let (v, inc) = upper { text.append("\(name) \(inc ? "<=" : "<") \(v)") }
            return (.range(lower: lower?.0, lowerInclusive: lower?.1 ?? true, upper: upper?.0, upperInclusive: upper?.1 ?? true),
                    used, text)
        }
        if let (i, u) = list.first(where: { if case .prefix = $0.kind { true } else { false } }), case .prefix(let s) = u {
            return (.prefix(s), [i], ["\(name) BEGINSWITH \"\(s)\""])
        }
        return nil
    }
}
