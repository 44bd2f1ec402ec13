// Operators that build predicates from key paths and values:
//
//     "age" >= 18 && "country" == "JP"
//     ("title" ~= .contains("swift", [.caseInsensitive])) || !("draft" == true)
//     .any("tags.name", .equal("swift"), [.caseInsensitive])

public func == (lhs: KeyPathExpression, rhs: Value) -> StorePredicate { .condition(Condition(lhs, .equal(rhs))) }
public func != (lhs: KeyPathExpression, rhs: Value) -> StorePredicate { .condition(Condition(lhs, .notEqual(rhs))) }
public func < (lhs: KeyPathExpression, rhs: Value) -> StorePredicate { .condition(Condition(lhs, .less(rhs))) }
public func <= (lhs: KeyPathExpression, rhs: Value) -> StorePredicate { .condition(Condition(lhs, .lessOrEqual(rhs))) }
public func > (lhs: KeyPathExpression, rhs: Value) -> StorePredicate { .condition(Condition(lhs, .greater(rhs))) }
public func >= (lhs: KeyPathExpression, rhs: Value) -> StorePredicate { .condition(Condition(lhs, .greaterOrEqual(rhs))) }

public func && (lhs: StorePredicate, rhs: StorePredicate) -> StorePredicate { .and([lhs, rhs]) }
public func || (lhs: StorePredicate, rhs: StorePredicate) -> StorePredicate { .or([lhs, rhs]) }
public prefix func ! (p: StorePredicate) -> StorePredicate { .not(p) }

/// A text or set comparison with options: `"name" ~= .contains("ann", [.caseInsensitive])`.
public struct ComparisonWithOptions: Sendable {
    public var comparison: Comparison
    public var options: StringOptions
    public static func contains(_ s: String, _ o: StringOptions = []) -> Self { .init(comparison: .contains(s), options: o) }
    public static func beginsWith(_ s: String, _ o: StringOptions = []) -> Self { .init(comparison: .beginsWith(s), options: o) }
    public static func endsWith(_ s: String, _ o: StringOptions = []) -> Self { .init(comparison: .endsWith(s), options: o) }
    public static func like(_ s: String, _ o: StringOptions = []) -> Self { .init(comparison: .like(s), options: o) }
    public static func equal(_ v: Value, _ o: StringOptions = []) -> Self { .init(comparison: .equal(v), options: o) }
    public static func between(_ a: Value, _ b: Value) -> Self { .init(comparison: .between(a, b), options: []) }
    public static func `in`(_ vs: [Value], _ o: StringOptions = []) -> Self { .init(comparison: .in(vs), options: o) }
}

public func ~= (lhs: KeyPathExpression, rhs: ComparisonWithOptions) -> StorePredicate {
    .condition(Condition(lhs, rhs.comparison, options: rhs.options))
}

extension StorePredicate {
    /// Always true (matches every record).
    public static let all = StorePredicate.constant(true)

    /// `ANY path op value`: true when some record across the to-many step matches.
    public static func any(_ path: KeyPathExpression, _ c: Comparison, _ o: StringOptions = []) -> StorePredicate {
        .condition(Condition(path, c, options: o, quantifier: .any))
    }

    /// `NONE path op value`: true when no record across the to-many step matches.
    public static func none(_ path: KeyPathExpression, _ c: Comparison, _ o: StringOptions = []) -> StorePredicate {
        .condition(Condition(path, c, options: o, quantifier: .none))
    }
}
