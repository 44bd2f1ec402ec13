import Foundation
import StoreCore

/// One step of a random operation sequence on `ModelSchema`'s `Node`s (the `model` group).
enum ModelOperation: Sendable, CustomStringConvertible {
    case insert(ModelNode)
    case insertBatch([ModelNode])
    case upsert(ModelNode)
    case update(Int64, label: String??, weight: Int64??)
    case delete(Int64)
    case deleteWhere(weightBelow: Int64)
    case updateWhere(weightAbove: Int64, set: Int64?)
    case follow(Int64, Int64)
    case unfollow(Int64, Int64)
    case setParent(Int64, Int64)
    case query(weightAtLeast: Int64, limit: Int, offset: Int)
    case countNullWeights
    /// Several operations in one transaction that then throws: nothing of it stays.
    case rolledBack([ModelOperation])

    /// What the operation answered: a value, a count, the keys a query returned, or an error.
    enum Outcome: Equatable, CustomStringConvertible {
        case done
        case count(Int)
        case ids([Int64])
        case error(StoreError.Category)

        var description: String {
            switch self {
            case .done: "done"
            case .count(let n): "count \(n)"
            case .ids(let ids): "ids \(ids)"
            case .error(let c): "\(c.rawValue) error"
            }
        }
    }

    /// The nodes whose state the operation may change (compared after it).
    var touched: [Int64] {
        switch self {
        case .insert(let n), .upsert(let n): [n.id]
        case .insertBatch(let ns): ns.map(\.id)
        case .update(let id, _, _), .delete(let id): [id]
        case .follow(let a, let b), .unfollow(let a, let b), .setParent(let a, let b): [a, b]
        case .rolledBack(let ops): ops.flatMap(\.touched)
        case .deleteWhere, .updateWhere, .query, .countNullWeights: []
        }
    }

    var description: String {
        switch self {
        case .insert(let n): "insert \(n)"
        case .insertBatch(let ns): "insert batch \(ns)"
        case .upsert(let n): "upsert \(n)"
        case .update(let id, let label, let weight):
            "update \(id) set" + (label.map { " label \(ModelNode.show($0))" } ?? "") + (weight.map { " weight \($0.map(String.init) ?? "nil")" } ?? "")
        case .delete(let id): "delete \(id)"
        case .deleteWhere(let w): "delete where weight < \(w)"
        case .updateWhere(let w, let v): "update where weight > \(w) set weight \(v.map(String.init) ?? "nil")"
        case .follow(let a, let b): "link \(a).follows → \(b)"
        case .unfollow(let a, let b): "unlink \(a).follows → \(b)"
        case .setParent(let a, let b): "link \(a).parent → \(b)"
        case .query(let w, let l, let o): "fetch where weight >= \(w) sort weight desc, id limit \(l) offset \(o)"
        case .countNullWeights: "count where weight == nil"
        case .rolledBack(let ops): "transaction that throws after [\(ops.map(\.description).joined(separator: "; "))]"
        }
    }
}

/// A node's attributes: key, unique optional label, optional weight.
struct ModelNode: Sendable, Equatable, CustomStringConvertible {
    var id: Int64
    var label: String?
    var weight: Int64?

    var description: String { "(\(id), \(Self.show(label)), \(weight.map(String.init) ?? "nil"))" }

    /// A label with its scalars spelled out, so canonically equivalent ones read apart.
    static func show(_ s: String?) -> String {
        guard let s else { return "nil" }
        return "\"" + s.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() + "\""
    }
}
