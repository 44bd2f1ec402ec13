/// The type of an attribute's values.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case int64, double, bool, string, date, uuid, bytes

    /// Whether an attribute of this type may be a primary key.
    public var canBePrimaryKey: Bool { self == .int64 || self == .uuid || self == .string }

    /// Whether a value of exactly this type is stored as given, with no check (no NaN, size or
    /// key-length limit applies): what `Entity.convertedRecord` skips.
    var isStoredAsGiven: Bool {
        switch self {
        case .int64, .bool, .date, .uuid: true
        case .double, .string, .bytes: false
        }
    }
}
