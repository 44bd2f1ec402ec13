import Foundation
import StoreCore

/// Answers queries the way a backend with one of the query faults would: a full scan of the
/// entity through the correct store, then its own filter, sort and slice, which bend what the
/// fault names and otherwise follow `QueryEvaluator`. Test-only.
struct FaultyEvaluator {
    let fault: Fault
    let state: FaultState
    private let reference = QueryEvaluator()

    init(_ fault: Fault, state: FaultState) {
        self.fault = fault
        self.state = state
    }

    func fetch(_ q: Query, in tx: any ReadTransaction) throws -> [Record] {
        let rq = try tx.schema.resolve(q)
        var rows = try tx.fetch(Query(q.entity)).filter { try matches(rq.predicate, $0, tx) }
        if fault == .missingLinkFailsEveryCondition { rows = try rows.filter { try !missesLink(rq.predicate, $0, tx) } }
        let keyed = try rows.map { r in
            (r, try rq.sort.map { k in QueryEvaluator.sortValue(try reference.value(k.path, r, in: tx), k.options) })
        }
        let sorted = keyed.sorted { a, b in
            for (i, k) in rq.sort.enumerated() {
                let c = sortCompare(a.1[i], b.1[i], laterKey: i > 0)
                if c != .orderedSame { return k.ascending ? c == .orderedAscending : c == .orderedDescending }
            }
            if fault == .tiesBrokenByInsertionOrder {
                let (x, y) = (state.insertionSequence(q.entity, a.0.id), state.insertionSequence(q.entity, b.0.id))
                if x != y { return x < y }
            }
            return compare(a.0.id, b.0.id) == .orderedAscending
        }
        let page = reference.slice(sorted.map(\.0), limit: rq.limit, offset: rq.offset)
        if fault == .pageInKeyOrder && rq.limit != nil && !rq.sort.isEmpty {
            return page.sorted { compare($0.id, $1.id) == .orderedAscending }
        }
        return page
    }

    // MARK: Filter

    private func matches(_ p: ResolvedPredicate, _ r: Record, _ tx: any ReadTransaction) throws -> Bool {
        switch p {
        case .constant(let b): return b
        case .and(let ps):
            for q in ps where try !matches(q, r, tx) { return false }
            return true
        case .or(let ps):
            for q in ps where try matches(q, r, tx) { return true }
            return false
        case .not(let q):
            if fault == .negationPushedIntoComparison, case .condition(let c) = q, c.quantifier == .single, c.path.toManyStep == nil {
                switch c.comparison {
                case .equal, .notEqual, .in: break
                default: if try reference.value(c.path, r, in: tx).isNull { return false }
                }
            }
            if fault == .emptyStringPrefixIsNull, case .condition(let c) = q, c.quantifier == .single, c.path.toManyStep == nil,
               Self.isAffix(c.comparison), try reference.value(c.path, r, in: tx) == .string("") {
                return false
            }
            return try !matches(q, r, tx)
        case .condition(let c):
            if fault == .zeroCountsMissed, c.path.isCountOnly, try reach(c.path.steps[...], r, tx).isEmpty { return false }
            if fault == .noneFalseWhenUnlinkedMatches, c.quantifier == .none, try unlinkedMatch(c, tx) { return false }
            if c.path.isCountOnly || c.path.toManyStep != nil { return try reference.matches(p, r, in: tx) }
            return test(try reference.value(c.path, r, in: tx), c.comparison, c.options)
        }
    }

    /// `BEGINSWITH`/`ENDSWITH` a non-empty string.
    private static func isAffix(_ c: Comparison) -> Bool {
        switch c {
        case .beginsWith(let s), .endsWith(let s): !s.isEmpty
        default: false
        }
    }

    /// The records reached from `r` through `steps`.
    private func reach(_ steps: ArraySlice<PathStep>, _ r: Record, _ tx: any ReadTransaction) throws -> [Record] {
        var current = [r]
        for s in steps { current = try current.flatMap { try tx.related(s.source.name, id: $0.id, via: s.relationship.name) } }
        return current
    }

    /// Whether the predicate names a to-one key path whose links are missing from `r`.
    private func missesLink(_ p: ResolvedPredicate, _ r: Record, _ tx: any ReadTransaction) throws -> Bool {
        switch p {
        case .constant: return false
        case .not(let q): return try missesLink(q, r, tx)
        case .and(let ps), .or(let ps): return try ps.contains { try missesLink($0, r, tx) }
        case .condition(let c):
            guard !c.path.steps.isEmpty, c.path.toManyStep == nil, !c.path.isCountOnly else { return false }
            return try reach(c.path.steps[...], r, tx).isEmpty
        }
    }

    /// Whether a record on the other side of a one-step to-many condition matches it while it
    /// has no owner (its foreign key NULL).
    private func unlinkedMatch(_ c: ResolvedCondition, _ tx: any ReadTransaction) throws -> Bool {
        guard c.path.steps.count == 1, !c.path.steps[0].inverse.isToMany, case .attribute(let e, let o, _) = c.path.terminal else { return false }
        for d in try tx.fetch(Query(e.name)) where QueryEvaluator.test(d[o], c.comparison, c.options) {
            if try tx.related(e.name, id: d.id, via: c.path.steps[0].inverse.name).isEmpty { return true }
        }
        return false
    }

    private func test(_ v: Value, _ comparison: Comparison, _ options: StringOptions) -> Bool {
        let emptyNeedle: Bool
        switch comparison {
        case .contains(""), .beginsWith(""), .endsWith(""): emptyNeedle = true
        default: emptyNeedle = false
        }
        switch fault {
        case .emptyNeedleMatchesNull where emptyNeedle:
            return true
        case .emptyNeedleWithOptionsMatchesNothing where emptyNeedle && !options.isEmpty:
            return false
        case .emptyLikeMatchesEverything:
            if case .like("") = comparison { return !v.isNull }
        case .emptyStringIsNull:
            let blank = v.isNull || v == .string("")
            switch comparison {
            case .equal(.null), .equal(.string("")): return blank
            case .notEqual(.null), .notEqual(.string("")): return !blank
            default: break
            }
        case .likeByCharacters, .likeByUTF16Units:
            if case .like(let pattern) = comparison {
                guard let s = v.stringValue else { return false }
                let text = TextFolding.fold(s, options)
                return fault == .likeByCharacters
                    ? TextFolding.wildcardMatch(Array(text), Array(pattern), any: "*", one: "?")
                    : TextFolding.wildcardMatch(Array(text.utf16), Array(pattern.utf16), any: 0x2A, one: 0x3F)
            }
        case .betweenBoundsSwapped:
            if case .between(let a, let b) = comparison, Value.compare(a, b) == .orderedDescending {
                return QueryEvaluator.test(v, .between(b, a), options)
            }
        case .utf16StringOrder, .canonicalStringComparison, .mixedNumbersComparedAsDoubles:
            return ordered(v, comparison, options)
        default:
            break
        }
        return QueryEvaluator.test(v, comparison, options)
    }

    /// `QueryEvaluator.test` with the comparisons that order values going through `compare`.
    private func ordered(_ v: Value, _ comparison: Comparison, _ options: StringOptions) -> Bool {
        QueryEvaluator.test(v, comparison, options, ordering: BentOrdering(evaluator: self))
    }

    /// The fault's order as `QueryEvaluator`'s ordering.
    private struct BentOrdering: ValueOrdering {
        let evaluator: FaultyEvaluator
        func compare(_ a: Value, _ b: Value) -> ComparisonResult { evaluator.compare(a, b) }
    }

    // MARK: Order

    private func sortCompare(_ a: Value, _ b: Value, laterKey: Bool) -> ComparisonResult {
        if fault == .nullsMisplacedInLaterSortKeys && laterKey && a.isNull != b.isNull {
            return a.isNull ? .orderedDescending : .orderedAscending
        }
        return compare(a, b)
    }

    /// `Value.compare`, bent by the fault.
    fileprivate func compare(_ a: Value, _ b: Value) -> ComparisonResult {
        switch (fault, a, b) {
        case (.utf16StringOrder, .string(let x), .string(let y)):
            if x.utf16.elementsEqual(y.utf16) { return .orderedSame }
            return x.utf16.lexicographicallyPrecedes(y.utf16) ? .orderedAscending : .orderedDescending
        case (.canonicalStringComparison, .string(let x), .string(let y)):
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case (.mixedNumbersComparedAsDoubles, .int64(let x), .double(let y)):
            return Double(x) == y ? .orderedSame : (Double(x) < y ? .orderedAscending : .orderedDescending)
        case (.mixedNumbersComparedAsDoubles, .double(let x), .int64(let y)):
            return x == Double(y) ? .orderedSame : (x < Double(y) ? .orderedAscending : .orderedDescending)
        default:
            return Value.compare(a, b)
        }
    }
}
