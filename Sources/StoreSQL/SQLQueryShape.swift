import Foundation
import StoreCore

/// What a query compiles to apart from its operand values: its structure with every operand
/// blanked, and one class per resolved operand (null, the sign of a number, an empty or
/// non-empty string, a bool's value) — everything `SQLQueryCompiler` decides by. Two queries
/// with the same shape compile to the same SQL text; only their bindings differ
/// (`SQLQueryCache` checks that with two substitute compiles before it trusts a shape).
struct SQLQueryShape: Hashable, Sendable {
    enum Kind: UInt8, Hashable, Sendable { case select, count }

    let kind: Kind
    let blanked: Query
    let classes: [UInt8]
    /// Operands a cached shape holds at most: a long `IN` list is compiled every time, so the
    /// table's size stays small whatever the queries.
    static let maxOperands = 64

    /// The shape of `query`, whose resolution is `resolved`; nil when an operand has no class
    /// (a list or a map, a non-finite number) or there are over `maxOperands`: such a query
    /// is compiled every time.
    init?(_ kind: Kind, _ query: Query, _ resolved: [Value]) {
        guard resolved.count <= Self.maxOperands else { return nil }
        var classes: [UInt8] = []
        classes.reserveCapacity(resolved.count)
        for v in resolved {
            guard let c = Self.operandClass(v) else { return nil }
            classes.append(c)
        }
        self.kind = kind
        self.classes = classes
        blanked = query.replacingOperands { _ in .null }
    }

    /// The operand's class: what the compiler may branch on. Nil where no substitute of the
    /// same class exists.
    static func operandClass(_ v: Value) -> UInt8? {
        switch v {
        case .null: 0
        case .int64(let n): n < 0 ? 1 : n == 0 ? 2 : 3
        case .double(let d): d.isFinite ? (d < 0 ? 4 : d == 0 ? 5 : 6) : nil
        case .date(let d): d.timeIntervalSinceReferenceDate.isFinite ? (d.timeIntervalSinceReferenceDate < 0 ? 7 : d.timeIntervalSinceReferenceDate == 0 ? 8 : 9) : nil
        case .bool(let b): b ? 11 : 10
        case .string(let s): s.isEmpty ? 12 : 13
        case .uuid: 14
        case .bytes(let b): b.isEmpty ? 15 : 16
        case .list, .map: nil
        }
    }

    /// A value of `v`'s type and class, distinct for every `index` and `round`; `v` itself
    /// where its class holds one value (null, zero, a bool, empty).
    static func substitute(for v: Value, index: Int, round: Int) -> Value {
        let n = Int64(index) + 1 + Int64(round + 1) * 1_000_000
        switch v {
        case .int64(let x) where x != 0: return .int64(x < 0 ? -n : n)
        case .double(let x) where x != 0: return .double(Double(x < 0 ? -n : n) + 0.5)
        case .date(let d) where d.timeIntervalSinceReferenceDate != 0:
            return .date(Date(timeIntervalSinceReferenceDate: Double(d.timeIntervalSinceReferenceDate < 0 ? -n : n) + 0.5))
        case .string(let s) where !s.isEmpty: return .string(String(repeating: "q", count: round + 1) + "substitute\(index)")
        case .bytes(let b) where !b.isEmpty: return .bytes(Array(repeating: 0xA5, count: round + 1) + withUnsafeBytes(of: n) { Array($0) })
        case .uuid: return .uuid(UUID(uuid: (0xA5, UInt8(round), 0x5A, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF))))
        default: return v
        }
    }
}

extension Query {
    /// The query with each operand (text operators' strings as `.string`) replaced by `f`'s
    /// answer, then the limit (when there is one) and the offset, in the order
    /// `ResolvedQuery.operands` lists them (an answer that is not an integer counts as 0).
    func replacingOperands(_ f: (Value) -> Value) -> Query {
        func int(_ n: Int) -> Int { if case .int64(let m) = f(.int64(Int64(n))) { Int(m) } else { 0 } }
        var q = self
        q.predicate = predicate.replacingOperands(f)
        q.limit = limit.map(int)
        q.offset = int(offset)
        return q
    }
}

extension StorePredicate {
    func replacingOperands(_ f: (Value) -> Value) -> StorePredicate {
        switch self {
        case .constant:
            return self
        case .condition(var c):
            c.comparison = c.comparison.replacingOperands(f)
            return .condition(c)
        case .and(let ps): return .and(ps.map { $0.replacingOperands(f) })
        case .or(let ps): return .or(ps.map { $0.replacingOperands(f) })
        case .not(let p): return .not(p.replacingOperands(f))
        }
    }
}

extension Comparison {
    func replacingOperands(_ f: (Value) -> Value) -> Comparison {
        func text(_ s: String) -> String { if case .string(let t) = f(.string(s)) { t } else { "" } }
        switch self {
        case .equal(let v): return .equal(f(v))
        case .notEqual(let v): return .notEqual(f(v))
        case .less(let v): return .less(f(v))
        case .lessOrEqual(let v): return .lessOrEqual(f(v))
        case .greater(let v): return .greater(f(v))
        case .greaterOrEqual(let v): return .greaterOrEqual(f(v))
        case .between(let a, let b): return .between(f(a), f(b))
        case .in(let vs): return .in(vs.map(f))
        case .contains(let s): return .contains(text(s))
        case .beginsWith(let s): return .beginsWith(text(s))
        case .endsWith(let s): return .endsWith(text(s))
        case .like(let s): return .like(text(s))
        }
    }
}

extension ResolvedQuery {
    /// Every operand of the predicate, depth first (the order `Query.replacingOperands`
    /// visits them), then the limit (when there is one) and the offset.
    var operands: [Value] {
        var out: [Value] = []
        Self.collect(predicate, into: &out)
        if let limit { out.append(.int64(Int64(limit))) }
        out.append(.int64(Int64(offset)))
        return out
    }

    private static func collect(_ p: ResolvedPredicate, into out: inout [Value]) {
        switch p {
        case .constant: break
        case .condition(let c): out.append(contentsOf: c.comparison.operands)
        case .and(let ps), .or(let ps): for q in ps { collect(q, into: &out) }
        case .not(let q): collect(q, into: &out)
        }
    }
}
