/// A typed attribute of an entity.
///
/// ```swift
/// Attribute("username", .string)
/// Attribute("bio", .string, optional: true)
/// Attribute("score", .int64, default: 0)
/// ```
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    /// Whether the attribute may hold `nil`.
    public var isOptional: Bool
    /// The value a new record takes when none is given (see `Entity.record(_:)`).
    public var defaultValue: Value?

    public init(_ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value? = nil) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
    }
}
