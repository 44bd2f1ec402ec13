/// A typed attribute of an entity.
///
/// ```swift
/// Attribute("username", .string)
/// Attribute("bio", .string, optional: true)
/// Attribute("score", .int64, default: 0)
/// Attribute("tags", .string, collection: .list)       // an ordered list of strings
/// Attribute("prices", .double, collection: .map)      // [String: Double]
/// ```
public struct Attribute: Sendable, Hashable {
    public var name: String
    /// The type of the value, or of each element of a collection.
    public var type: AttributeType
    /// Whether the attribute may hold `nil`.
    public var isOptional: Bool
    /// The value a new record takes when none is given (see `Entity.record(_:)`). A collection
    /// defaults to an empty one.
    public var defaultValue: Value?
    /// `nil` for one value; `.list` or `.map` for a collection of `type` values.
    public var collection: AttributeCollection?

    public init(_ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value? = nil,
                collection: AttributeCollection? = nil) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.collection = collection
        self.defaultValue = defaultValue ?? (optional ? nil : collection?.empty)
    }

    /// The type a backend stores: the attribute's own type, or `string` (the collection's
    /// encoding, see `CollectionCoding`) for a collection.
    public var storageType: AttributeType { collection == nil ? type : .string }

    /// How the attribute's type is written in messages and fingerprints: `string`,
    /// `string[]` (a list), `string{}` (a map).
    public var typeName: String { type.rawValue + (collection?.suffix ?? "") }
}

/// The collection an attribute holds: Realm's `List<T>` or `Map<String, T>` of primitives.
public enum AttributeCollection: String, Sendable, Hashable, CaseIterable, Codable {
    /// An ordered list of values (`Value.list`); duplicates allowed, no `nil` elements.
    case list
    /// String keys to values (`Value.map`); no `nil` values.
    case map

    /// An empty collection of this kind.
    public var empty: Value { self == .list ? .list([]) : .map([:]) }

    /// `[]` or `{}`, as in `Attribute.typeName`.
    public var suffix: String { self == .list ? "[]" : "{}" }
}
