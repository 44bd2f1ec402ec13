import Foundation

/// An argument substituted for `%@` (a value, or a list for `IN`/`BETWEEN`) or `%K` (a key
/// path given as a string) in a predicate string.
///
/// ```swift
/// try StorePredicate(format: "age BETWEEN %@ AND name IN %@", [18, 65], ["ann", "bob"])
/// ```
public enum PredicateArgument: Sendable, Hashable {
    case value(Value)
    /// A list for `IN` or `BETWEEN`: `.list(ids.map(Value.int64))`.
    case list([Value])
}

extension PredicateArgument: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
    public init(nilLiteral: ()) { self = .value(.null) }
    public init(integerLiteral v: Int64) { self = .value(.int64(v)) }
    public init(floatLiteral v: Double) { self = .value(.double(v)) }
    public init(booleanLiteral v: Bool) { self = .value(.bool(v)) }
    public init(stringLiteral v: String) { self = .value(.string(v)) }
    public init(arrayLiteral elements: Value...) { self = .list(elements) }

}

extension PredicateArgument {
    /// A value held in a variable (literals convert by themselves):
    /// `StorePredicate(format: "username == %@ AND age >= %@", .string(name), .int(minimum))`.
    public static func string(_ s: String) -> PredicateArgument { .value(.string(s)) }
    public static func int(_ i: Int) -> PredicateArgument { .value(.int64(Int64(i))) }
    public static func int64(_ i: Int64) -> PredicateArgument { .value(.int64(i)) }
    public static func double(_ d: Double) -> PredicateArgument { .value(.double(d)) }
    public static func bool(_ b: Bool) -> PredicateArgument { .value(.bool(b)) }
    public static func bytes(_ b: [UInt8]) -> PredicateArgument { .value(.bytes(b)) }
    public static func date(_ d: Date) -> PredicateArgument { .value(.date(d)) }
    public static func uuid(_ u: UUID) -> PredicateArgument { .value(.uuid(u)) }
}
