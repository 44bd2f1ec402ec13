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
        /// Each element of a list attribute of the last entity (quantified by `ANY`/`NONE`).
        case elements(Entity, ordinal: Int, type: AttributeType)
        /// `@count` of a list or map attribute of the last entity (0 for nil).
        case elementCount(Entity, ordinal: Int)
        /// The value under `key` in a map attribute of the last entity (nil when absent).
        case mapValue(Entity, ordinal: Int, key: String, type: AttributeType)
    }
    public let steps: [PathStep]
    public let terminal: Terminal
    /// The index in `steps` of the to-many relationship, if the path crosses one.
    public let toManyStep: Int?

    /// The attribute type at the end (an element's type for a collection), or `int64` for `@count`.
    public var valueType: AttributeType {
        switch terminal {
        case .attribute(_, _, let t), .elements(_, _, let t), .mapValue(_, _, _, let t): t
        case .count, .elementCount: .int64
        }
    }

    /// Whether the path ends inside a list or map (its elements, count or a key's value).
    public var isCollection: Bool {
        switch terminal {
        case .elements, .elementCount, .mapValue: true
        case .attribute, .count: false
        }
    }

    /// Whether the path ends in a list's elements, which `ANY`/`NONE` quantify.
    public var isElements: Bool { if case .elements = terminal { true } else { false } }
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

extension ResolvedCondition {
    /// The same condition read from the end of its first relationship step: on the step's
    /// destination, quantified as a single value. What a backend asks of the records on the
    /// other side when it answers `author.username == x` or `ANY tags.name == x` from there.
    package func fromFirstStep() -> ResolvedCondition? {
        guard !path.steps.isEmpty else { return nil }
        let rest = Array(path.steps.dropFirst())
        let toMany = path.toManyStep.flatMap { $0 == 0 ? nil : $0 - 1 }
        return ResolvedCondition(path: ResolvedPath(steps: rest, terminal: path.terminal, toManyStep: toMany),
                                 comparison: comparison, options: options, quantifier: toMany == nil ? .single : quantifier)
    }
}

extension ResolvedQuery {
    /// A query of `entity` for the records matching `predicate`, unsorted and unlimited.
    package init(_ entity: Entity, matching predicate: ResolvedPredicate) {
        self.init(entity: entity, predicate: predicate, sort: [], limit: nil, offset: 0)
    }
}
