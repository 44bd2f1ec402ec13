/// One relationship crossed by a key path.
public struct PathStep: Sendable {
    public let source: Entity
    public let relationship: Relationship
    public let destination: Entity
    /// The inverse relationship, on `destination`.
    public let inverse: Relationship
}

/// A key path checked against the schema.
public struct ResolvedPath: Sendable {
    public enum Terminal: Sendable {
        /// An attribute of the last entity, by ordinal.
        case attribute(Entity, ordinal: Int, type: AttributeType)
        /// `@count` of the last (to-many) step.
        case count
    }
    public let steps: [PathStep]
    public let terminal: Terminal
    /// The index in `steps` of the to-many relationship, if the path crosses one.
    public let toManyStep: Int?

    /// The attribute type at the end, or `int64` for `@count`.
    public var valueType: AttributeType {
        if case .attribute(_, _, let t) = terminal { return t }
        return .int64
    }
}

/// A condition whose operands are in stored form and, for string options, already folded.
public struct ResolvedCondition: Sendable {
    public let path: ResolvedPath
    public let comparison: Comparison
    public let options: StringOptions
    public let quantifier: Quantifier
}

public indirect enum ResolvedPredicate: Sendable {
    case constant(Bool)
    case condition(ResolvedCondition)
    case and([ResolvedPredicate])
    case or([ResolvedPredicate])
    case not(ResolvedPredicate)
}

public struct ResolvedSortKey: Sendable {
    public let path: ResolvedPath
    public let ascending: Bool
    public let options: StringOptions
}

/// A query checked against the schema: what backends translate or evaluate. Produced by
/// `Schema.resolve(_:)`, which is where every backend gets the same `invalidQuery` errors.
public struct ResolvedQuery: Sendable {
    public let entity: Entity
    public let predicate: ResolvedPredicate
    public let sort: [ResolvedSortKey]
    public let limit: Int?
    public let offset: Int
}
