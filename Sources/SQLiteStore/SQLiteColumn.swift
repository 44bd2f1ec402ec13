import CSQLite
import Foundation
import StoreCore

/// Decoding of result columns into values by attribute type. Internal helpers.
enum SQLiteColumn {
    @inline(__always)
    static func isNull(_ s: OpaquePointer, _ i: Int32) -> Bool { sqlite3_column_type(s, i) == SQLITE_NULL }

    @inline(__always)
    static func string(_ s: OpaquePointer, _ i: Int32) -> String? {
        guard let p = sqlite3_column_text(s, i) else { return nil }
        let n = Int(sqlite3_column_bytes(s, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    @inline(__always)
    static func bytes(_ s: OpaquePointer, _ i: Int32) -> [UInt8]? {
        if isNull(s, i) { return nil }
        let n = Int(sqlite3_column_bytes(s, i))
        guard n > 0, let p = sqlite3_column_blob(s, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }

    @inline(__always)
    static func value(_ s: OpaquePointer, _ i: Int32, _ type: AttributeType) -> Value {
        if isNull(s, i) { return .null }
        switch type {
        case .int64: return .int64(sqlite3_column_int64(s, i))
        case .double: return .double(sqlite3_column_double(s, i))
        case .bool: return .bool(sqlite3_column_int64(s, i) != 0)
        case .string: return .string(string(s, i) ?? "")
        case .date: return .date(Date(timeIntervalSince1970: sqlite3_column_double(s, i)))
        case .uuid: return bytes(s, i).flatMap { UUID(bytes: $0) }.map(Value.uuid) ?? .null
        case .bytes: return .bytes(bytes(s, i) ?? [])
        }
    }
}

/// A borrowed view of the current row of a statement whose columns are an entity's
/// attributes in order. Valid until the statement steps again.
///
/// A two-word struct: boxed once per statement run as `any RowView`, without a heap allocation.
struct SQLiteRow: RowView {
    let entity: Entity
    let statement: OpaquePointer

    @inline(__always)
    private var types: [AttributeType] { entity.attributeTypes }

    subscript(_ ordinal: Int) -> Value {
        entity.decodedCollection(SQLiteColumn.value(statement, Int32(ordinal), types[ordinal]), at: ordinal)
    }

    // NULL reads as 0, so the column's type is asked only for a 0: one C call per value
    // in the common case instead of two.
    func int64(at i: Int) -> Int64? {
        guard types[i] == .int64 else { return nil }
        let v = sqlite3_column_int64(statement, Int32(i))
        return v == 0 && SQLiteColumn.isNull(statement, Int32(i)) ? nil : v
    }
    func double(at i: Int) -> Double? {
        let v: Double
        switch types[i] {
        case .double: v = sqlite3_column_double(statement, Int32(i))
        case .int64: v = Double(sqlite3_column_int64(statement, Int32(i)))
        default: return nil
        }
        return v == 0 && SQLiteColumn.isNull(statement, Int32(i)) ? nil : v
    }
    func string(at i: Int) -> String? { types[i] == .string ? SQLiteColumn.string(statement, Int32(i)) : nil }
    /// Text and blobs straight from SQLite's buffer, without a `String` in between.
    func withRawBytes<R>(at i: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        let c = Int32(i)
        let p: UnsafeRawPointer?
        switch types[i] {
        case .string: p = sqlite3_column_text(statement, c).map { UnsafeRawPointer($0) }
        case .bytes: p = SQLiteColumn.isNull(statement, c) ? nil : sqlite3_column_blob(statement, c) ?? UnsafeRawPointer(bitPattern: 8)
        default: return try body(nil)
        }
        guard let p else { return try body(nil) }
        return try body(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, c))))
    }
    func bool(at i: Int) -> Bool? {
        SQLiteColumn.isNull(statement, Int32(i)) || types[i] != .bool ? nil : sqlite3_column_int64(statement, Int32(i)) != 0
    }
}
