import Foundation

/// An argument substituted for `%@` (a value, or a list for `IN`/`BETWEEN`) or `%K` (a key
/// path given as a string) in a predicate string.
///
/// ```swift
/// try StorePredicate(format: "age BETWEEN %@ AND name IN %@", [18, 65], ["ann", "bob"])
/// ```
public enum PredicateArgument: Sendable, Hashable {
    case value(Value)
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

    public static func date(_ d: Date) -> PredicateArgument { .value(.date(d)) }
    public static func uuid(_ u: UUID) -> PredicateArgument { .value(.uuid(u)) }
}
