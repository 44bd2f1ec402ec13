import Foundation

/// Evaluates resolved queries in memory with exactly the semantics every backend must honour
/// (null logic, `[c]`/`[d]` folding, ordering, pagination). Key paths are followed through
/// `ReadTransaction.related`, so it runs on top of any backend.
///
/// Backends without a query language use it to filter and sort; the conformance kit uses it as
/// the reference that a backend's own query engine is compared with.
///
/// ```swift
/// let expected = try QueryEvaluator().fetch(query, from: tx)   // scan, filter, sort, slice
/// ```
///
/// Thread-safety: stateless; safe from any thread with a transaction of that thread.
public struct QueryEvaluator: Sendable {
    public init() {}

    /// The query's result computed by scanning every record of its entity.
    public func fetch(_ query: Query, from tx: any ReadTransaction) throws -> [Record] {
        let rq = try tx.schema.resolve(query)
        var all = try tx.fetch(Query(query.entity)).filter { try matches(rq.predicate, $0, in: tx) }
        try sort(&all, by: rq.sort, in: tx)
        return slice(all, limit: rq.limit, offset: rq.offset)
    }

    /// Applies offset, then limit.
    public func slice<T>(_ xs: [T], limit: Int?, offset: Int) -> [T] {
        let start = min(offset, xs.count)
        let end = limit.map { min(xs.count, start + $0) } ?? xs.count
        return Array(xs[start..<end])
    }

    /// Whether a record satisfies a predicate.
    public func matches(_ p: ResolvedPredicate, _ record: some RowView, in tx: any ReadTransaction) throws -> Bool {
        switch p {
        case .constant(let b): return b
        case .not(let q): return try !matches(q, record, in: tx)
        case .and(let ps):
            for q in ps where try !matches(q, record, in: tx) { return false }
            return true
        case .or(let ps):
            for q in ps where try matches(q, record, in: tx) { return true }
            return false
        case .condition(let c): return try matches(c, record, in: tx)
        }
    }

    private func matches(_ c: ResolvedCondition, _ record: some RowView, in tx: any ReadTransaction) throws -> Bool {
        if c.path.isCountOnly {
            let n = try reach(c.path.steps, from: Record(record), in: tx).count
            return Self.test(.int64(Int64(n)), c.comparison, c.options)
        }
        if case .elements(_, let o, _) = c.path.terminal {
            let list = try holder(c.path, record, in: tx).map { $0[o] }?.listValue ?? []
            let any = list.contains { Self.test($0, c.comparison, c.options) }
            return c.quantifier == .none ? !any : any
        }
        if c.path.toManyStep != nil {
            let any = try reach(c.path.steps, from: Record(record), in: tx).contains { Self.test(terminal(c.path, $0), c.comparison, c.options) }
            return c.quantifier == .none ? !any : any
        }
        return Self.test(try value(c.path, record, in: tx), c.comparison, c.options)
    }

    /// The value at the end of a path through to-one relationships (`.null` when a link is missing).
    public func value(_ path: ResolvedPath, _ record: some RowView, in tx: any ReadTransaction) throws -> Value {
        if path.steps.isEmpty { return terminal(path, record) }
        guard let last = try holder(path, record, in: tx) else { return .null }
        return terminal(path, last)
    }

    /// The record at the end of a path through to-one relationships (`nil` when a link is missing).
    private func holder(_ path: ResolvedPath, _ record: some RowView, in tx: any ReadTransaction) throws -> Record? {
        if path.steps.isEmpty { return Record(record) }
        return try reach(path.steps, from: Record(record), in: tx).first
    }

    private func terminal(_ path: ResolvedPath, _ r: some RowView) -> Value {
        switch path.terminal {
        case .attribute(_, let o, _): return r[o]
        case .elementCount(_, let o):
            let v = r[o]
            return .int64(Int64(v.listValue?.count ?? v.mapValue?.count ?? 0))
        case .mapValue(_, let o, let key, _): return r[o].mapValue?[key] ?? .null
        case .count, .elements: return .null
        }
    }

    /// Every record reached by following `steps` from `record`.
    private func reach(_ steps: [PathStep], from record: Record, in tx: any ReadTransaction) throws -> [Record] {
        var current = [record]
        for s in steps {
            current = try current.flatMap { try tx.related(s.source.name, id: $0.id, via: s.relationship.name) }
        }
        return current
    }

    /// Sorts by the keys, then by primary key ascending; nulls first ascending, last descending.
    public func sort(_ records: inout [Record], by keys: [ResolvedSortKey], in tx: any ReadTransaction) throws {
        let keyed = try records.map { r in (r, try keys.map { k in Self.sortValue(try value(k.path, r, in: tx), k.options) }) }
        records = keyed.sorted { a, b in
            for (i, k) in keys.enumerated() {
                let c = Value.compare(a.1[i], b.1[i])
                if c != .orderedSame { return k.ascending ? c == .orderedAscending : c == .orderedDescending }
            }
            return Value.compare(a.0.id, b.0.id) == .orderedAscending
        }.map(\.0)
    }

    /// A sort key value: strings folded by the sort key's options.
    public static func sortValue(_ v: Value, _ o: StringOptions) -> Value {
        if case .string(let s) = v, !o.isEmpty { return .string(TextFolding.fold(s, o)) }
        return v
    }

    /// One comparison under the shared null logic: false for a null value, except `== nil`
    /// and `!= value`. Operands are in stored form and already folded (see `Schema.resolve`).
    public static func test(_ v: Value, _ comparison: Comparison, _ options: StringOptions) -> Bool {
        test(v, comparison, options, ordering: StandardOrdering())
    }

    /// `test` with the comparisons that order values going through `ordering` (specialized, so
    /// the standard order costs nothing). Package-internal: the kit's self-test bends the order
    /// through it to inject faults.
    @inline(__always)
    package static func test<O: ValueOrdering>(_ v: Value, _ comparison: Comparison, _ options: StringOptions,
                                               ordering: O) -> Bool {
        // The folded value, for the comparisons that order; the text operators fold themselves.
        func cmp(_ o: Value) -> ComparisonResult { ordering.compare(sortValue(v, options), o) }
        switch comparison {
        case .equal(.null): return v.isNull
        case .notEqual(.null): return !v.isNull
        case .equal(let o): return !v.isNull && cmp(o) == .orderedSame
        case .notEqual(let o): return v.isNull || cmp(o) != .orderedSame
        case .less(let o): return !v.isNull && cmp(o) == .orderedAscending
        case .lessOrEqual(let o): return !v.isNull && cmp(o) != .orderedDescending
        case .greater(let o): return !v.isNull && cmp(o) == .orderedDescending
        case .greaterOrEqual(let o): return !v.isNull && cmp(o) != .orderedAscending
        case .between(let a, let b):
            guard !v.isNull else { return false }
            let x = sortValue(v, options)
            return ordering.compare(x, a) != .orderedAscending && ordering.compare(x, b) != .orderedDescending
        case .in(let list):
            guard !v.isNull else { return list.contains(where: \.isNull) }
            let x = sortValue(v, options)
            return list.contains { !$0.isNull && ordering.compare(x, $0) == .orderedSame }
        case .contains(let s): return v.stringValue.map { TextFolding.contains($0, foldedNeedle: s, options) } ?? false
        case .beginsWith(let s): return v.stringValue.map { TextFolding.hasPrefix($0, foldedNeedle: s, options) } ?? false
        case .endsWith(let s): return v.stringValue.map { TextFolding.hasSuffix($0, foldedNeedle: s, options) } ?? false
        case .like(let p): return v.stringValue.map { TextFolding.like($0, foldedPattern: p, options) } ?? false
        }
    }
}

/// An order of values for `QueryEvaluator.test`. Package-internal.
package protocol ValueOrdering {
    func compare(_ a: Value, _ b: Value) -> ComparisonResult
}

/// `Value.compare`: the order every backend honours.
struct StandardOrdering: ValueOrdering {
    @inline(__always) func compare(_ a: Value, _ b: Value) -> ComparisonResult { Value.compare(a, b) }
}
