/// Reads inside one consistent snapshot. Handed to the closure of `Repository.read` (and,
/// as a `WriteTransaction`, of `Repository.write`); never use it after the closure returns.
/// A backend may hand the same object to a later read (LMDBStore does, unless a strong
/// reference to it was kept), so a weak or unowned one kept past the closure may see that read.
///
/// Not thread-safe: use a transaction only on the thread that runs its closure.
public protocol ReadTransaction {
    var schema: Schema { get }

    /// The record with this primary key, or `nil`.
    func fetch(_ entity: String, id: Value) throws -> Record?

    /// The records matching a query, in its order (ties broken by primary key ascending).
    func fetch(_ query: Query) throws -> [Record]

    /// Streams the matching rows to `body` without materializing them. The row view is
    /// borrowed: valid only during that call of `body`; copy with `Record(row)` to keep it.
    ///
    /// ```swift
    /// try tx.forEach(Query("Post")) { row in total += row.int64(at: scoreOrdinal) ?? 0 }
    /// ```
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws

    /// Streams the matching rows as `PackedRow`s: a concrete row type whose typed accessors are
    /// loads at known offsets, inlined into `body` (no protocol call per field). Same rows,
    /// order and borrowing rules as `forEach`. A backend that stores packed records hands out
    /// views over them; the default packs each row of `forEach` into a reused buffer.
    ///
    /// ```swift
    /// try tx.forEachPacked(Query("Row")) { row in total &+= row.int64(at: 1) ?? 0 }
    /// ```
    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws

    /// How many records match (limit and offset apply).
    func count(_ query: Query) throws -> Int

    /// The records at the other end of a relationship of one record, by primary key ascending
    /// (an ordered to-many: in its list order). Throws `notFound` when the record does not exist.
    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record]
}

/// Reads and writes inside one transaction. Every operation is atomic on its own: when one
/// throws, the transaction is as it was before that operation; when the closure throws, the
/// whole transaction rolls back.
public protocol WriteTransaction: ReadTransaction {
    /// Inserts a new record; `conflict` when the primary key or a unique index value exists.
    func insert(_ record: Record) throws

    /// Inserts, or replaces every attribute of the existing record with that key
    /// (its relationships are kept).
    func upsert(_ record: Record) throws

    /// Sets some attributes of an existing record; `notFound` when it does not exist.
    func update(_ entity: String, id: Value, set changes: [String: Value]) throws

    /// Deletes a record, applying its relationships' delete rules; `notFound` when absent,
    /// `constraintViolation` when a `deny` rule forbids it (nothing is deleted then).
    func delete(_ entity: String, id: Value) throws

    /// Inserts many records as one operation: all of them or, on error, none.
    func insert(contentsOf records: [Record]) throws

    /// Sets attributes on every matching record; returns how many matched.
    /// Same semantics as updating each one by one, all or nothing.
    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int

    /// Deletes every matching record (delete rules apply); returns how many matched.
    /// All or nothing.
    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int

    /// Links a record to another through a relationship. A to-one relationship is replaced;
    /// a to-many gains the target (linking twice is a no-op; an ordered one appends it at the
    /// end). Inverses are kept on both sides.
    /// `notFound` when either record is missing.
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws

    /// Removes one link (a no-op when absent; an ordered list closes the gap). `notFound` when
    /// the source record is missing.
    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws

    /// Inserts `target` at `index` (`0...count`) of an ordered to-many (a target already in the
    /// list stays where it is). `invalidValue` naming the relationship and index for a position
    /// outside the list or an unordered relationship; nothing changes then.
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws

    /// Moves the link at `from` to `to` (both `0..<count`) in an ordered to-many; the others
    /// keep their order. `invalidValue` as for `link(_:id:_:to:at:)`.
    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws
}
