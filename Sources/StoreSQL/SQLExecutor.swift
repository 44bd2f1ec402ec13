import StoreCore

/// What a SQLite driver provides so that `SQLTransaction` can implement StoreCore's
/// semantics over it: run statements with bound values and hand out result rows.
///
/// A driver (the sqlite3 C API in `SQLiteStore`, GRDB.swift in `GRDBStore`, your own)
/// implements these five calls on one open connection, inside a transaction the driver
/// began. Statements are `SQLStatement`s: the fixed ones of the schema carry a dense `slot`
/// so a driver can keep their prepared statements in an array instead of hashing SQL text.
///
/// ```swift
/// extension MyConnection: SQLExecutor {
///     func execute(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int {
///         let s = try prepared(sql)            // cached by sql.slot, else by sql.text
///         try s.bind(arguments); try s.runToEnd()
///         return changes
///     }
///     …
/// }
/// ```
///
/// The driver must register the SQL functions of `SQLFunctions` on the connection and map its
/// errors to `StoreError` (`SQLResultCode.error` builds one from a result code).
///
/// Threading: an executor is used by one thread at a time, the one running its transaction.
public protocol SQLExecutor: AnyObject {
    /// Runs a statement to its end, ignoring rows; returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int

    /// Runs a statement to its end when nobody needs its change count (inserts): a driver
    /// whose change count costs a call of its own skips it. Defaults to `execute`.
    func run(_ sql: SQLStatement, _ arguments: [Value]) throws

    /// Runs a fixed insert or upsert: `values` bound to ?1…?n and the row's `checksum` to
    /// ?n+1 (`SQLRowChecksum`). The default appends the checksum to a copy of `values`; a
    /// driver binding one value at a time binds it without the copy.
    func run(_ sql: SQLStatement, _ values: [Value], checksum: Int64) throws

    /// The first column of the first row as an integer, or `nil` when there is no row or it is NULL.
    func scalarInt(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int64?

    /// The first column of every row, decoded as `type`.
    func column(_ sql: SQLStatement, _ type: AttributeType, _ arguments: [Value]) throws -> [Value]

    /// Steps through the rows of `sql`, whose columns are `entity`'s attributes in order,
    /// handing each to `body` as a borrowed view (valid during that call only).
    func rows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity,
              _ body: (any RowView) throws -> Void) throws

    /// `rows` with each row packed (`ReadTransaction.forEachPacked`). The default packs the
    /// views of `rows`; a driver with a concrete row type packs through it.
    func packedRows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity,
                    _ body: (PackedRow) throws -> Void) throws

    /// Runs `body` inside a savepoint: on a throw everything it did is undone and the error
    /// rethrown (the first error wins over a failing rollback).
    func atomically<T>(_ body: () throws -> T) throws -> T
}

extension SQLExecutor {
    public func run(_ sql: SQLStatement, _ arguments: [Value]) throws { try execute(sql, arguments) }

    public func run(_ sql: SQLStatement, _ values: [Value], checksum: Int64) throws {
        try run(sql, values + [.int64(checksum)])
    }

    /// Runs a fixed insert or upsert of a record's values in stored form, their checksum
    /// (`SQLRowChecksum`) bound after them.
    public func writeRecord(_ sql: SQLStatement, _ values: [Value]) throws {
        try run(sql, values, checksum: SQLRowChecksum.sum(values))
    }

    public func packedRows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity,
                           _ body: (PackedRow) throws -> Void) throws {
        try PackedRowBuilder.packEach({ try rows(sql, arguments, of: entity, $0) }, body)
    }
}

/// The text of one SQL statement and, for the fixed statements of a schema, a dense slot
/// number a driver may use to cache its prepared form.
public struct SQLStatement: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The SQL, with `?` placeholders.
    public let text: String
    /// `0..<SQLSchemaMapping.slotCount` for fixed statements; `nil` for statements built per call.
    public let slot: Int?

    public init(_ text: String, slot: Int? = nil) {
        self.text = text
        self.slot = slot
    }

    public init(stringLiteral text: String) { self.init(text) }

    public var description: String { text }
}
