import Foundation
import GRDB
import StoreCore

/// A borrowed view of a GRDB cursor's current row whose columns are an entity's attributes
/// in order. Valid until the cursor moves. Internal.
///
/// Columns are read as the attribute's Swift type (`row[i] as Int64`, `String`, `Double`,
/// `Data`), GRDB's typed access: those types adopt `StatementColumnConvertible` and read the
/// SQLite column directly. Reading a `DatabaseValue` first went through GRDB's unspecialized
/// generic decoding, about 1.2k instructions a column.
final class GRDBRow: RowView {
    let entity: Entity
    var row: Row!
    private let types: [AttributeType]

    init(entity: Entity) {
        self.entity = entity
        self.types = entity.attributes.map(\.type)
    }

    subscript(_ ordinal: Int) -> Value {
        if row.hasNull(atIndex: ordinal) { return .null }
        switch types[ordinal] {
        case .int64: return .int64(row[ordinal])
        case .double: return .double(row[ordinal])
        case .bool: return .bool(row[ordinal])
        case .string: return .string(row[ordinal])
        case .date: return .date(Date(timeIntervalSince1970: row[ordinal]))
        case .uuid: return UUID(bytes: row[ordinal] as Data).map(Value.uuid) ?? .null
        case .bytes: return .bytes([UInt8](row[ordinal] as Data))
        }
    }

    func int64(at i: Int) -> Int64? {
        types[i] != .int64 || row.hasNull(atIndex: i) ? nil : row[i] as Int64
    }

    func double(at i: Int) -> Double? {
        switch types[i] {
        case .double, .int64: row.hasNull(atIndex: i) ? nil : row[i] as Double
        default: nil
        }
    }

    func string(at i: Int) -> String? {
        types[i] != .string || row.hasNull(atIndex: i) ? nil : row[i] as String
    }

    func bool(at i: Int) -> Bool? {
        types[i] != .bool || row.hasNull(atIndex: i) ? nil : row[i] as Bool
    }
}

// MARK: - Value ⇄ DatabaseValue (internal helpers)

extension Value {
    /// The stored form, as the Swift value GRDB binds: the same column values SQLiteStore
    /// writes (dates as seconds since 1970, UUIDs as 16-byte blobs, booleans as 0 and 1).
    var databaseConvertible: (any DatabaseValueConvertible)? {
        switch self {
        case .null: nil
        case .int64(let n): n
        case .double(let d): d
        case .bool(let b): b ? 1 : 0 as Int64
        case .string(let s): s
        case .date(let d): d.timeIntervalSince1970
        case .uuid(let u): Data(u.bytes)
        case .bytes(let b): Data(b)
        }
    }

    /// Decodes a column value of an attribute of type `type`.
    init(_ v: DatabaseValue, as type: AttributeType) {
        switch (v.storage, type) {
        case (.null, _): self = .null
        case (.int64(let n), .int64): self = .int64(n)
        case (.int64(let n), .bool): self = .bool(n != 0)
        case (.int64(let n), .double): self = .double(Double(n))
        case (.int64(let n), .date): self = .date(Date(timeIntervalSince1970: Double(n)))
        case (.double(let d), .double): self = .double(d)
        case (.double(let d), .date): self = .date(Date(timeIntervalSince1970: d))
        case (.string(let s), .string): self = .string(s)
        case (.blob(let d), .uuid): self = UUID(bytes: d).map(Value.uuid) ?? .null
        case (.blob(let d), .bytes): self = .bytes([UInt8](d))
        default: self = .null
        }
    }
}
