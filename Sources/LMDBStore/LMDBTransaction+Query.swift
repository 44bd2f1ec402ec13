import CLMDB
import StoreCore

/// Executing query plans: walking candidates, filtering, ordering, counting.
extension LMDBTransaction {
    /// The plan for `query`, with the databases' sizes at hand (`LMDBQueryPlanner.plan`).
    func queryPlan(_ query: Query) throws -> QueryPlan {
        LMDBQueryPlanner.plan(try schema.resolve(query), layout: layout, entries: { try? txn.entries($0) })
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
        try walk(plan, needRecords: needRecords || plan.filter != nil) { key, record, recheck in
            if recheck || plan.filter != nil {
                try row.glance(at: record!)
                guard try accepts(plan, row, recheck, evaluator) else { return true }
                try row.confirm()
            } else if needRecords {
                try row.point(at: record!)
            }
            return try visit(key, record, recheck)
        }
    }

    /// Streams the matching rows of a plan, in order, after offset and limit. The row view is
    /// re-pointed for every row.
    func select(_ plan: QueryPlan, _ body: (LMDBRow) throws -> Void) throws {
        if plan.query.limit == 0 { return }
        let row = rowView(plan.query.entity)
        if case .scan(let reverse) = plan.access, plan.orderFromAccess {
            if let filter = plan.filter { return try selectScan(reverse: reverse, filter, plan.query, row, body) }
            return try selectScan(reverse: reverse, plan.query, row, body)
        }
        if plan.orderFromAccess, try selectInAccessOrder(plan, row, body) { return }
        try selectSorted(plan, row, body)
    }

    /// Every record in key order, after offset and limit: the cursor's loop with nothing else
    /// per row than the record's check (the path of `rows.fetch` and every unfiltered walk).
    private func selectScan(reverse: Bool, _ q: ResolvedQuery, _ row: LMDBRow, _ body: (LMDBRow) throws -> Void) throws {
        let c = try LMDBCursor(txn, layout.primary[q.entity.index])
        let step = reverse ? MDB_PREV : MDB_NEXT
        var skip = q.offset, remaining = q.limit ?? .max
        var more = try c.move(reverse ? MDB_LAST : MDB_FIRST)
        while more && remaining > 0 {
            if skip > 0 {
                skip -= 1   // skipped unread, as an index walk skips
            } else {
                try row.point(at: c.valueBytes)
                try body(row)
                remaining -= 1
            }
            more = try c.move(step)
        }
    }

    /// The records in key order that pass `filter`, after offset and limit: the cursor's loop
    /// with nothing else per record than the glance, the filter and a match's checksum.
    private func selectScan(reverse: Bool, _ filter: RecordFilter, _ q: ResolvedQuery, _ row: LMDBRow,
                            _ body: (LMDBRow) throws -> Void) throws {
        let c = try LMDBCursor(txn, layout.primary[q.entity.index])
        let step = reverse ? MDB_PREV : MDB_NEXT, evaluator = QueryEvaluator()
        var skip = q.offset, remaining = q.limit ?? .max
        var more = try c.move(reverse ? MDB_LAST : MDB_FIRST)
        while more && remaining > 0 {
            try row.glance(at: c.valueBytes)
            let matched: Bool
            do { matched = try filter.matches(row, evaluator, in: self) } catch {
                try row.confirm()   // as `accepts` does, written in the loop: a call per record costs
                throw error
            }
            if matched {
                try row.confirm()
                if skip > 0 { skip -= 1 } else { try body(row); remaining -= 1 }
            }
            more = try c.move(step)
        }
    }

    /// Whether a candidate passes what remains to check: nothing, the residual conditions, or
    /// the whole predicate for a cut index key. `row` was glanced at: when the test throws, the
    /// record's checksum is checked first, so a damaged record is `corrupted`, not whatever
    /// its damaged bytes led to (a key that names no record). No closure: nothing is retained
    /// per candidate.
    @inline(__always)
    private func accepts(_ plan: QueryPlan, _ row: LMDBRow, _ recheck: Bool, _ evaluator: QueryEvaluator) throws -> Bool {
        do {
            if recheck { return try evaluator.matches(plan.query.predicate, row, in: self) }
            return try plan.filter?.matches(row, evaluator, in: self) ?? true
        } catch {
            try row.confirm()
            throw error
        }
    }

    /// The rows in the access path's order, stopping at the limit; matches skipped by the
    /// offset are not read when nothing remains to check. False when a cut index key leaves
    /// the order unknown: nothing was passed to `body`, and the caller sorts instead.
    private func selectInAccessOrder(_ plan: QueryPlan, _ row: LMDBRow, _ body: (LMDBRow) throws -> Void) throws -> Bool {
        let q = plan.query, evaluator = QueryEvaluator(), primary = layout.primary[q.entity.index]
        let skip = SkipBudget(q.offset)
        var remaining = q.limit ?? Int.max, fellBack = false
        var buffered: [UnsafeRawBufferPointer] = []
        // Without a residual, every candidate a key answers for certain is a match: the walk
        // may pass over whole keys of them.
        try walk(plan, needRecords: plan.residual != nil || q.offset == 0, skipping: plan.residual == nil ? skip : nil) { key, found, recheck in
            if found == nil && skip.takes(1) { return true }   // nothing to check: a match, skipped unread
            let record = try found ?? pointedRecord(primary, key, from: "an index or link of \(q.entity.name)")
            try row.glance(at: record)
            guard try accepts(plan, row, recheck, evaluator) else { return true }
            try row.confirm()
            if recheck && plan.orderMayTruncate { fellBack = true; return false }
            if skip.takes(1) { return true }
            if plan.orderMayTruncate { buffered.append(record) } else { try body(row) }
            remaining -= 1
            return remaining > 0
        }
        if fellBack { return false }
        for b in buffered { try row.revisit(b); try body(row) }   // confirmed when they matched
        return true
    }

    /// The rows sorted in memory, keeping the best offset+limit when there is a limit. Record
    /// bytes stay valid for the whole transaction (nothing writes while this runs).
    private func selectSorted(_ plan: QueryPlan, _ row: LMDBRow, _ body: (LMDBRow) throws -> Void) throws {
        if plan.query.sort.isEmpty, plan.keysStayInMap { return try selectByKey(plan, row, body) }
        typealias Item = (record: UnsafeRawBufferPointer, keys: [Value], id: Value)
        let q = plan.query, sort = q.sort, evaluator = QueryEvaluator()
        var heap = BoundedHeap<Item>(capacity: q.limit.map { q.offset + $0 }) { a, b in
            for (i, k) in sort.enumerated() {
                let c = Value.compare(a.keys[i], b.keys[i])
                if c != .orderedSame { return k.ascending ? c == .orderedAscending : c == .orderedDescending }
            }
            return Value.compare(a.id, b.id) == .orderedAscending
        }
        try walk(plan, needRecords: true) { _, record, recheck in
            try row.glance(at: record!)
            guard try accepts(plan, row, recheck, evaluator) else { return true }
            try row.confirm()
            let keys = try sort.map { QueryEvaluator.sortValue(try evaluator.value($0.path, row, in: self), $0.options) }
            heap.insert((record!, keys, row.id))
            return true
        }
        for item in heap.sorted().dropFirst(q.offset) {
            try row.revisit(item.record)   // confirmed when it matched
            try body(row)
        }
    }

    /// The rows in primary key order (no sort asked) from an access in another order: ordered
    /// by their keys' bytes, which order as `Value.compare` orders the keys, so no value is
    /// decoded per candidate. Keys and records are the map's, valid for the transaction.
    private func selectByKey(_ plan: QueryPlan, _ row: LMDBRow, _ body: (LMDBRow) throws -> Void) throws {
        typealias Item = (record: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer)
        let q = plan.query, evaluator = QueryEvaluator()
        var heap = BoundedHeap<Item>(capacity: q.limit.map { q.offset + $0 }) { RawBytes.precedes($0.key, $1.key) }
        try walk(plan, needRecords: true) { key, record, recheck in
            try row.glance(at: record!)
            guard try accepts(plan, row, recheck, evaluator) else { return true }
            try row.confirm()
            heap.insert((record!, key))
            return true
        }
        for item in heap.sorted().dropFirst(q.offset) {
            try row.revisit(item.record)   // confirmed when it matched
            try body(row)
        }
    }

    /// Counts a plan's matches (offset and limit apply). Without conditions left to check,
    /// only keys are read, and an index range counts each key's duplicates at once.
    func count(_ plan: QueryPlan) throws -> Int {
        let q = plan.query
        let cap = q.limit.map { q.offset + $0 } ?? Int.max
        var n = 0
        if plan.residual == nil, case .scan = plan.access {
            n = try txn.entries(layout.primary[q.entity.index], unique: true)
        } else if plan.residual == nil, case .range(let space, let fixed, let next) = plan.access, !space.isPrimary {
            n = try countIndexRange(plan, space, fixed, next, cap: cap)
        } else {
            try walkMatches(plan, row: rowView(q.entity), needRecords: false) { _, _, _ in
                n += 1
                return n < cap
            }
        }
        return max(0, min(n, cap) - q.offset)
    }

    /// The entries of an index range, by key: `mdb_cursor_count` for a key that matches, the
    /// records one by one for a key cut at the key limit. Stops once `cap` is reached.
    private func countIndexRange(_ plan: QueryPlan, _ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?,
                                 cap: Int) throws -> Int {
        let c = try LMDBCursor(txn, space.dbi)
        let row = rowView(plan.query.entity), evaluator = QueryEvaluator(), primary = layout.primary[plan.query.entity.index]
        var n = 0
        for seek in seeks(space, fixed, next) where n < cap {
            guard try seek.key.isEmpty ? c.move(MDB_FIRST) : c.seek(seek.key) else { break }
            var bounds = KeyBounds(space, fixed, next, exact: seek.exact)
            repeat {
                let verdict = try bounds?.verdict(c.keyBytes) ?? judge(c.keyBytes, space, fixed, next, seek)
                if verdict == .stop { break }
                if verdict == .match { n += try c.duplicates() }
                if verdict == .maybe {
                    repeat {
                        try row.glance(at: try pointedRecord(primary, c.valueBytes, from: "index \(space.name)"))
                        if try accepts(plan, row, true, evaluator) { try row.confirm(); n += 1 }
                    } while try c.move(MDB_NEXT_DUP)
                }
            } while try n < cap && c.move(MDB_NEXT_NODUP)
        }
        return n
    }

    /// The encoded primary keys of the records matching a predicate.
    func matchingKeys(_ e: Entity, _ predicate: StorePredicate) throws -> [[UInt8]] {
        let plan = try queryPlan(Query(e.name, where: predicate))
        var keys: [[UInt8]] = []
        try walkMatches(plan, row: rowView(e), needRecords: false) { key, _, _ in
            keys.append(Array(key))
            return true
        }
        return keys
    }
}
