/// A validated schema: a version number and its entities.
///
/// Opening a store written with another version (or another schema under the same version)
/// fails with `schemaMismatch`.
///
/// ```swift
/// let schema = try Schema(version: 1, entities: [userDescription, postDescription])
/// let user = schema["User"]!
/// ```
///
/// Immutable and `Sendable`.
public final class Schema: Sendable {
    public let version: Int
    public let entities: [Entity]
    public let descriptions: [EntityDescription]
    private let byName: [String: Entity]

    /// Validates the declarations; throws `invalidSchema` naming the first problem found.
    public init(version: Int, entities descriptions: [EntityDescription]) throws {
        try SchemaValidator.validate(version: version, descriptions)
        self.version = version
        self.descriptions = descriptions
        let entities = descriptions.enumerated().map { Entity($1, index: $0) }
        self.entities = entities
        byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
    }

    /// The entity of that name, or `nil`.
    ///
    /// Every operation looks its entity up by name, so this is on every hot path: a schema of
    /// a few entities compares names (short names compare as two machine words) instead of
    /// hashing them.
    @inline(__always)
    public subscript(name: String) -> Entity? {
        if entities.count <= Self.linearLookupLimit {
            for e in entities where e.name == name { return e }
            return nil
        }
        return byName[name]
    }

    private static let linearLookupLimit = 12

    /// This schema's entity for `entity`, which may come from another instance of the same
    /// schema: the entity itself when it is this schema's (one pointer comparison, the
    /// common case for records a caller built from this schema), else the one of that name.
    @inline(__always)
    public func entity(of entity: Entity, category: StoreError.Category = .invalidValue) throws -> Entity {
        if entity.index < entities.count, entities[entity.index] === entity { return entity }
        return try self.entity(entity.name, category: category)
    }

    /// The entity of that name, or an error of the given category naming it.
    public func entity(_ name: String, category: StoreError.Category = .invalidValue) throws -> Entity {
        guard let e = self[name] else { throw StoreError(category, "unknown entity '\(name)'") }
        return e
    }

    /// The destination entity and inverse relationship of a relationship.
    public func inverse(of relationship: Relationship) -> (entity: Entity, relationship: Relationship) {
        let d = byName[relationship.destination]!
        return (d, d.relationship(relationship.inverse)!)
    }

    /// A stable text fingerprint of the schema's structure, stored beside the version so a
    /// changed schema under an unchanged version is caught on open.
    public var fingerprint: String {
        var s = "v\(version)"
        for e in descriptions {
            s += "|\(e.name):\(e.primaryKey)\(e.isEmbedded ? ":embedded" : "")"
            for a in e.attributes { s += ";\(a.name) \(a.typeName)\(a.isOptional ? "?" : "")" }
            for i in e.indexes { s += ";idx(\(i.attributes.joined(separator: ",")))\(i.isUnique ? "!" : "")" }
            for r in e.relationships { s += ";\(r.name)->\(r.destination).\(r.inverse) \(r.cardinality.rawValue) \(r.deleteRule.rawValue)\(r.isOrdered ? " ordered" : "")" }
        }
        return s
    }
}

extension Schema: Equatable {
    public static func == (a: Schema, b: Schema) -> Bool { a.version == b.version && a.descriptions == b.descriptions }
}
