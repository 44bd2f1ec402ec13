/// Size limits every backend enforces, so a value accepted by one is accepted by all.
public enum Limits {
    /// The largest string or bytes value, in bytes.
    public static let maxValueBytes = 16 << 20
    /// The largest string primary key, in UTF-8 bytes (LMDB keys are limited to 511 bytes).
    public static let maxKeyBytes = 256
    /// The most values one `IN` list may hold.
    public static let maxListCount = 10_000
    /// The deepest nesting of `AND`/`OR`/`NOT` a predicate may have (parsed or built).
    public static let maxPredicateDepth = 64
}
