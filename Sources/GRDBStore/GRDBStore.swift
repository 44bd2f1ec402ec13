import Foundation
import GRDB
import GRDBSQLite
import StoreCore
import StoreSQL

/// A `Repository` over GRDB.swift: a `DatabasePool` (WAL, one writer, concurrent readers),
/// GRDB's cached statements and cursors, and StoreSQL's translation of StoreCore's
/// semantics into SQL. Measured beside `SQLiteStore` as a peer: the same SQL through a
/// widely used driver.
///
/// ```swift
/// let store = try GRDBStore(directory: dir, schema: schema)
/// try store.write { try $0.insert(record) }
/// ```
///
/// Threading: `Sendable`. Writes are serialized by GRDB's writer; reads run in parallel, each
/// in a transaction of its own on a reader connection. A transaction started inside another
/// of the same store on the same thread throws `busy` (GRDB itself would stop the process).
public final class GRDBStore: Repository, ExternalCommitDetecting, @unchecked Sendable {
    // @unchecked: `pool` is thread-safe (GRDB); `isClosed` and `activeThreads` are guarded by `lock`.

    /// The file name used by `init(directory:schema:options:)`.
    public static let fileName = "store.grdb.sqlite"

    public let schema: Schema
    public let path: String
    /// How many migrations of this store the process had completed when it was opened
    /// (`StoreLocating`).
    public let migrationGeneration: Int
    public let options: StoreOptions
    public let capabilities: Capabilities = [.persistence, .multiProcess, .snapshotReads, .concurrentReaders, .schemaVersioning, .migrations, .integrityCheck, .compaction, .readOnlyMode, .orderedRelationships,
                                                  .primitiveLists, .primitiveMaps, .embeddedObjects]
    public var unsupportedCapabilities: [Capabilities: String] { Capabilities.observedThroughObjectGraph }

    let mapping: SQLSchemaMapping
    /// `user_version` at open: a write finding another one refuses (another process migrated).
    private let openedUserVersion: Int64
    /// Per reader connection (its handle's address), the data version its last read checked.
    private let checkedDataVersions = Locked<[UInt: UInt32]>([:])
    /// A `DatabasePool`; a `DatabaseQueue` for a read-only store on read-only media (immutable).
    let pool: any DatabaseWriter
    private let lock = NSLock()
    private var isClosed = false                 // guarded by lock
    private var activeThreads: [pthread_t] = []  // guarded by lock: threads inside a transaction

    /// Opens or creates `directory/store.grdb.sqlite`.
    public convenience init(directory: URL, schema: Schema, options: StoreOptions = StoreOptions()) throws {
        try self.init(path: SQLStoreMetadata.file(Self.fileName, in: directory), schema: schema, options: options)
    }

    /// Opens or creates the database file at `path`. Throws `schemaMismatch` when the file was
    /// written with another schema, `corrupted` when it is not a StoreBench SQLite store
    /// (nothing is written to such a file). A new store is created complete or not at all.
    /// With `options.readOnly`, nothing is written: see `StoreOptions.readOnly`.
    public init(path: String, schema: Schema, options: StoreOptions = StoreOptions()) throws {
        self.schema = schema
        self.path = path
        self.options = options
        let mapping = SQLSchemaMapping(schema: schema)
        self.mapping = mapping
        try SQLStoreFile.checkBeforeOpening(path)
        SQLStoreFile.hold(path)   // before the first connection: no raw read of the file from now on
        do {
            if options.readOnly {
                pool = try Self.openReadOnly(path, mapping: mapping)
            } else {
                try SQLStoreFile.createIfMissing(path) { temp in
                    try GRDBErrors.mapped { try Self.openPool(temp, mapping: mapping, options: options).close() }
                }
                pool = try Self.openPool(path, mapping: mapping, options: options)
            }
        } catch {
            SQLStoreFile.release(path)
            throw error
        }
        migrationGeneration = StoreMigrations.generation(of: path)
        let pool = self.pool
        do {
            openedUserVersion = try GRDBErrors.mapped { try pool.read { try SQLStoreMetadata.userVersion(GRDBExecutor($0)) } }
        } catch {
            SQLStoreFile.release(path)
            try? pool.close()
            throw error
        }
        if options.verifyOnOpen {
            do { try GRDBErrors.mapped { try pool.read { try SQLStoreFile.quickCheck(GRDBExecutor($0), path: path) } } } catch {
                try? pool.close()
                throw error
            }
        }
    }

    deinit { try? close() }

    public func close() throws {
        try lock.withLock {
            if activeThreads.contains(where: { pthread_equal($0, pthread_self()) != 0 }) {
                throw StoreError(.busy, "close() was called inside a transaction on the same thread")
            }
            if isClosed { return }
            isClosed = true
        }
        try GRDBErrors.mapped { try pool.close() }
        SQLStoreFile.release(path)   // only once the pool's connections are closed
        // A pool's last connection to close is a reader, opened read-only, which cannot
        // checkpoint: the last commits of a closed store would stay in its WAL, where damage
        // loses them without a trace (SQLite drops WAL frames whose checksum fails). A writable
        // connection opened and closed after it folds the WAL into the file and removes it.
        if !options.readOnly { try GRDBErrors.mapped { try DatabaseQueue(path: path).close() } }
    }

    /// The writer connection's value of a pragma (`synchronous`, `journal_mode`, …), for
    /// diagnostics and tests.
    package func writerPragma(_ name: String) throws -> String? {
        try entered {
            try GRDBErrors.mapped {
                try pool.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
            }
        }
    }

    // MARK: Transactions

    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        if options.readOnly { throw StoreError.refusedWrite(to: path) }
        return try entered {
            try GRDBErrors.mapped {
                try pool.write { db in
                    try SQLStoreMetadata.checkNotMigrated(GRDBExecutor(db), opened: openedUserVersion, schema: schema, path: path)
                    return try Self.run(GRDBExecutor(db), mapping, writable: true, body)
                }
            }
        }
    }

    /// SQLite's `PRAGMA integrity_check`, the stored DDL, then the logical checks, in one read
    /// transaction (see `SQLTransaction.verify(into:)`).
    public func verify() throws -> VerificationReport {
        var report = VerificationReport()
        if let e = try VerificationReport.damage(in: { try read { tx in (tx as? SQLTransaction)?.verify(into: &report) } }) {
            report.add("store", "\(e)")
        }
        return report
    }

    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        try entered {
            try GRDBErrors.mapped {
                try pool.read { db in
                    let result: T
                    do { result = try Self.run(GRDBExecutor(db), mapping, writable: false, body) } catch {
                        // A read that failed on another process's new layout says so; any other
                        // failure of the check leaves the read's own error.
                        do { try checkReadNotMigrated(db) } catch let e as StoreError where e.category == .schemaMismatch { throw e } catch {}
                        throw error
                    }
                    try checkReadNotMigrated(db)
                    return result
                }
            }
        }
    }

    /// In a read, after its statements: throws `schemaMismatch` when another process migrated
    /// the store since it was opened. One `sqlite3_file_control` while the file's data version
    /// is the one last checked; after a commit anywhere, one `PRAGMA user_version`.
    private func checkReadNotMigrated(_ db: Database) throws {
        var version: UInt32 = 0
        let connection = db.sqliteConnection.map { UInt(bitPattern: $0) } ?? 0
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        guard checkedDataVersions.withLock({ $0[connection] }) != version else { return }
        try SQLStoreMetadata.checkNotMigrated(GRDBExecutor(db), opened: openedUserVersion, schema: schema, path: path, reading: true)
        checkedDataVersions.withLock { $0[connection] = version }
    }

    /// The pool's writer connection's `PRAGMA data_version`: every write of this store goes
    /// through that connection, and SQLite changes the value only for other connections' commits.
    public func externalCommitStamp() throws -> UInt64 {
        try entered {
            try GRDBErrors.mapped {
                try pool.writeWithoutTransaction { db in UInt64(try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0) }
            }
        }
    }

    /// Runs `body` over a transaction that is dead once it returns; GRDB commits or rolls back.
    private static func run<T>(_ executor: GRDBExecutor, _ mapping: SQLSchemaMapping, writable: Bool,
                               _ body: (SQLTransaction) throws -> T) throws -> T {
        let tx = SQLTransaction(mapping: mapping, executor: executor, writable: writable)
        defer { tx.end() }
        let result = try body(tx)
        if writable { try tx.checkEmbeddedOwners() }
        return result
    }

    /// Marks the calling thread as inside a transaction while `body` runs; refuses nesting
    /// and a closed store.
    private func entered<T>(_ body: () throws -> T) throws -> T {
        let me = pthread_self()
        try lock.withLock {
            if isClosed { throw StoreError(.closed, "the store is closed") }
            if activeThreads.contains(where: { pthread_equal($0, me) != 0 }) {
                throw StoreError(.busy, "a transaction was started inside another of the same store on the same thread")
            }
            activeThreads.append(me)
        }
        defer { lock.withLock { activeThreads.removeAll { pthread_equal($0, me) != 0 } } }
        return try body()
    }
}

extension GRDBStore: StoreLocating {
    /// The database file (`StoreMigrations` keys migrations by it).
    public var storeLocation: String { path }
}

extension GRDBStore {
    /// `VACUUM` and a truncating checkpoint, as GRDB runs statements outside a transaction
    /// (`writeWithoutTransaction`). Used by the descriptor's `compact` on a store it opened.
    func vacuum() throws {
        if options.readOnly { throw StoreError.refusedWrite(to: path) }
        try GRDBErrors.mapped {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                try db.checkpoint(.truncate)
            }
        }
    }
}
