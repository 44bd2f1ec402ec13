import CLMDB
import StoreCore

/// Executing query plans: walking candidates, filtering, ordering, counting.
extension LMDBTransaction {
    /// What the key of one index entry says about the constraints. Internal helper.
    private enum Verdict { case match, maybe, skip, stop }

    /// Walks a plan's candidates: the primary key, the record (when asked for, or when the
    /// candidate must be rechecked) and whether it must be rechecked against the whole
    /// predicate (an index key cut at the key limit). `visit` returns false to stop.
    func walk(_ plan: QueryPlan, needRecords: Bool,
              _ visit: (_ key: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer?, _ recheck: Bool) throws -> Bool) throws {
        let primary = layout.primary[plan.query.entity.index]
        switch plan.access {
        case .keys(let values):
            for v in values {
                let k = primaryKey(v)
                guard let b = try txn.get(primary, k) else { continue }
                guard try k.withUnsafeBytes({ try visit($0, b, false) }) else { return }
            }
        case .scan(let reverse):
            let c = try LMDBCursor(txn, primary)
            var more = try c.move(reverse ? MDB_LAST : MDB_FIRST)
            while more {
                guard try visit(c.keyBytes, c.valueBytes, false) else { return }
                more = try c.move(reverse ? MDB_PREV : MDB_NEXT)
            }
        case .range(let space, let fixed, let next):
            let c = try LMDBCursor(txn, space.dbi)
            let prefix = KeyEncoding.encode(fixed)
            var seeks: [(key: [UInt8], exact: Value?)]
            switch next {
            case nil: seeks = [(prefix, nil)]
            case .oneOf(let vs): seeks = vs.map { (prefix + KeyEncoding.encode($0), $0) }
            case .range(let lower, _, _, _): seeks = [(prefix + (lower.map(KeyEncoding.encode) ?? [KeyEncoding.valueTag]), nil)]
            case .prefix(let p): seeks = [(prefix + KeyEncoding.stringPrefix(p), nil)]
            }
            if !space.isPrimary {
                for i in seeks.indices where seeks[i].key.count > LMDBLayout.indexKeyLimit {
                    seeks[i].key.removeLast(seeks[i].key.count - LMDBLayout.indexKeyLimit)
                }
            }
            for seek in seeks {
                guard try seek.key.isEmpty ? c.move(MDB_FIRST) : c.seek(seek.key) else { return }
                repeat {
                    let key = c.keyBytes
                    let verdict = try judge(key, space, fixed, next, seek.exact)
                    if verdict == .stop { break }
                    if verdict == .skip { continue }
                    let recheck = verdict == .maybe
                    if space.isPrimary {
                        guard try visit(key, c.valueBytes, recheck) else { return }
                    } else {
                        let pk = c.valueBytes
                        var record: UnsafeRawBufferPointer?
                        if needRecords || recheck {
                            guard let b = try txn.get(primary, borrowed: pk) else {
                                throw StoreError(.corrupted, "index \(space.name) points to a missing record",
                                                 context: KeyEncoding.describe(Array(pk)))
                            }
                            record = b
                        }
                        guard try visit(pk, record, recheck) else { return }
                    }
                } while try c.move(MDB_NEXT)
            }
        }
    }

    /// Compares an entry's key with the fixed components and the next constraint. Components
    /// cut at the key limit are inconclusive (`maybe`): the record decides.
    /// A cut key never gives `match`: its order and values are only known from the record.
    private func judge(_ key: UnsafeRawBufferPointer, _ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?,
                       _ exact: Value?) throws -> Verdict {
        guard let (comps, truncated) = KeyEncoding.decode(key, types: space.types) else {
            throw StoreError(.corrupted, "a key of \(space.name) is not a valid encoding", context: KeyEncoding.describe(Array(key)))
        }
        let verdict = try judge(comps, truncated, fixed, next, exact)
        return truncated && verdict == .match ? .maybe : verdict
    }

    private func judge(_ comps: [Value], _ truncated: Bool, _ fixed: [Value], _ next: KeyConstraint?,
                       _ exact: Value?) throws -> Verdict {
        let complete = truncated ? max(0, comps.count - 1) : comps.count
        for (i, f) in fixed.enumerated() {
            guard i < complete else { return .maybe }
            if Value.compare(comps[i], f) != .orderedSame { return .stop }
        }
        guard let next else { return .match }
        guard fixed.count < complete else { return .maybe }
        let v = comps[fixed.count]
        switch next {
        case .oneOf:
            return Value.compare(v, exact ?? .null) == .orderedSame ? .match : .stop
        case .range(let lower, let lowerInclusive, let upper, let upperInclusive):
            if v.isNull { return .skip }
            if let upper {
                let c = Value.compare(v, upper)
                if c == .orderedDescending || (c == .orderedSame && !upperInclusive) { return .stop }
            }
            if let lower {
                let c = Value.compare(v, lower)
                if c == .orderedAscending || (c == .orderedSame && !lowerInclusive) { return .skip }
            }
            return .match
        case .prefix(let p):
            guard let s = v.stringValue else { return .stop }
            return s.utf8.starts(with: p.utf8) ? .match : .stop
        }
    }

    /// A row view for records of `e` in this store.
    func rowView(_ e: Entity) -> LMDBRow {
        LMDBRow(entity: e, schemaVersion: recordVersion(e), acceptsFormat2: layout.acceptsFormat2)
    }

    /// Walks the candidates of a plan that satisfy its predicate: the conditions the access
    /// left over, or the whole predicate for a candidate from a cut key. `row` points at the
    /// candidate's record whenever one was read (always when `needRecords`).
    @inline(__always)
    func walkMatches(_ plan: QueryPlan, row: LMDBRow, needRecords: Bool,
                     _ visit: (_ key: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer?, _ recheck: Bool) throws -> Bool) throws {
        let evaluator = QueryEvaluator()
        let residual = plan.residual, whole = plan.query.predicate
        try walk(plan, needRecords: needRecords || residual != nil) { key, record, recheck in
            if recheck {
                try row.point(at: record!)
                guard try evaluator.matches(whole, row, in: self) else { return true }
            } else if let residual {
                try row.point(at: record!)
                guard try evaluator.matches(residual, row, in: self) else { return true }
            } else if needRecords {
                try row.point(at: record!)
            }
            return try visit(key, record, recheck)
        }
    }

    /// Streams the matching rows of a plan, in order, after offset and limit. The row view is
    /// re-pointed for every row.
    func select(_ plan: QueryPlan, _ body: (LMDBRow) throws -> Void) throws {
        let q = plan.query
        if q.limit == 0 { return }
        let row = rowView(q.entity)
        let evaluator = QueryEvaluator()
        // The scan's hot path: filtering inlined here rather than through `walkMatches`
        // (one closure layer less per row, measurably faster on full scans).
        let residual = plan.residual, hasResidual = residual != nil
        @inline(__always) func accepts(_ recheck: Bool) throws -> Bool {
            if !recheck && !hasResidual { return true }   // the common case: no predicate copied per row
            return try evaluator.matches(recheck ? q.predicate : residual!, row, in: self)
        }

        if plan.orderFromAccess {
            var skip = q.offset, remaining = q.limit ?? Int.max, fellBack = false
            var buffered: [UnsafeRawBufferPointer] = []
            try walk(plan, needRecords: true) { _, record, recheck in
                try row.point(at: record!)
                guard try accepts(recheck) else { return true }
                if recheck && plan.orderMayTruncate { fellBack = true; return false }
                if skip > 0 { skip -= 1; return true }
                if plan.orderMayTruncate { buffered.append(record!) } else { try body(row) }
                remaining -= 1
                return remaining > 0
            }
            if !fellBack {
                for b in buffered { try row.point(at: b); try body(row) }
                return
            }
        }

        // Sort in memory, keeping the best offset+limit when there is a limit. Record bytes
        // stay valid for the whole transaction (nothing writes while this runs).
        typealias Item = (record: UnsafeRawBufferPointer, keys: [Value], id: Value)
        let sort = q.sort
        var heap = BoundedHeap<Item>(capacity: q.limit.map { q.offset + $0 }) { a, b in
            for (i, k) in sort.enumerated() {
                let c = Value.compare(a.keys[i], b.keys[i])
                if c != .orderedSame { return k.ascending ? c == .orderedAscending : c == .orderedDescending }
            }
            return Value.compare(a.id, b.id) == .orderedAscending
        }
        try walk(plan, needRecords: true) { _, record, recheck in
            try row.point(at: record!)
            guard try accepts(recheck) else { return true }
            let keys = try sort.map { QueryEvaluator.sortValue(try evaluator.value($0.path, row, in: self), $0.options) }
            heap.insert((record!, keys, row.id))
            return true
        }
        for item in heap.sorted().dropFirst(q.offset) {
            try row.point(at: item.record)
            try body(row)
        }
    }

    /// Counts a plan's matches (offset and limit apply). Without conditions left to check,
    /// only keys are read.
    func count(_ plan: QueryPlan) throws -> Int {
        let q = plan.query
        let cap = q.limit.map { q.offset + $0 } ?? Int.max
        var n = 0
        if plan.residual == nil, case .scan = plan.access {
            n = try txn.entries(layout.primary[q.entity.index], unique: true)
        } else {
            try walkMatches(plan, row: rowView(q.entity), needRecords: false) { _, _, _ in
                n += 1
                return n < cap
            }
        }
        return max(0, min(n, cap) - q.offset)
    }

    /// The encoded primary keys of the records matching a predicate.
    func matchingKeys(_ e: Entity, _ predicate: StorePredicate) throws -> [[UInt8]] {
        let plan = LMDBQueryPlanner.plan(try schema.resolve(Query(e.name, where: predicate)), layout: layout)
        var keys: [[UInt8]] = []
        try walkMatches(plan, row: rowView(e), needRecords: false) { key, _, _ in
            keys.append(Array(key))
            return true
        }
        return keys
    }
}
