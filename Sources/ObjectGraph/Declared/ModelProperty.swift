import StoreCore

/// How an attribute is declared: `@Attribute(.unique)`, `@Attribute(.primaryKey, .indexed)`.
public enum AttributeOption: Sendable, Hashable {
    /// A unique index over the attribute (a duplicate fails the save with `conflict`).
    case unique
    /// The primary key (otherwise the property named `id`).
    case primaryKey
    /// A non-unique index over the attribute.
    case indexed
}

/// How a relationship is declared: `@Relationship(.ordered, inverse: \Track.album)`.
public enum RelationshipOption: Sendable, Hashable {
    /// An ordered to-many: the array keeps the order it is given (Realm's `List`).
    case ordered
}

/// One stored property of a declared model, as the `@Model` macro describes it: what the
/// schema is derived from and how an unmanaged instance's values are read at insert.
public struct ModelProperty {
    public enum Kind {
        case attribute(AttributeType, optional: Bool, default: Value?, options: Set<AttributeOption>)
        case relationship(destination: any PersistentModel.Type, toMany: Bool, inverse: String?, deleteRule: DeleteRule)
    }

    public let name: String
    public let kind: Kind
    /// An ordered to-many (`@Relationship(.ordered, ...)`).
    public private(set) var isOrdered = false
    /// An attribute's value held by an unmanaged instance.
    let read: (AnyObject) -> Value
    /// A relationship's models held by an unmanaged instance, and how to let go of them.
    let unmanagedTargets: (AnyObject) -> [any PersistentModel]
    let clearUnmanaged: (AnyObject) -> Void

    var isRelationship: Bool { if case .relationship = kind { true } else { false } }

    /// An attribute (written by the macro).
    public static func property<M: PersistentModel, T: PersistentValue>(
        _ name: String, _ path: ReferenceWritableKeyPath<M, T>, storage: ReferenceWritableKeyPath<M, T>,
        options: [AttributeOption] = [], default value: T? = nil
    ) -> ModelProperty {
        ModelProperty(name: name, kind: .attribute(T.attributeType, optional: T.isOptional, default: value?.storeValue, options: Set(options)),
                      read: { ($0 as! M)[keyPath: storage].storeValue }, unmanagedTargets: { _ in [] }, clearUnmanaged: { _ in })
    }

    /// A to-many relationship (written by the macro).
    public static func property<M: PersistentModel, D: PersistentModel>(
        _ name: String, _ path: ReferenceWritableKeyPath<M, [D]>, storage: ReferenceWritableKeyPath<M, [D]>,
        inverse: String? = nil, deleteRule: DeleteRule = .nullify, ordered: Bool = false
    ) -> ModelProperty {
        var p = ModelProperty(name: name, kind: .relationship(destination: D.self, toMany: true, inverse: inverse, deleteRule: deleteRule),
                              read: { _ in .null }, unmanagedTargets: { ($0 as! M)[keyPath: storage] },
                              clearUnmanaged: { ($0 as! M)[keyPath: storage] = [] })
        p.isOrdered = ordered
        return p
    }

    /// A to-one relationship (written by the macro).
    public static func property<M: PersistentModel, D: PersistentModel>(
        _ name: String, _ path: ReferenceWritableKeyPath<M, D?>, storage: ReferenceWritableKeyPath<M, D?>,
        inverse: String? = nil, deleteRule: DeleteRule = .nullify, ordered: Bool = false
    ) -> ModelProperty {
        var p = ModelProperty(name: name, kind: .relationship(destination: D.self, toMany: false, inverse: inverse, deleteRule: deleteRule),
                              read: { _ in .null }, unmanagedTargets: { ($0 as! M)[keyPath: storage].map { [$0] } ?? [] },
                              clearUnmanaged: { ($0 as! M)[keyPath: storage] = nil })
        p.isOrdered = ordered   // refused by the schema: only a to-many can be ordered
        return p
    }
}
