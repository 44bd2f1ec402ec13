import StoreCore

/// Internal: where a declared model's properties live in its entity: per property (in
/// declaration order) the attribute ordinal or relationship index. Built once per model type
/// and entity, checked against the store's schema.
@usableFromInline
final class ModelLayout: Sendable {
    let entity: Entity
    @usableFromInline let slots: [Int]

    private init(entity: Entity, slots: [Int]) {
        self.entity = entity
        self.slots = slots
    }

    private static let cache = Locked<[ObjectIdentifier: ModelLayout]>([:])

    /// The layout of `M` in `schema`; `invalidValue` when the schema has no such entity,
    /// `schemaMismatch` when the entity is not what `M` declares.
    static func of<M: PersistentModel>(_: M.Type, in schema: Schema) throws -> ModelLayout {
        let key = ObjectIdentifier(M.self)
        if let l = cache.withLock({ $0[key] }), schema.entities.indices.contains(l.entity.index),
           schema.entities[l.entity.index] === l.entity {
            return l
        }
        guard let entity = schema[M.entityName] else {
            throw StoreError(.invalidValue, "\(M.entityName) is not an entity of this context's schema; build the store's schema with Schema(version:, \(M.entityName).self, …)")
        }
        let l = ModelLayout(entity: entity, slots: try M.persistentProperties.map { try slot(of: $0, in: entity) })
        cache.withLock { $0[key] = l }
        return l
    }

    private static func slot(of p: ModelProperty, in e: Entity) throws -> Int {
        switch p.kind {
        case .attribute(let type, let optional, _, _):
            guard let i = e.ordinal(of: p.name), e.attributes[i].type == type, e.attributes[i].isOptional == optional else {
                throw mismatch(e, p.name, "\(optional ? "an optional " : "a ")\(type) attribute")
            }
            return i
        case .relationship(let d, let toMany, _, _):
            guard let i = e.relationships.firstIndex(where: { $0.name == p.name }),
                  e.relationships[i].destination == d.entityName, e.relationships[i].isToMany == toMany else {
                throw mismatch(e, p.name, "a \(toMany ? "to-many" : "to-one") relationship to \(d.entityName)")
            }
            return i
        }
    }

    private static func mismatch(_ e: Entity, _ name: String, _ declared: String) -> StoreError {
        StoreError(.schemaMismatch, "\(e.name).\(name) is declared as \(declared) but the store's entity \(e.name) differs; build the schema from the model types")
    }
}
