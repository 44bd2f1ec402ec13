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
    /// The UTF-8 bytes of a string attribute or the bytes of a bytes attribute, borrowed for
    /// the call of `body`; nil for null or another type. The default goes through
    /// `string(at:)`/`bytes(at:)`; a row that holds the bytes hands them over without making a
    /// `String` (what `PackedRowBuilder` copies).
    func withRawBytes<R>(at ordinal: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R
}

extension RowView {
    public func int64(at i: Int) -> Int64? { self[i].int64Value }
    public func double(at i: Int) -> Double? { self[i].doubleValue }
    public func bool(at i: Int) -> Bool? { self[i].boolValue }
    public func string(at i: Int) -> String? { self[i].stringValue }
    public func date(at i: Int) -> Date? { self[i].dateValue }
    public func uuid(at i: Int) -> UUID? { self[i].uuidValue }
    public func bytes(at i: Int) -> [UInt8]? { self[i].bytesValue }
    public func withRawBytes<R>(at i: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        switch self[i] {
        case .string(var s): return try s.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .bytes(let b): return try b.withUnsafeBytes { try body($0) }
        case let c where c.listValue != nil || c.mapValue != nil:
            guard var text = CollectionCoding.encode(c, of: entity.attributes[i].type) else { return try body(nil) }
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        default: return try body(nil)
        }
    }

    /// The value of a named attribute (a dictionary look-up; prefer ordinals on hot paths).
    public subscript(_ name: String) -> Value {
        guard let i = entity.ordinal(of: name) else { return .null }
        return self[i]
    }

    /// The primary key's value.
    public var id: Value { self[entity.primaryKeyOrdinal] }
}
