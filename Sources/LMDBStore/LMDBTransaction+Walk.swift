import CLMDB
import StoreCore

/// Walking a plan's candidates, one access path per function.
extension LMDBTransaction {
    /// What the key of one index entry says about the constraints. Internal helper.
    enum Verdict { case match, maybe, skip, stop }

    /// What `walk` hands each candidate: its primary key, its record (when asked for, or when
    /// the candidate must be rechecked) and whether it must be rechecked against the whole
    /// predicate (an index key cut at the key limit). Returns false to stop.
    typealias CandidateVisit = (_ key: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer?, _ recheck: Bool) throws -> Bool

    /// Walks a plan's candidates in the access path's order. With `skipping`, candidates that
    /// are certain matches may be passed over unvisited while the budget lasts (a descending
    /// index walk counts each key's duplicates); the visitor takes the rest from the budget.
    func walk(_ plan: QueryPlan, needRecords: Bool, skipping: SkipBudget? = nil, _ visit: CandidateVisit) throws {
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
            try walkRange(space, fixed, next, primary: primary, needRecords: needRecords, visit)
        case .rangeDescending(let space, let fixed):
            try walkDescending(space, fixed, primary: primary, needRecords: needRecords, skipping: skipping, visit)
        case .linked(let sub, let inverse):
            try walkLinked(sub, inverse, primary: primary, needRecords: needRecords, visit)
        case .linkCounts(let dbi, let condition):
            try walkLinkCounts(dbi, condition, primary: primary, needRecords: needRecords, visit)
        }
    }

    /// The positions a range walk starts from: one per `IN` value, else one.
    func seeks(_ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?) -> [(key: [UInt8], exact: Value?)] {
        let prefix = KeyEncoding.encode(fixed)
        var seeks: [(key: [UInt8], exact: Value?)]
        switch next {
        case nil: seeks = [(prefix, nil)]
        case .oneOf(let vs): seeks = vs.map { (prefix + KeyEncoding.encode($0), $0) }
        case .range(let lower, _, _, _): seeks = [(prefix + (lower.map(KeyEncoding.encode) ?? [KeyEncoding.valueTag]), nil)]
        case .prefix(let p): seeks = [(prefix + KeyEncoding.stringPrefix(p), nil)]
        }
        if !space.isPrimary, seeks.contains(where: { $0.key.count > LMDBLayout.indexKeyLimit }) {
            for i in seeks.indices where seeks[i].key.count > LMDBLayout.indexKeyLimit {
                seeks[i].key.removeLast(seeks[i].key.count - LMDBLayout.indexKeyLimit)
            }
            // Two `IN` values cut to one key: its entries are visited (and rechecked) once.
            var seen = Set<[UInt8]>()
            seeks = seeks.filter { seen.insert($0.key).inserted }
        }
        return seeks
    }

    private func walkRange(_ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?, primary: MDB_dbi,
                           needRecords: Bool, _ visit: CandidateVisit) throws {
        let c = try LMDBCursor(txn, space.dbi)
        for seek in seeks(space, fixed, next) {
            guard try seek.key.isEmpty ? c.move(MDB_FIRST) : c.seek(seek.key) else { return }
            var bounds = KeyBounds(space, fixed, next, exact: seek.exact)
            repeat {
                let key = c.keyBytes
                let verdict = try bounds?.verdict(key) ?? judge(key, space, fixed, next, seek)
                if verdict == .stop { break }
                if verdict == .skip { continue }
                if space.isPrimary {
                    guard try visit(key, c.valueBytes, verdict == .maybe) else { return }
                } else {
                    guard try visitIndexed(c.valueBytes, "index \(space.name)", primary, needRecords, verdict == .maybe, visit) else { return }
                }
            } while try c.move(MDB_NEXT)
        }
    }

    /// An index from its last key within `fixed` down; each key's duplicates (primary keys)
    /// in ascending order.
    private func walkDescending(_ space: KeySpace, _ fixed: [Value], primary: MDB_dbi, needRecords: Bool,
                                skipping budget: SkipBudget?, _ visit: CandidateVisit) throws {
        let c = try LMDBCursor(txn, space.dbi)
        let prefix = KeyEncoding.encode(fixed)
        // MDB_LAST marks the cursor at the end, where MDB_NEXT_DUP then finds nothing: seek
        // the last key again to clear that mark.
        let positioned = if let after = KeyEncoding.successor(prefix), try c.seek(after) {
            try c.move(MDB_PREV_NODUP)
        } else {
            try c.move(MDB_LAST) && c.seek(Array(c.keyBytes), exact: true)
        }
        guard positioned else { return }
        var bounds = KeyBounds(space, fixed, nil, exact: nil)
        repeat {
            let verdict = try bounds?.verdict(c.keyBytes) ?? judge(c.keyBytes, space, fixed, nil, nil)
            if verdict == .stop { return }
            if verdict == .match, let budget, budget.remaining > 0, budget.takes(try c.duplicates()) { continue }
            guard try c.move(MDB_FIRST_DUP) else { continue }
            repeat {
                guard try visitIndexed(c.valueBytes, "index \(space.name)", primary, needRecords, verdict == .maybe, visit) else { return }
            } while try c.move(MDB_NEXT_DUP)
        } while try c.move(MDB_PREV_NODUP)
    }

    /// Visits the record an index entry points to.
    @inline(__always)
    private func visitIndexed(_ pk: UnsafeRawBufferPointer, _ source: @autoclosure () -> String, _ primary: MDB_dbi,
                              _ needRecords: Bool, _ recheck: Bool, _ visit: CandidateVisit) throws -> Bool {
        let record = needRecords || recheck ? try pointedRecord(primary, pk, from: source()) : nil
        return try visit(pk, record, recheck)
    }

    /// The record at a primary key read from an index or a link; `corrupted`, naming `source`,
    /// when it is missing.
    @inline(__always)
    func pointedRecord(_ primary: MDB_dbi, _ pk: UnsafeRawBufferPointer, from source: @autoclosure () -> String) throws
        -> UnsafeRawBufferPointer {
        guard let b = try txn.get(primary, borrowed: pk) else {
            throw StoreError(.corrupted, "\(source()) points to a missing record", context: KeyEncoding.describe(Array(pk)))
        }
        return b
    }

    /// The sources linked to the matches of `sub`, in primary key order, each once. One match's
    /// links are its duplicates, in that order already: they are visited as the cursor meets
    /// them (a limit stops the walk); several matches' links are gathered and sorted first.
    private func walkLinked(_ sub: QueryPlan, _ inverse: MDB_dbi, primary: MDB_dbi, needRecords: Bool,
                            _ visit: CandidateVisit) throws {
        var theres: [[UInt8]] = []
        try walkMatches(sub, row: rowView(sub.query.entity), needRecords: false) { there, _, _ in
            theres.append(Array(there))
            return true
        }
        let c = try LMDBCursor(txn, inverse)
        if theres.count == 1 {
            guard try c.seek(theres[0], exact: true) else { return }
            repeat {
                guard try visitIndexed(c.valueBytes, "a link from \(sub.query.entity.name)", primary, needRecords, false, visit) else { return }
            } while try c.move(MDB_NEXT_DUP)
            return
        }
        var keys: [[UInt8]] = []
        for there in theres where try c.seek(there, exact: true) {
            repeat { keys.append(Array(c.valueBytes)) } while try c.move(MDB_NEXT_DUP)
        }
        keys.sort { $0.lexicographicallyPrecedes($1) }
        var previous: [UInt8]?
        for k in keys where k != previous {
            previous = k
            guard try k.withUnsafeBytes({ try visitIndexed($0, "a link from \(sub.query.entity.name)", primary, needRecords, false, visit) }) else { return }
        }
    }

    /// The owners in a link database whose number of links passes `condition`.
    private func walkLinkCounts(_ dbi: MDB_dbi, _ condition: ResolvedCondition, primary: MDB_dbi, needRecords: Bool,
                                _ visit: CandidateVisit) throws {
        let c = try LMDBCursor(txn, dbi)
        var more = try c.move(MDB_FIRST)
        while more {
            if QueryEvaluator.test(.int64(Int64(try c.duplicates())), condition.comparison, condition.options) {
                guard try visitIndexed(c.keyBytes, "a link database", primary, needRecords, false, visit) else { return }
            }
            more = try c.move(MDB_NEXT_NODUP)
        }
    }

    /// `judge` for the walk from one seek: an `IN` value's walk also stops at the first key
    /// that does not start with its seek key, so a key cut short, inconclusive for every value,
    /// is visited by the walk of the value it was cut from, once (`seeks` removes repeats).
    @inline(__always)
    func judge(_ key: UnsafeRawBufferPointer, _ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?,
               _ seek: (key: [UInt8], exact: Value?)) throws -> Verdict {
        if seek.exact != nil, !key.starts(with: seek.key) { return .stop }
        return try judge(key, space, fixed, next, seek.exact)
    }

    /// Compares an entry's key with the fixed components and the next constraint. Components
    /// cut at the key limit are inconclusive (`maybe`): the record decides.
    /// A cut key never gives `match`: its order and values are only known from the record.
    func judge(_ key: UnsafeRawBufferPointer, _ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?,
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
}
