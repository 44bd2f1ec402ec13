import Foundation
import StoreCore

extension ModelRun {
    /// Performs one operation in `tx` (a nested `rolledBack` is not generated).
    static func perform(_ op: ModelOperation, _ tx: any WriteTransaction) throws -> ModelOperation.Outcome {
        let node = try tx.schema.entity("Node")
        func record(_ n: ModelNode) throws -> Record {
            try node.record(["id": .int64(n.id), "label": n.label.map(Value.string) ?? .null, "weight": n.weight.map(Value.int64) ?? .null])
        }
        switch op {
        case .insert(let n): try tx.insert(try record(n))
        case .insertBatch(let ns): try tx.insert(contentsOf: try ns.map(record))
        case .upsert(let n): try tx.upsert(try record(n))
        case .update(let id, let label, let weight):
            var set: [String: Value] = [:]
            if let label { set["label"] = label.map(Value.string) ?? .null }
            if let weight { set["weight"] = weight.map(Value.int64) ?? .null }
            try tx.update("Node", id: .int64(id), set: set)
        case .delete(let id): try tx.delete("Node", id: .int64(id))
        case .deleteWhere(let w): return .count(try tx.delete("Node", where: KeyPathExpression("weight") < .int64(w)))
        case .updateWhere(let w, let v):
            return .count(try tx.update("Node", where: KeyPathExpression("weight") > .int64(w), set: ["weight": v.map(Value.int64) ?? .null]))
        case .follow(let a, let b): try tx.link("Node", id: .int64(a), "follows", to: .int64(b))
        case .unfollow(let a, let b): try tx.unlink("Node", id: .int64(a), "follows", from: .int64(b))
        case .setParent(let a, let b): try tx.link("Node", id: .int64(a), "parent", to: .int64(b))
        case .query(let w, let limit, let offset):
            let q = Query("Node", where: KeyPathExpression("weight") >= .int64(w), sort: [.desc("weight"), .asc("id")], limit: limit, offset: offset)
            return .ids(try tx.fetch(q).compactMap(\.id.int64Value))
        case .countNullWeights: return .count(try tx.count(Query("Node", where: "weight" == Value.null)))
        case .rolledBack(let ops): for o in ops { _ = try perform(o, tx) }
        }
        return .done
    }

    /// The nodes among `ids` whose state differs between the store and the model.
    static func differences(_ repo: any Repository, _ model: ReferenceModel, _ ids: [Int64]) throws -> String? {
        let stored = try repo.read { tx in try ids.map { try state(of: $0, tx) } }
        let expected = ids.map(model.state(of:))
        guard let i = zip(stored, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            let count = try repo.read { try $0.count(Query("Node")) }
            return count == model.ids.count ? nil : "the store holds \(count) nodes, the model \(model.ids.count)"
        }
        return "the store holds \(stored[i]), the model \(expected[i])"
    }

    /// A node's attributes and links, as `ReferenceModel.state(of:)` writes them.
    static func state(of id: Int64, _ tx: any ReadTransaction) throws -> String {
        guard let r = try tx.fetch("Node", id: .int64(id)) else { return "\(id): none" }
        func keys(_ rel: String) throws -> [Int64] { try tx.related("Node", id: .int64(id), via: rel).compactMap(\.id.int64Value).sorted() }
        let n = ModelNode(id: id, label: r["label"].stringValue, weight: r["weight"].int64Value)
        return "\(n) follows \(try keys("follows")) followedBy \(try keys("followedBy")) parent \(try keys("parent")) children \(try keys("children"))"
    }
}

/// The `model` group's schema: `Node` (int64 key, unique optional `label`, optional `weight`),
/// `follows` ↔ `followedBy` (many-to-many, nullify), `parent` ↔ `children` (cascade).
enum ModelSchema {
    static func make() throws -> Schema {
        try Schema(version: 1, entities: [
            EntityDescription("Node", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("label", .string, optional: true), Attribute("weight", .int64, optional: true)],
                              indexes: [IndexDescription(["label"], unique: true), IndexDescription(["weight"])],
                              relationships: [
                                  Relationship("follows", to: "Node", inverse: "followedBy", .toMany),
                                  Relationship("followedBy", to: "Node", inverse: "follows", .toMany),
                                  Relationship("parent", to: "Node", inverse: "children", .toOne),
                                  Relationship("children", to: "Node", inverse: "parent", .toMany, deleteRule: .cascade),
                              ]),
        ])
    }
}
