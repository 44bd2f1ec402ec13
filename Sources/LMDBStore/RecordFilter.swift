import StoreCore

/// A predicate prepared for LMDB's records. Equality with a string and comparisons with an
/// integer, on a direct attribute without `[c]`/`[d]`, read the record's bytes in place (no
/// `String` or `Value` is made per record); every other condition, and every record still in
/// format 2, goes through StoreCore's `QueryEvaluator`, so the semantics stay the shared ones
/// (a null field passes `!=` only; strings compare by their UTF-8 bytes, which is Unicode
/// scalar order). Internal.
struct RecordFilter: Sendable {
    private indirect enum Node: Sendable {
        case constant(Bool)
        case all([Node])
        case any([Node])
        case not(Node)
        /// `attribute == string` (`negated`: `!=`). Each in-place leaf keeps its condition
        /// boxed (`ResolvedPredicate`, one reference) for a record still in format 2: a leaf
        /// is matched per record, and a condition held inline is copied at every match.
        case stringEquals(ordinal: Int, utf8: [UInt8], negated: Bool, ResolvedPredicate)
        /// `attribute <op> integer`; `range` holds the integers that pass.
        case integer(ordinal: Int, ClosedRange<Int64>, ResolvedPredicate)
        /// Any other comparison of a direct attribute (text operators, options, other types):
        /// `QueryEvaluator.test` on the field read in place, no trip through the evaluator's
        /// path walk. `p` answers a record still in format 2.
        case value(ordinal: Int, Comparison, StringOptions, ResolvedPredicate)
        /// Any other condition, wrapped once (a `ResolvedPredicate` is boxed: wrapping it per
        /// record would allocate per record).
        case general(ResolvedPredicate)
    }

    private let root: Node

    init(_ predicate: ResolvedPredicate) { root = Self.node(predicate) }

    /// Whether the record `row` points at passes.
    @inline(__always)
    func matches(_ row: LMDBRow, _ evaluator: QueryEvaluator, in tx: LMDBTransaction) throws -> Bool {
        try Self.matches(root, row, evaluator, tx)
    }

    private static func matches(_ n: Node, _ row: LMDBRow, _ evaluator: QueryEvaluator, _ tx: LMDBTransaction) throws -> Bool {
        switch n {
        case .constant(let b): return b
        case .all(let ns):
            for m in ns where try !matches(m, row, evaluator, tx) { return false }
            return true
        case .any(let ns):
            for m in ns where try matches(m, row, evaluator, tx) { return true }
            return false
        case .not(let m): return try !matches(m, row, evaluator, tx)
        case .stringEquals(let o, let utf8, let negated, let p):
            guard let packed = row.packedRow else { return try evaluator.matches(p, row, in: tx) }
            guard let field = packed.utf8(at: o) else { return negated }
            return utf8.withUnsafeBytes { RawBytes.equal(field, $0) } != negated
        case .integer(let o, let range, let p):
            guard let packed = row.packedRow else { return try evaluator.matches(p, row, in: tx) }
            return packed.int64(at: o).map(range.contains) ?? false
        case .value(let o, let comparison, let options, let p):
            guard let packed = row.packedRow else { return try evaluator.matches(p, row, in: tx) }
            return QueryEvaluator.test(packed[o], comparison, options)
        case .general(let p): return try evaluator.matches(p, row, in: tx)
        }
    }

    private static func node(_ p: ResolvedPredicate) -> Node {
        switch p {
        case .constant(let b): .constant(b)
        case .and(let ps): .all(ps.map(node))
        case .or(let ps): .any(ps.map(node))
        case .not(let q): .not(node(q))
        case .condition(let c): leaf(c)
        }
    }

    /// The in-place form of a condition, where one applies.
    private static func leaf(_ c: ResolvedCondition) -> Node {
        guard c.path.steps.isEmpty, c.quantifier == .single, case .attribute(let e, let o, let type) = c.path.terminal else {
            return .general(.condition(c))
        }
        let direct = e.attributes[o].collection == nil ? Node.value(ordinal: o, c.comparison, c.options, .condition(c)) : .general(.condition(c))
        guard c.options.isEmpty else { return direct }
        switch (type, c.comparison) {
        case (.string, .equal(.string(let s))): return .stringEquals(ordinal: o, utf8: Array(s.utf8), negated: false, .condition(c))
        case (.string, .notEqual(.string(let s))): return .stringEquals(ordinal: o, utf8: Array(s.utf8), negated: true, .condition(c))
        case (.int64, _): return integerRange(c.comparison).map { .integer(ordinal: o, $0, .condition(c)) } ?? direct
        default: return direct
        }
    }

    /// The integers that pass an ordering comparison with an integer; nil for other comparisons.
    private static func integerRange(_ comparison: Comparison) -> ClosedRange<Int64>? {
        switch comparison {
        case .equal(.int64(let x)): x...x
        case .less(.int64(let x)): x == .min ? nil : Int64.min...(x - 1)
        case .lessOrEqual(.int64(let x)): Int64.min...x
        case .greater(.int64(let x)): x == .max ? nil : (x + 1)...Int64.max
        case .greaterOrEqual(.int64(let x)): x...Int64.max
        case .between(.int64(let a), .int64(let b)): a <= b ? a...b : nil
        default: nil
        }
    }
}
