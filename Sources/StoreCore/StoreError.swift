/// The one error type of every backend. `category` is what callers branch on; the native
/// code and message, and the SQL or key involved, are kept for diagnosis.
///
/// ```swift
/// do { try repo.write { try $0.insert(user) } }
/// catch let e as StoreError where e.category == .conflict { … }
/// ```
public struct StoreError: Error, Sendable, Hashable {
    public enum Category: String, Sendable, Hashable, CaseIterable, Codable {
        /// The record to update, delete or link does not exist.
        case notFound
        /// A primary key or unique index value already exists.
        case conflict
        /// A required value is missing or a delete rule (`deny`) forbids the change.
        case constraintViolation
        /// A value of the wrong type, NaN, an oversized value or key, an unknown attribute.
        case invalidValue
        /// A query or predicate string that cannot run: parse errors carry `position`.
        case invalidQuery
        /// The schema's declarations are inconsistent.
        case invalidSchema
        /// The store was written with another schema version (or schema).
        case schemaMismatch
        /// The disk or the store's size limit is full.
        case storageFull
        /// The file is not a store of this kind, or is damaged.
        case corrupted
        /// The store is locked by another connection or process.
        case busy
        /// The store or transaction was used after it was closed.
        case closed
        /// Reading or writing the file failed.
        case io
        /// The backend does not support the feature (see `Capabilities`).
        case unsupported
        /// A write to a store opened read-only (`StoreOptions.readOnly`).
        case readOnly
    }

    public var category: Category
    public var message: String
    /// The engine's own result code (e.g. SQLite's extended result code, an `MDB_*` code).
    public var nativeCode: Int32?
    /// The engine's own message.
    public var nativeMessage: String?
    /// The SQL statement, key or predicate string involved.
    public var context: String?
    /// For predicate parse errors: the 0-based character offset of the problem.
    public var position: Int?

    public init(_ category: Category, _ message: String, nativeCode: Int32? = nil, nativeMessage: String? = nil,
                context: String? = nil, position: Int? = nil) {
        self.category = category
        self.message = message
        self.nativeCode = nativeCode
        self.nativeMessage = nativeMessage
        self.context = context
        self.position = position
    }
}

extension StoreError {
    /// The error of a write to a store opened read-only (`StoreOptions.readOnly`) at `path`.
    public static func refusedWrite(to path: String) -> StoreError {
        StoreError(.readOnly, "\(path) was opened read-only (StoreOptions.readOnly): writes are refused; open it without readOnly to write")
    }
}

extension StoreError: CustomStringConvertible {
    public var description: String {
        var s = "\(category.rawValue): \(message)"
        if let p = position { s += " (at offset \(p))" }
        if let c = nativeCode { s += " [native \(c)\(nativeMessage.map { ": \($0)" } ?? "")]" }
        if let c = context { s += " in: \(c)" }
        return s
    }
}
