import Foundation
import StoreCore

/// A Swift type a declared model (`@Model`) stores as an attribute: Int, Int64, Int32, Double,
/// Float, Bool, String, Date, UUID, Data, [UInt8], optionals of these and raw-value enums
/// (`PersistentEnum`).
public protocol PersistentValue {
    /// The attribute type the value is stored as.
    static var attributeType: AttributeType { get }
    /// Whether the attribute may hold nil (true for optionals only).
    static var isOptional: Bool { get }
    /// What a model's cache holds before its first read (zero, empty, nil, the first case).
    static var placeholder: Self { get }
    /// The value from its stored form; nil when the stored value does not fit this type.
    init?(storeValue: Value)
    /// The stored form.
    var storeValue: Value { get }
}

extension PersistentValue {
    public static var isOptional: Bool { false }
}

/// Integers are stored as `int64`; a stored value out of the type's range does not fit.
extension PersistentValue where Self: FixedWidthInteger {
    public static var attributeType: AttributeType { .int64 }
    public static var placeholder: Self { 0 }
    @inlinable public init?(storeValue: Value) {
        guard let v = storeValue.int64Value.flatMap(Self.init(exactly:)) else { return nil }
        self = v
    }
    @inlinable public var storeValue: Value { .int64(Int64(self)) }
}

extension Int64: PersistentValue {}
extension Int: PersistentValue {}
extension Int32: PersistentValue {}

/// Floating-point numbers are stored as `double`.
extension PersistentValue where Self: BinaryFloatingPoint {
    public static var attributeType: AttributeType { .double }
    public static var placeholder: Self { 0 }
    @inlinable public init?(storeValue: Value) {
        guard let v = storeValue.doubleValue else { return nil }
        self = Self(v)
    }
    @inlinable public var storeValue: Value { .double(Double(self)) }
}

extension Double: PersistentValue {}
extension Float: PersistentValue {}

extension Bool: PersistentValue {
    public static var attributeType: AttributeType { .bool }
    public static var placeholder: Bool { false }
    @inlinable public init?(storeValue: Value) { guard let v = storeValue.boolValue else { return nil }; self = v }
    @inlinable public var storeValue: Value { .bool(self) }
}

extension String: PersistentValue {
    public static var attributeType: AttributeType { .string }
    public static var placeholder: String { "" }
    @inlinable public init?(storeValue: Value) { guard let v = storeValue.stringValue else { return nil }; self = v }
    @inlinable public var storeValue: Value { .string(self) }
}

extension Date: PersistentValue {
    public static var attributeType: AttributeType { .date }
    public static var placeholder: Date { Date(timeIntervalSince1970: 0) }
    @inlinable public init?(storeValue: Value) { guard let v = storeValue.dateValue else { return nil }; self = v }
    @inlinable public var storeValue: Value { .date(self) }
}

extension UUID: PersistentValue {
    public static var attributeType: AttributeType { .uuid }
    public static var placeholder: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    @inlinable public init?(storeValue: Value) { guard let v = storeValue.uuidValue else { return nil }; self = v }
    @inlinable public var storeValue: Value { .uuid(self) }
}

extension Data: PersistentValue {
    public static var attributeType: AttributeType { .bytes }
    public static var placeholder: Data { Data() }
    @inlinable public init?(storeValue: Value) { guard let v = storeValue.bytesValue else { return nil }; self = Data(v) }
    @inlinable public var storeValue: Value { .bytes([UInt8](self)) }
}

extension Array: PersistentValue where Element == UInt8 {
    public static var attributeType: AttributeType { .bytes }
    public static var placeholder: [UInt8] { [] }
    @inlinable public init?(storeValue: Value) { guard let v = storeValue.bytesValue else { return nil }; self = v }
    @inlinable public var storeValue: Value { .bytes(self) }
}

extension Optional: PersistentValue where Wrapped: PersistentValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptional: Bool { true }
    public static var placeholder: Wrapped? { nil }
    @inlinable public init?(storeValue: Value) {
        if storeValue.isNull {
            self = .none
            return
        }
        guard let w = Wrapped(storeValue: storeValue) else { return nil }
        self = .some(w)
    }
    @inlinable public var storeValue: Value { self?.storeValue ?? .null }
}
