import Foundation
import GRDB
import GRDBSQLite
import StoreCore

/// A borrowed view of a GRDB cursor's current row whose columns are an entity's attributes
/// in order. Valid until the cursor moves. Internal.
///
/// `RowCursor` hands out one `Row` for every step (GRDB reuses it), so one view serves a whole
/// cursor; it is a three-word struct, boxed once per cursor as `any RowView` without a heap
/// allocation. Columns are read as the attribute's optional Swift type (`row[i] as Int64?`,
/// `String?`, `Double?`, `Data?`): GRDB's typed access, which reads the SQLite column directly
/// and asks for its type once (a separate `hasNull` asked twice). `statement` is the cursor's
/// statement, whose current row `row` is: GRDB reads text up to its first NUL byte
/// (`String(cString:)`), so a string holding U+0000 is read again from it with its length.
struct GRDBRow: RowView {
    let entity: Entity
    let row: Row
    let statement: SQLiteStatement

    @inline(__always)
    private var types: [AttributeType] { entity.attributeTypes }

    subscript(_ ordinal: Int) -> Value {
        switch types[ordinal] {
        case .int64: if let v = row[ordinal] as Int64? { return .int64(v) }
        case .double: if let v = row[ordinal] as Double? { return .double(v) }
        case .bool: if let v = row[ordinal] as Bool? { return .bool(v) }
        case .string: if let v = text(ordinal) { return entity.decodedCollection(.string(v), at: ordinal) }
        case .date: if let v = row[ordinal] as Double? { return .date(Date(timeIntervalSince1970: v)) }
        case .uuid: if let v = row[ordinal] as Data?, let u = UUID(bytes: v) { return .uuid(u) }
        case .bytes: if let v = row[ordinal] as Data? { return .bytes([UInt8](v)) }
        }
        return .null
    }

    func int64(at i: Int) -> Int64? { types[i] == .int64 ? row[i] as Int64? : nil }

    func double(at i: Int) -> Double? {
        switch types[i] {
        case .double, .int64: row[i] as Double?
        default: nil
        }
    }

    func string(at i: Int) -> String? { types[i] == .string ? text(i) : nil }

    /// The text of column `i` with every byte, NULs included (one length check when none).
    @inline(__always)
    private func text(_ i: Int) -> String? {
        guard let s = row[i] as String? else { return nil }
        return GRDBText.whole(s, statement, column: i)
    }

    func bool(at i: Int) -> Bool? { types[i] == .bool ? row[i] as Bool? : nil }

    /// Text and blobs as GRDB's own zero-copy `Row.withUnsafeData` reads them (the cursor's
    /// statement, `sqlite3_column_blob` and its length, NULs included), without a `String`.
    func withRawBytes<R>(at i: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        guard types[i] == .string || types[i] == .bytes, sqlite3_column_type(statement, Int32(i)) != SQLITE_NULL else { return try body(nil) }
        let p = sqlite3_column_blob(statement, Int32(i)) ?? UnsafeRawPointer(bitPattern: 8)!
        return try body(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, Int32(i)))))
    }
}

// MARK: - Text with NUL bytes (internal helpers)

/// GRDB binds and reads text as C strings, which end at the first NUL byte; a store keeps every
/// byte of a string. These bind and read such strings with their length. Internal.
enum GRDBText {
    /// `text` as GRDB read it from `column` of `statement`'s current row, or, when SQLite holds
    /// more bytes than that (the text has a NUL), the whole text.
    @inline(__always)
    static func whole(_ text: String, _ statement: SQLiteStatement, column: Int) -> String {
        let n = Int(sqlite3_column_bytes(statement, CInt(column)))
        if n == text.utf8.count { return text }
        return String(decoding: UnsafeBufferPointer(start: sqlite3_column_text(statement, CInt(column)), count: n), as: UTF8.self)
    }

    /// Binds again, with their length, the strings of `values` that hold a NUL byte.
    @inline(__always)
    static func rebindStringsWithNUL(_ values: [Value], on statement: SQLiteStatement) {
        for i in values.indices {
            guard case .string(var s) = values[i] else { continue }
            s.withUTF8 { b in
                guard b.count > 0, memchr(b.baseAddress!, 0, b.count) != nil else { return }
                _ = sqlite3_bind_text(statement, CInt(i + 1), UnsafeRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      CInt(b.count), transient)
            }
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
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
        case .list, .map: CollectionCoding.encode(self)
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
