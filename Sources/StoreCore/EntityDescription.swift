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

    public init(_ name: String, primaryKey: String, attributes: [Attribute],
                indexes: [IndexDescription] = [], relationships: [Relationship] = []) {
        self.name = name
        self.primaryKey = primaryKey
        self.attributes = attributes
        self.indexes = indexes
        self.relationships = relationships
    }
}
