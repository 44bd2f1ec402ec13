/// String comparison options: `[c]` case-insensitive, `[d]` diacritic-insensitive.
/// Both use StoreCore's `TextFolding`, so every backend agrees (`"Café" CONTAINS[cd] "CAFE"`).
public struct StringOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// `[c]`, `[d]`, `[cd]` or the empty string.
    public var suffix: String {
        isEmpty ? "" : "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

/// How a key path through a to-many relationship is quantified.
public enum Quantifier: String, Sendable, Hashable {
    /// The path crosses no to-many relationship.
    case single
    /// True when at least one related record matches (`ANY`).
    case any
    /// True when no related record matches (`NONE`).
    case none
}

/// A comparison operator with its operand(s).
public enum Comparison: Sendable, Hashable {
    case equal(Value)
    case notEqual(Value)
    case less(Value)
    case lessOrEqual(Value)
    case greater(Value)
    case greaterOrEqual(Value)
    /// Inclusive on both ends.
    case between(Value, Value)
    case `in`([Value])
    case contains(String)
    case beginsWith(String)
    case endsWith(String)
    /// `?` matches one character, `*` any run of characters (NSPredicate's LIKE).
    case like(String)

    /// The operator as written in a predicate string.
    public var symbol: String {
        switch self {
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        case .between: "BETWEEN"
        case .in: "IN"
        case .contains: "CONTAINS"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .like: "LIKE"
        }
    }

    /// The operand values, in order.
    public var operands: [Value] {
        switch self {
        case .equal(let v), .notEqual(let v), .less(let v), .lessOrEqual(let v), .greater(let v), .greaterOrEqual(let v): [v]
        case .between(let a, let b): [a, b]
        case .in(let vs): vs
        case .contains(let s), .beginsWith(let s), .endsWith(let s), .like(let s): [.string(s)]
        }
    }

    /// Whether this is one of the text operators (`CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`).
    public var isTextOperator: Bool {
        switch self {
        case .contains, .beginsWith, .endsWith, .like: true
        default: false
        }
    }
}

/// A condition on one key path.
public struct Condition: Sendable, Hashable {
    public var keyPath: KeyPathExpression
    public var comparison: Comparison
    public var options: StringOptions
    public var quantifier: Quantifier

    public init(_ keyPath: KeyPathExpression, _ comparison: Comparison, options: StringOptions = [],
                quantifier: Quantifier = .single) {
        self.keyPath = keyPath
        self.comparison = comparison
        self.options = options
        self.quantifier = quantifier
    }
}

/// A predicate tree. Build it with the operators in `StorePredicate+Building.swift` or parse a
/// string with `StorePredicate(format:_:)`; both give the same tree.
///
/// ```swift
/// let p: StorePredicate = "age" > 30 && ("name" ~= .contains("ann", [.caseInsensitive]))
/// let q = try StorePredicate(format: "age > %@ AND name CONTAINS[c] %@", 30, "ann")
/// ```
public indirect enum StorePredicate: Sendable, Hashable {
    case constant(Bool)
    case condition(Condition)
    case and([StorePredicate])
    case or([StorePredicate])
    case not(StorePredicate)
}
