/// What happens to the destination records when a source record is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// The link is removed; the destination stays. The default.
    case nullify
    /// The destination records are deleted too (their own rules apply in turn).
    case cascade
    /// The delete fails with `constraintViolation` while any destination exists.
    case deny
}

/// A relationship from one entity to another. Every relationship names its inverse, and
/// the store keeps both sides consistent.
///
/// One-to-many is a to-many whose inverse is to-one; many-to-many is a to-many whose inverse
/// is to-many; one-to-one is a to-one whose inverse is to-one.
///
/// ```swift
/// Relationship("posts", to: "Post", inverse: "author", .toMany, deleteRule: .cascade)
/// Relationship("author", to: "User", inverse: "posts", .toOne)
/// ```
public struct Relationship: Sendable, Hashable {
    public enum Cardinality: String, Sendable, Hashable, Codable { case toOne, toMany }

    public var name: String
    public var destination: String
    public var inverse: String
    public var cardinality: Cardinality
    public var deleteRule: DeleteRule
    /// A to-many that keeps the order its links were given in (Realm's `List`, Core Data's
    /// ordered to-many); see `Relationship+Ordered.swift`. Its inverse keeps its own shape.
    public var isOrdered: Bool

    public init(_ name: String, to destination: String, inverse: String, _ cardinality: Cardinality,
                ordered: Bool = false, deleteRule: DeleteRule = .nullify) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.cardinality = cardinality
        self.isOrdered = ordered
        self.deleteRule = deleteRule
    }

    public var isToMany: Bool { cardinality == .toMany }
}
