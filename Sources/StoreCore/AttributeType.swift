/// The type of an attribute's values.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case int64, double, bool, string, date, uuid, bytes

    /// Whether an attribute of this type may be a primary key.
    public var canBePrimaryKey: Bool { self == .int64 || self == .uuid || self == .string }
}
