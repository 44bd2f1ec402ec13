import Foundation

/// One stored value: the payload of an attribute or a query argument.
///
/// Dates are stored as seconds since 1970 (a `Double`), UUIDs as 16 bytes, `bytes` as raw bytes.
///
/// ```swift
/// let v: Value = "hello"          // .string
/// let n: Value = 42               // .int64
/// ```
public enum Value: Sendable, Hashable {
    case null
    case int64(Int64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case date(Date)
    case uuid(UUID)
    case bytes([UInt8])
    /// The elements of a list attribute (`Attribute(..., collection: .list)`), in order.
    case list([Value])
    /// The entries of a map attribute (`Attribute(..., collection: .map)`).
    case map([String: Value])

    /// The attribute type this value naturally belongs to, or `nil` for `.null` and collections.
    public var naturalType: AttributeType? {
        switch self {
        case .null: nil
        case .int64: .int64
        case .double: .double
        case .bool: .bool
        case .string: .string
        case .date: .date
        case .uuid: .uuid
        case .bytes: .bytes
        case .list, .map: nil
        }
    }

    public var isNull: Bool { if case .null = self { true } else { false } }

    public var int64Value: Int64? { if case .int64(let v) = self { v } else { nil } }
    public var doubleValue: Double? {
        switch self {
        case .double(let v): v
        case .int64(let v): Double(v)
        default: nil
        }
    }
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    public var dateValue: Date? { if case .date(let v) = self { v } else { nil } }
    public var uuidValue: UUID? { if case .uuid(let v) = self { v } else { nil } }
    public var bytesValue: [UInt8]? { if case .bytes(let v) = self { v } else { nil } }
    public var listValue: [Value]? { if case .list(let v) = self { v } else { nil } }
    public var mapValue: [String: Value]? { if case .map(let v) = self { v } else { nil } }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .int64(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Value: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "nil"
        case .int64(let v): String(v)
        case .double(let v): String(v)
        case .bool(let v): v ? "true" : "false"
        case .string(let v): "\"\(v)\""
        case .date(let v): "date(\(v.timeIntervalSince1970))"
        case .uuid(let v): v.uuidString
        case .bytes(let v): "bytes(\(v.count))"
        case .list(let v): "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .map(let v): "[" + v.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "]"
        }
    }
}

extension Value {
    /// Whether a store holds these as the same value: `==`, except that strings compare by
    /// their scalars, in lists and maps too. Swift's `==` holds canonically equivalent strings
    /// ("é" and "e\u{301}") equal; to a store they are two values (two keys, two unique values,
    /// a change when one replaces the other).
    public func isIdentical(to other: Value) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.list(let a), .list(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.map(let a), .map(let b)): a.count == b.count && a.allSatisfy { k, v in b[k].map { v.isIdentical(to: $0) } ?? false }
        default: self == other
        }
    }
}
