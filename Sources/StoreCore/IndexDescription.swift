/// A declared index over one or more attributes of an entity.
///
/// ```swift
/// IndexDescription(["username"], unique: true)
/// IndexDescription(["createdAt", "score"])      // compound
/// ```
public struct IndexDescription: Sendable, Hashable {
    public var attributes: [String]
    public var isUnique: Bool

    public init(_ attributes: [String], unique: Bool = false) {
        self.attributes = attributes
        self.isUnique = unique
    }

    /// A stable name derived from the entity and attributes.
    public func name(in entity: String) -> String {
        "idx_\(entity)_\(attributes.joined(separator: "_"))"
    }
}
