import Foundation

/// Ordinal access to one row's attribute values.
///
/// `Record` is the owned implementation. Backends also hand out *borrowed* row views while
/// streaming (`ReadTransaction.forEach`): such a view reads straight from the engine's
/// buffers and is valid only inside the closure that received it; copy what you keep
/// (`Record(row)`).
///
/// The typed accessors return `nil` for null and for a value of another type.
public protocol RowView {
    var entity: Entity { get }
    /// The value at an attribute ordinal (see `Entity.ordinal(of:)`).
    subscript(_ ordinal: Int) -> Value { get }
    func int64(at ordinal: Int) -> Int64?
    func double(at ordinal: Int) -> Double?
    func bool(at ordinal: Int) -> Bool?
    func string(at ordinal: Int) -> String?
    func date(at ordinal: Int) -> Date?
    func uuid(at ordinal: Int) -> UUID?
    func bytes(at ordinal: Int) -> [UInt8]?
}

extension RowView {
    public func int64(at i: Int) -> Int64? { self[i].int64Value }
    public func double(at i: Int) -> Double? { self[i].doubleValue }
    public func bool(at i: Int) -> Bool? { self[i].boolValue }
    public func string(at i: Int) -> String? { self[i].stringValue }
    public func date(at i: Int) -> Date? { self[i].dateValue }
    public func uuid(at i: Int) -> UUID? { self[i].uuidValue }
    public func bytes(at i: Int) -> [UInt8]? { self[i].bytesValue }

    /// The value of a named attribute (a dictionary look-up; prefer ordinals on hot paths).
    public subscript(_ name: String) -> Value {
        guard let i = entity.ordinal(of: name) else { return .null }
        return self[i]
    }

    /// The primary key's value.
    public var id: Value { self[entity.primaryKeyOrdinal] }
}
