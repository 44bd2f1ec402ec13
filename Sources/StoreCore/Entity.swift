/// A validated entity of a `Schema`: attributes in a fixed order (records are addressed by
/// ordinal), the primary key's ordinal, indexes and relationships.
///
/// Immutable and shared: every record of the entity refers to the same instance.
public final class Entity: Sendable {
    public let name: String
    /// The entity's position in `Schema.entities`.
    public let index: Int
    public let attributes: [Attribute]
    /// Each attribute's stored type (`Attribute.storageType`), in attribute order: what a
    /// backend's row view reads by ordinal (built once here, so no row view builds its own per
    /// query). A list or map attribute is stored as `string` (its JSON, see `CollectionCoding`).
    public let attributeTypes: [AttributeType]
    /// Whether any attribute is a list or map: row views decode those (`decodedCollection`).
    public let hasCollections: Bool
    public let primaryKeyOrdinal: Int
    /// Where each attribute lives in a packed record (`PackedRow`).
    public let packed: PackedLayout
    public let indexes: [IndexDescription]
    public let relationships: [Relationship]
    /// Whether records of this entity live only inside one owner (`EntityDescription.isEmbedded`).
    public let isEmbedded: Bool
    private let ordinals: [String: Int]
    private let relationshipPositions: [String: Int]

    init(_ d: EntityDescription, index: Int) {
        name = d.name
        self.index = index
        attributes = d.attributes
        attributeTypes = d.attributes.map(\.storageType)
        let collections = Set(d.attributes.indices.filter { d.attributes[$0].collection != nil })
        hasCollections = !collections.isEmpty
        packed = PackedLayout(attributeTypes, collections: collections)
        indexes = d.indexes
        relationships = d.relationships
        isEmbedded = d.isEmbedded
        ordinals = Dictionary(d.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        relationshipPositions = Dictionary(d.relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        primaryKeyOrdinal = ordinals[d.primaryKey] ?? 0
    }

    public var primaryKey: Attribute { attributes[primaryKeyOrdinal] }

    /// The ordinal of an attribute, or `nil` when the entity has none of that name.
    @inline(__always)
    public func ordinal(of attribute: String) -> Int? { ordinals[attribute] }

    /// The relationship of that name, or `nil`.
    public func relationship(_ name: String) -> Relationship? {
        relationshipPositions[name].map { relationships[$0] }
    }

    /// The ordinal of an attribute; `invalidQuery`/`invalidValue`-style error when unknown.
    public func requireOrdinal(of attribute: String, category: StoreError.Category = .invalidValue) throws -> Int {
        guard let o = ordinals[attribute] else {
            throw StoreError(category, "entity '\(name)' has no attribute '\(attribute)'")
        }
        return o
    }

    public func requireRelationship(_ name: String, category: StoreError.Category = .invalidValue) throws -> Relationship {
        guard let r = relationship(name) else {
            throw StoreError(category, "entity '\(self.name)' has no relationship '\(name)'")
        }
        return r
    }
}

extension Entity {
    /// The value a row view hands out for attribute `ordinal` given its stored value: a list
    /// or map attribute's JSON text decoded (`.null` when it does not decode), others as they are.
    @inline(__always)
    public func decodedCollection(_ stored: Value, at ordinal: Int) -> Value {
        guard hasCollections, let kind = attributes[ordinal].collection, case .string(let text) = stored else { return stored }
        return CollectionCoding.decode(text, as: kind, of: attributes[ordinal].type) ?? .null
    }
}

extension Entity {
    /// Values in attribute order with each list or map replaced by its stored JSON text
    /// (`CollectionCoding`): what a backend writes.
    public func encodedCollections(_ values: [Value]) -> [Value] {
        var out = values
        for (i, v) in values.enumerated() where i < attributes.count {
            if let text = CollectionCoding.encode(v, of: attributes[i].type) { out[i] = .string(text) }
        }
        return out
    }
}

extension Entity: Hashable {
    public static func == (a: Entity, b: Entity) -> Bool { a === b || a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }
}

extension Entity: CustomStringConvertible {
    public var description: String { "Entity(\(name))" }
}
