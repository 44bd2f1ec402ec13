import Foundation
import StoreCore

/// The collection faults of `FaultyTransaction`: lists and maps bent on the way in, on the
/// way out and in predicates.
extension Fault {
    /// A value on its way into the store.
    func writtenCollection(_ v: Value) -> Value {
        guard case .list(let xs) = v else { return v }
        switch self {
        case .listSortedOnWrite:
            return .list(xs.sorted { Value.compare($0, $1) == .orderedAscending })
        case .wrongElementsCoerced where xs.contains(where: { $0.stringValue != nil }):
            return .list(xs.map { $0.isNull || $0.stringValue != nil ? $0 : .string($0.description) })
        default:
            return v
        }
    }

    /// A record on its way out of the store.
    func readCollections(_ r: Record) -> Record {
        guard self == .emptyCollectionReadsAsNil else { return r }
        var r = r
        for i in r.values.indices where r.values[i] == .list([]) || r.values[i] == .map([:]) { r.values[i] = .null }
        return r
    }

    /// A condition as a backend with the fault would run it.
    func bendCollection(_ c: Condition, _ schema: Schema) -> StorePredicate {
        var c = c
        let first = c.keyPath.components.first ?? ""
        let kind = schema.entities.lazy.compactMap { e in e.ordinal(of: first).flatMap { e.attributes[$0].collection } }.first
        let single = c.keyPath.components.count == 1
        switch self {
        case .listStringOptionsIgnored where kind == .list && single && c.quantifier != .single:
            c.options = []
        case .binaryListElementsNeverMatch where kind == .list && single
            && c.comparison.operands.contains(where: { $0.uuidValue != nil || $0.bytesValue != nil }):
            return .constant(c.quantifier == .none)
        case .collectionCountOffByOne where kind != nil && single && c.keyPath.isCount:
            c.comparison = c.comparison.mappingIntegers { $0 + 1 }
        case .mapMissingKeyFailsNotEqual where kind == .map && c.keyPath.components.count == 2:
            if case .notEqual(let v) = c.comparison, !v.isNull {
                return .and([.condition(c), .condition(Condition(c.keyPath, .notEqual(.null)))])
            }
        case .noneOverEmptyListIsFalse where kind == .list && single && c.quantifier == .none:
            return .and([.condition(c), .condition(Condition(KeyPathExpression(c.keyPath.components, count: true), .greater(0)))])
        case .listComparedWithoutAnyAccepted where kind == .list && single && !c.keyPath.isCount && c.quantifier == .single:
            c.quantifier = .any
        default:
            break
        }
        return .condition(c)
    }
}

extension Comparison {
    /// The comparison with its integer operands changed by `f`.
    func mappingIntegers(_ f: (Int64) -> Int64) -> Comparison {
        func m(_ v: Value) -> Value { v.int64Value.map { .int64(f($0)) } ?? v }
        switch self {
        case .equal(let v): return .equal(m(v))
        case .notEqual(let v): return .notEqual(m(v))
        case .less(let v): return .less(m(v))
        case .lessOrEqual(let v): return .lessOrEqual(m(v))
        case .greater(let v): return .greater(m(v))
        case .greaterOrEqual(let v): return .greaterOrEqual(m(v))
        case .between(let a, let b): return .between(m(a), m(b))
        case .in(let vs): return .in(vs.map(m))
        default: return self
        }
    }
}
