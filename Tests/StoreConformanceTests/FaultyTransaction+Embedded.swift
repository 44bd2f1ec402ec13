import StoreCore

/// The embedded-object faults of `FaultyTransaction` and `FaultyRepository`, over the wrapped
/// store's own transaction.
extension Fault {
    /// Whether a key path's first step is an owning relationship (to an embedded entity).
    static func leadsThroughOwning(_ keyPath: KeyPathExpression, _ schema: Schema) -> Bool {
        guard let first = keyPath.components.first, keyPath.components.count > 1 || keyPath.isCount else { return false }
        return schema.entities.contains { e in e.relationship(first).map { schema.ownership(e, $0) != nil } ?? false }
    }

    /// For `embeddedCascadeSkipped`: unlinks the embedded records of these owners.
    static func unlinkEmbedded(of owners: [(String, Value)], in tx: any WriteTransaction) throws {
        for (name, id) in owners {
            guard let e = tx.schema[name] else { continue }
            for r in e.relationships where tx.schema.ownership(e, r)?.embeddedIsSource == false {
                for d in try tx.related(name, id: id, via: r.name) { try tx.unlink(name, id: id, r.name, from: d.id) }
            }
        }
    }

    /// For `secondOwnerMovesEmbedded`: before linking, unlinks the embedded record from its
    /// current owner.
    static func unlinkOtherOwner(_ e: Entity, _ id: Value, _ r: Relationship, _ target: Value, in tx: any WriteTransaction) throws {
        guard let o = tx.schema.ownership(e, r) else { return }
        let (embedded, owner) = o.embeddedIsSource ? (id, target) : (target, id)
        for current in try tx.related(o.embedded.name, id: embedded, via: o.ownerLink.name) where current.id != owner {
            try tx.unlink(o.embedded.name, id: embedded, o.ownerLink.name, from: current.id)
        }
    }

    /// For `orphanDroppedAtCommit`: deletes every embedded record without an owner.
    static func deleteOrphans(in tx: any WriteTransaction) throws {
        for e in tx.schema.entities {
            guard let link = e.ownerLink else { continue }
            for r in try tx.fetch(Query(e.name)) where try tx.related(e.name, id: r.id, via: link.name).isEmpty {
                try tx.delete(e.name, id: r.id)
            }
        }
    }

    /// For `embeddedFlagNotRecorded`: the schema with every entity declared not embedded.
    static func withoutEmbedding(_ schema: Schema) throws -> Schema {
        try Schema(version: schema.version, entities: schema.descriptions.map { d in
            var d = d
            d.isEmbedded = false
            return d
        })
    }
}
