/// The declaration of an entity, as written by the schema's author. `Schema` validates a list
/// of these and turns each into an `Entity`.
///
/// ```swift
/// EntityDescription("User", primaryKey: "id",
///     attributes: [Attribute("id", .int64), Attribute("username", .string)],
///     indexes: [IndexDescription(["username"], unique: true)],
///     relationships: [Relationship("posts", to: "Post", inverse: "author", .toMany)])
/// ```
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    public var primaryKey: String
    public var attributes: [Attribute]
    public var indexes: [IndexDescription]
    public var relationships: [Relationship]
    /// Whether the entity is embedded: its records live only inside one owner record (Realm's
    /// `EmbeddedObject`). See `Schema`'s rules for embedded entities in `Entity+Embedded.swift`.
    public var isEmbedded: Bool

    public init(_ name: String, primaryKey: String, attributes: [Attribute],
                indexes: [IndexDescription] = [], relationships: [Relationship] = [], embedded: Bool = false) {
        self.name = name
        self.isEmbedded = embedded
        self.primaryKey = primaryKey
        self.attributes = attributes
        self.indexes = indexes
        self.relationships = relationships
    }
}
