import StoreCore

// Internal: relationship tables of a schema, precomputed once per graph so that following a
// relationship and its inverse is an array index rather than a name look-up.

/// One relationship of one entity, with where its inverse lives.
struct RelationshipInfo: Sendable {
    let relationship: Relationship
    let index: Int
    let destination: Entity
    let inverseIndex: Int
    /// The side that issues the store's link operations (the other side's changes mirror it).
    let isCanonical: Bool

    var isToMany: Bool { relationship.isToMany }
    var name: String { relationship.name }
}

/// Every entity's relationships as `RelationshipInfo`, by entity index.
struct GraphModel: Sendable {
    let schema: Schema
    let relationships: [[RelationshipInfo]]

    init(_ schema: Schema) {
        self.schema = schema
        relationships = schema.entities.map { e in
            e.relationships.enumerated().map { i, r in
                let (d, inv) = schema.inverse(of: r)
                let j = d.relationships.firstIndex { $0.name == inv.name }!
                let canonical = (e.index, i) <= (d.index, j)
                return RelationshipInfo(relationship: r, index: i, destination: d, inverseIndex: j, isCanonical: canonical)
            }
        }
    }

    func info(_ entity: Entity, _ name: String) throws -> RelationshipInfo {
        guard let r = relationships[entity.index].first(where: { $0.name == name }) else {
            throw StoreError(.invalidValue, "entity '\(entity.name)' has no relationship '\(name)'")
        }
        return r
    }

    func inverse(of r: RelationshipInfo) -> RelationshipInfo {
        relationships[r.destination.index][r.inverseIndex]
    }
}
