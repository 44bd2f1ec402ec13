import Foundation
import StoreCore

/// The query side of `HeldBackRepository`: answers a query the way a backend with one of the
/// ordering, predicate or pagination faults would. Filtering, sorting and slicing follow
/// StoreCore's semantics (`QueryEvaluator`) except where the fault's data shape is met.
struct HeldBackQueryEngine {
    let fault: HeldBackFault
    let tx: any ReadTransaction
    var schema: Schema { tx.schema }
    private let evaluator = QueryEvaluator()

    init(fault: HeldBackFault, tx: any ReadTransaction) {
        self.fault = fault
        self.tx = tx
    }

    static let sortFaults: Set<HeldBackFault> = [
        .nullsSortLastAscending, .tieBreakFollowsLastSortDirection, .stringsSortByUTF16, .secondarySortKeysIgnored,
        .sortIgnoresFoldingOptions, .negativeIntegersSortAfterPositives, .negativeDoublesSortReversed,
        .descendingIgnoredThroughKeyPath,
    ]

    static let sliceFaults: Set<HeldBackFault> = [.offsetIgnoredWithoutLimit, .limitZeroMeansUnlimited, .keysetPaginationSkipsTies]

    /// Whether the query has a shape this fault changes; when not, the base store answers.
    static func applies(_ fault: HeldBackFault, to q: Query, forCount: Bool) -> Bool {
        if sortFaults.contains(fault) {
            guard !forCount, !q.sort.isEmpty else { return false }
            switch fault {
            case .tieBreakFollowsLastSortDirection: return q.sort.last?.ascending == false
            case .secondarySortKeysIgnored: return q.sort.count >= 2
            case .sortIgnoresFoldingOptions: return q.sort.contains { !$0.options.isEmpty }
            case .descendingIgnoredThroughKeyPath: return q.sort.contains { !$0.ascending && $0.keyPath.components.count > 1 }
            default: return true
            }
        }
        switch fault {
        case .offsetIgnoredWithoutLimit: return q.limit == nil && q.offset > 0
        case .limitZeroMeansUnlimited: return q.limit == 0
        case .keysetPaginationSkipsTies: return q.offset > 0 && !q.sort.isEmpty
        default: break
        }
        return q.predicate.containsHeldBack { c in conditionApplies(fault, c) } || (fault == .notOverNullIsUnknown && q.predicate.hasNot)
    }

    private static func conditionApplies(_ fault: HeldBackFault, _ c: Condition) -> Bool {
        switch fault {
        case .notEqualSkipsNull:
            if case .notEqual(let v) = c.comparison { return !v.isNull }
        case .betweenExcludesUpperBound:
            if case .between = c.comparison { return true }
        case .inListNullNeverMatches:
            if case .in(let vs) = c.comparison { return vs.contains(.null) }
        case .inListTruncatedAfter1000:
            if case .in(let vs) = c.comparison { return vs.count > 1000 }
        case .caseFoldingASCIIOnly:
            return c.options.contains(.caseInsensitive)
        case .diacriticOnlyOptionIgnored:
            return c.options == [.diacriticInsensitive]
        case .emptyNeedleMatchesNothing:
            switch c.comparison {
            case .contains(""), .beginsWith(""), .endsWith(""): return true
            default: return false
            }
        case .likeTreatsPercentAndUnderscoreAsWildcards:
            if case .like(let p) = c.comparison { return p.contains("%") || p.contains("_") }
        case .likeQuestionMarkMatchesUTF16Unit:
            if case .like(let p) = c.comparison { return p.contains("?") }
        case .beginsWithIgnoresOptions:
            if case .beginsWith = c.comparison { return !c.options.isEmpty }
        case .noneFalseForEmptyToMany:
            return c.quantifier == .none
        case .countZeroNeverMatches:
            return c.keyPath.isCount
        case .keyPathMissingLinkDropsRecord:
            return c.quantifier == .single && !c.keyPath.isCount && c.keyPath.components.count > 1
        case .fractionalOperandTruncatedOnIntegerAttribute:
            return c.comparison.operands.contains { if case .double(let d) = $0 { d != d.rounded() } else { false } }
        default:
            break
        }
        return false
    }

    // MARK: Running

    /// The query's rows as the faulty backend returns them.
    func run(_ q: Query) throws -> [Record] {
        let rq = try schema.resolve(q)
        var rows: [Record]
        if Self.sortFaults.contains(fault) || Self.sliceFaults.contains(fault) {
            rows = try tx.fetch(Query(q.entity, where: q.predicate, sort: q.sort))
        } else {
            let p = try compile(q.predicate, on: rq.entity)
            rows = try tx.fetch(Query(q.entity)).filter { try eval(p, $0) ?? false }
            try evaluator.sort(&rows, by: rq.sort, in: tx)
        }
        if Self.sortFaults.contains(fault) { rows = try sort(rows, by: rq.sort) }
        return try slice(rows, q, rq.sort)
    }

    // MARK: Sorting

    private func sort(_ rows: [Record], by allKeys: [ResolvedSortKey]) throws -> [Record] {
        let keys = fault == .secondarySortKeysIgnored ? Array(allKeys.prefix(1)) : allKeys
        let keyed = try rows.map { r in (r, try keys.map { try evaluator.value($0.path, r, in: tx) }) }
        let pkDescending = fault == .tieBreakFollowsLastSortDirection && keys.last?.ascending == false
        return keyed.sorted { a, b in
            for (i, k) in keys.enumerated() {
                let c = compare(a.1[i], b.1[i], k)
                if c != .orderedSame {
                    let ascending = fault == .descendingIgnoredThroughKeyPath && !k.path.steps.isEmpty ? true : k.ascending
                    return ascending ? c == .orderedAscending : c == .orderedDescending
                }
            }
            let c = Value.compare(a.0.id, b.0.id)
            return pkDescending ? c == .orderedDescending : c == .orderedAscending
        }.map(\.0)
    }

    private func compare(_ x: Value, _ y: Value, _ k: ResolvedSortKey) -> ComparisonResult {
        let a = QueryEvaluator.sortValue(x, fault == .sortIgnoresFoldingOptions ? [] : k.options)
        let b = QueryEvaluator.sortValue(y, fault == .sortIgnoresFoldingOptions ? [] : k.options)
        switch (fault, a, b) {
        case (.nullsSortLastAscending, .null, .null):
            return .orderedSame
        case (.nullsSortLastAscending, .null, _):
            return .orderedDescending
        case (.nullsSortLastAscending, _, .null):
            return .orderedAscending
        case (.stringsSortByUTF16, .string(let s), .string(let t)):
            return s.utf16.lexicographicallyPrecedes(t.utf16) ? .orderedAscending
                : (t.utf16.lexicographicallyPrecedes(s.utf16) ? .orderedDescending : .orderedSame)
        case (.negativeIntegersSortAfterPositives, .int64(let m), .int64(let n)):
            let u = UInt64(bitPattern: m), v = UInt64(bitPattern: n)
            return u < v ? .orderedAscending : (u == v ? .orderedSame : .orderedDescending)
        case (.negativeDoublesSortReversed, .double(let m), .double(let n)) where m < 0 && n < 0:
            return Value.compare(b, a)
        case (.negativeDoublesSortReversed, .date(let m), .date(let n)) where m.timeIntervalSince1970 < 0 && n.timeIntervalSince1970 < 0:
            return Value.compare(b, a)
        default:
            return Value.compare(a, b)
        }
    }

    // MARK: Slicing

    private func slice(_ rows: [Record], _ q: Query, _ keys: [ResolvedSortKey]) throws -> [Record] {
        var limit = q.limit, offset = q.offset
        switch fault {
        case .offsetIgnoredWithoutLimit where limit == nil:
            offset = 0
        case .limitZeroMeansUnlimited where limit == 0:
            limit = nil
        case .keysetPaginationSkipsTies where offset > 0 && !keys.isEmpty && offset <= rows.count:
            func values(_ r: Record) throws -> [Value] {
                try keys.map { QueryEvaluator.sortValue(try evaluator.value($0.path, r, in: tx), $0.options) }
            }
            let boundary = try values(rows[offset - 1])
            var start = offset
            while start < rows.count, try values(rows[start]) == boundary { start += 1 }
            let end = limit.map { min(rows.count, start + $0) } ?? rows.count
            return Array(rows[start..<end])
        default:
            break
        }
        return evaluator.slice(rows, limit: limit, offset: offset)
    }

    // MARK: Predicates

    private indirect enum Compiled {
        case constant(Bool)
        case condition(Condition, ResolvedCondition)
        case and([Compiled])
        case or([Compiled])
        case not(Compiled)
    }

    private func compile(_ p: StorePredicate, on e: Entity) throws -> Compiled {
        switch p {
        case .constant(let b): return .constant(b)
        case .and(let ps): return .and(try ps.map { try compile($0, on: e) })
        case .or(let ps): return .or(try ps.map { try compile($0, on: e) })
        case .not(let q): return .not(try compile(q, on: e))
        case .condition(let c):
            guard case .condition(let rc) = try schema.resolve(.condition(c), on: e) else {
                throw StoreError(.invalidQuery, "unexpected resolution of \(c)")
            }
            return .condition(c, rc)
        }
    }

    /// Two-valued logic, except under `notOverNullIsUnknown`, where a comparison that is false
    /// only because its value is null is unknown (`nil`) and `NOT` keeps it unknown.
    private func eval(_ p: Compiled, _ r: Record) throws -> Bool? {
        switch p {
        case .constant(let b):
            return b
        case .not(let q):
            return try eval(q, r).map { !$0 }
        case .and(let ps):
            var unknown = false
            for q in ps {
                switch try eval(q, r) {
                case false?: return false
                case nil: unknown = true
                default: break
                }
            }
            return unknown ? nil : true
        case .or(let ps):
            var unknown = false
            for q in ps {
                switch try eval(q, r) {
                case true?: return true
                case nil: unknown = true
                default: break
                }
            }
            return unknown ? nil : false
        case .condition(let c, let rc):
            return try test(c, rc, r)
        }
    }

    private func reach(_ steps: [PathStep], from r: Record) throws -> [Record] {
        var current = [r]
        for s in steps {
            current = try current.flatMap { try tx.related(s.source.name, id: $0.id, via: s.relationship.name) }
        }
        return current
    }

    private func test(_ c: Condition, _ rc: ResolvedCondition, _ r: Record) throws -> Bool? {
        let path = rc.path
        if path.isCountOnly {
            let n = try reach(path.steps, from: r).count
            if fault == .countZeroNeverMatches && n == 0 { return false }
            return check(.int64(Int64(n)), c, rc)
        }
        if path.toManyStep != nil {
            let reached = try reach(path.steps, from: r)
            if fault == .noneFalseForEmptyToMany && rc.quantifier == .none && reached.isEmpty { return false }
            guard case .attribute(_, let o, _) = path.terminal else { return false }
            let any = reached.contains { check($0[o], c, rc) }
            return rc.quantifier == .none ? !any : any
        }
        if fault == .keyPathMissingLinkDropsRecord && !path.steps.isEmpty, try reach(path.steps, from: r).isEmpty {
            return false
        }
        let v = try evaluator.value(path, r, in: tx)
        let result = check(v, c, rc)
        if fault == .notOverNullIsUnknown && v.isNull && !result { return nil }
        return result
    }

    /// One comparison of a value, with the fault's twist where its shape is met.
    private func check(_ v: Value, _ c: Condition, _ rc: ResolvedCondition) -> Bool {
        switch fault {
        case .notEqualSkipsNull:
            if v.isNull, case .notEqual(let o) = rc.comparison, !o.isNull { return false }
        case .betweenExcludesUpperBound:
            if case .between(let lo, let hi) = rc.comparison {
                let x = QueryEvaluator.sortValue(v, rc.options)
                return !v.isNull && Value.compare(x, lo) != .orderedAscending && Value.compare(x, hi) == .orderedAscending
            }
        case .inListNullNeverMatches:
            if v.isNull, case .in = rc.comparison { return false }
        case .inListTruncatedAfter1000:
            if case .in(let list) = rc.comparison, list.count > 1000 {
                return QueryEvaluator.test(v, .in(Array(list.prefix(1000))), rc.options)
            }
        case .caseFoldingASCIIOnly:
            if rc.options.contains(.caseInsensitive), let s = v.stringValue {
                let rest = rc.options.subtracting(.caseInsensitive)
                func fold(_ t: String) -> String { asciiLowercased(TextFolding.fold(t, rest)) }
                return QueryEvaluator.test(.string(fold(s)), c.comparison.mappingStrings(fold), [])
            }
        case .diacriticOnlyOptionIgnored:
            if rc.options == [.diacriticInsensitive] { return QueryEvaluator.test(v, c.comparison, []) }
        case .emptyNeedleMatchesNothing:
            switch rc.comparison {
            case .contains(""), .beginsWith(""), .endsWith(""): return false
            default: break
            }
        case .likeTreatsPercentAndUnderscoreAsWildcards:
            if case .like(let p) = rc.comparison, p.contains("%") || p.contains("_") {
                let sqlish = String(p.map { $0 == "%" ? "*" : ($0 == "_" ? "?" : $0) })
                return v.stringValue.map { TextFolding.like($0, foldedPattern: sqlish, rc.options) } ?? false
            }
        case .likeQuestionMarkMatchesUTF16Unit:
            if case .like(let p) = rc.comparison, p.contains("?") {
                return v.stringValue.map { likeUTF16(Array(TextFolding.fold($0, rc.options).utf16), Array(p.utf16)) } ?? false
            }
        case .beginsWithIgnoresOptions:
            if case .beginsWith(let s) = c.comparison, !rc.options.isEmpty {
                return v.stringValue.map { $0.utf8.starts(with: s.utf8) } ?? false
            }
        case .fractionalOperandTruncatedOnIntegerAttribute:
            if rc.path.valueType == .int64 {
                return QueryEvaluator.test(v, rc.comparison.mappingValues { o in
                    if case .double(let d) = o, d != d.rounded(), abs(d) < 9e18 { return .int64(Int64(d)) }
                    return o
                }, rc.options)
            }
        default:
            break
        }
        return QueryEvaluator.test(v, rc.comparison, rc.options)
    }
}

/// `LIKE` over UTF-16 code units: `?` is one unit, `*` any run (the self-test's matcher).
private func likeUTF16(_ t: [UInt16], _ p: [UInt16]) -> Bool {
    TextFolding.wildcardMatch(t, p, any: UInt16(UInt8(ascii: "*")), one: UInt16(UInt8(ascii: "?")))
}

/// SQLite's `lower()`: ASCII letters only.
private func asciiLowercased(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value >= 0x41 && $0.value <= 0x5A ? Unicode.Scalar($0.value | 0x20)! : $0 }))
}

extension Comparison {
    func mappingValues(_ f: (Value) -> Value) -> Comparison {
        switch self {
        case .equal(let v): .equal(f(v))
        case .notEqual(let v): .notEqual(f(v))
        case .less(let v): .less(f(v))
        case .lessOrEqual(let v): .lessOrEqual(f(v))
        case .greater(let v): .greater(f(v))
        case .greaterOrEqual(let v): .greaterOrEqual(f(v))
        case .between(let a, let b): .between(f(a), f(b))
        case .in(let vs): .in(vs.map(f))
        case .contains(let s): .contains(f(.string(s)).stringValue ?? s)
        case .beginsWith(let s): .beginsWith(f(.string(s)).stringValue ?? s)
        case .endsWith(let s): .endsWith(f(.string(s)).stringValue ?? s)
        case .like(let s): .like(f(.string(s)).stringValue ?? s)
        }
    }

    func mappingStrings(_ f: (String) -> String) -> Comparison {
        mappingValues { v in if case .string(let s) = v { .string(f(s)) } else { v } }
    }
}

extension StorePredicate {
    func containsHeldBack(_ f: (Condition) -> Bool) -> Bool {
        switch self {
        case .constant: false
        case .condition(let c): f(c)
        case .and(let ps), .or(let ps): ps.contains { $0.containsHeldBack(f) }
        case .not(let p): p.containsHeldBack(f)
        }
    }

    var hasNot: Bool {
        switch self {
        case .constant, .condition: false
        case .and(let ps), .or(let ps): ps.contains(where: \.hasNot)
        case .not: true
        }
    }
}
