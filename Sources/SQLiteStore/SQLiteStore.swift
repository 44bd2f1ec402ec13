import CSQLite
import Foundation
import StoreCore
import StoreSQL

/// A `Repository` over the sqlite3 C API: WAL mode, one writer connection, a pool of reader
/// connections, cached prepared statements and bound parameters only.
///
/// ```swift
/// let store = try SQLiteStore(directory: dir, schema: schema)
/// try store.write { try $0.insert(record) }
/// ```
///
/// Threading: `Sendable`. Writes are serialized on the writer connection; reads run in
/// parallel, each on a reader connection of its own, and see the snapshot taken at their
/// first read. A write started inside another write on the same thread throws `busy`
/// instead of deadlocking.
public final class SQLiteStore: Repository, ExternalCommitDetecting, @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `writeLock` or `poolLock` as marked.

    /// The file name used by `init(directory:schema:options:)`.
    public static let fileName = "store.sqlite"

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
    private let writeLock = NSLock()
    private var writer: SQLiteConnection?            // guarded by writeLock
    /// A read-only store's connection for `externalCommitStamp` (it has no writer).
    private var stampReader: SQLiteConnection?       // guarded by writeLock
    private let poolLock = NSLock()
    private var idleReaders: [SQLiteConnection] = [] // guarded by poolLock
    private var isClosed = false                     // guarded by poolLock
    private var writerThread: pthread_t?             // guarded by poolLock
    private var readerThreads: [pthread_t] = []      // guarded by poolLock: one entry per open read
    /// How reader connections open the file (read-only stores: as the first one did).
    private let readerAccess: SQLiteConnection.Access
    /// `user_version` at open: a write finding another one refuses (another process migrated).
    private let openedUserVersion: Int64

    /// Opens or creates `directory/store.sqlite`.
    public convenience init(directory: URL, schema: Schema, options: StoreOptions = StoreOptions()) throws {
        try self.init(path: SQLStoreMetadata.file(Self.fileName, in: directory), schema: schema, options: options)
    }

    /// Opens or creates the database file at `path`. Throws `schemaMismatch` when the file was
    /// written with another schema, `corrupted` when it is not a StoreBench SQLite store (nothing
    /// is written to such a file). A new store is created complete or not at all.
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
                let (reader, access) = try Self.openReadOnly(path, mapping: mapping)
                idleReaders = [reader]
                readerAccess = access
                openedUserVersion = try SQLStoreMetadata.userVersion(reader)
            } else {
                try SQLStoreFile.createIfMissing(path) { temp in
                    try Self.openWriter(temp, access: .create, mapping: mapping, options: options).close()
                }
                let writer = try Self.openWriter(path, access: .readWrite, mapping: mapping, options: options)
                self.writer = writer
                readerAccess = .readWrite
                openedUserVersion = try SQLStoreMetadata.userVersion(writer)
            }
        } catch {
            SQLStoreFile.release(path)
            throw error
        }
        migrationGeneration = StoreMigrations.generation(of: path)
        if options.verifyOnOpen {
            do { try SQLStoreFile.quickCheck(writer ?? idleReaders[0], path: path) } catch {
                try? close()
                throw error
            }
        }
    }

    deinit { try? close() }

    public func close() throws {
        let me = pthread_self()
        let (readers, closing): ([SQLiteConnection], Bool) = try poolLock.withLock {
            if writerThread.map({ pthread_equal($0, me) != 0 }) ?? false {
                throw StoreError(.busy, "close() was called inside a write transaction on the same thread")
            }
            if readerThreads.contains(where: { pthread_equal($0, me) != 0 }) {
                throw StoreError(.busy, "close() was called inside a read transaction on the same thread")
            }
            defer { (isClosed, idleReaders) = (true, []) }
            return (idleReaders, !isClosed)
        }
        readers.forEach { $0.close() }
        writeLock.withLock {
            writer?.close()
            writer = nil
            stampReader?.close()
            stampReader = nil
        }
        if closing { SQLStoreFile.release(path) }
    }

    // MARK: Transactions

    /// Whether the calling thread is inside a write transaction of this store.
    private var isWriterThread: Bool {
        let me = pthread_self()
        return poolLock.withLock { writerThread.map { pthread_equal($0, me) != 0 } ?? false }
    }

    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        if isWriterThread { throw StoreError(.busy, "a write transaction was started inside another on the same thread") }
        if options.readOnly { throw StoreError.refusedWrite(to: path) }
        let me = pthread_self()
        writeLock.lock()
        defer { writeLock.unlock() }
        guard let db = writer else { throw StoreError(.closed, "the store is closed") }
        poolLock.withLock { writerThread = me }
        defer { poolLock.withLock { writerThread = nil } }
        return try transaction(on: db, begin: "BEGIN IMMEDIATE", writable: true, body)
    }

    /// The writer connection's `PRAGMA data_version`: every write of this store goes through
    /// that connection, and SQLite changes the value only for commits of other connections.
    /// A read-only store, which writes nothing, asks a connection of its own.
    public func externalCommitStamp() throws -> UInt64 {
        if isWriterThread { throw StoreError(.busy, "externalCommitStamp() inside a write transaction of the same store") }
        writeLock.lock()
        defer { writeLock.unlock() }
        if poolLock.withLock({ isClosed }) { throw StoreError(.closed, "the store is closed") }
        if writer == nil && stampReader == nil { stampReader = try SQLiteConnection(path: path, access: readerAccess) }
        guard let db = writer ?? stampReader else { throw StoreError(.closed, "the store is closed") }
        return UInt64(try db.scalarInt("PRAGMA data_version", []) ?? 0)
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
        let me = pthread_self()
        let db = try takeReader(for: me)
        defer { giveBack(db, from: me) }
        return try transaction(on: db, begin: "BEGIN", writable: false, body)
    }

    /// Begins, runs `body`, commits; rolls back when `body` or the commit throws (the first
    /// error wins). The transaction object is dead once this returns.
    private func transaction<T>(on db: SQLiteConnection, begin: String, writable: Bool,
                                _ body: (SQLTransaction) throws -> T) throws -> T {
        try db.statement(begin).execute()
        let tx = SQLTransaction(mapping: mapping, executor: db, writable: writable)
        defer { tx.end() }
        do {
            if writable { try SQLStoreMetadata.checkNotMigrated(db, opened: openedUserVersion, schema: schema, path: path) }
            let result = try body(tx)
            if writable { try tx.checkEmbeddedOwners() } else { try checkReadNotMigrated(db) }
            try db.statement("COMMIT").execute()
            return result
        } catch {
            // A read that failed on another process's new layout says so, not the SQL error.
            var mismatch: (any Error)?
            if !writable, (error as? StoreError)?.category != .schemaMismatch {
                do { try checkReadNotMigrated(db) } catch let e as StoreError where e.category == .schemaMismatch { mismatch = e } catch {}
            }
            _ = try? db.statement("ROLLBACK").execute()
            throw mismatch ?? error
        }
    }

    /// At the end of a read transaction, in its snapshot: throws `schemaMismatch` when another
    /// process migrated the store since it was opened. Costs one `sqlite3_file_control` while
    /// the file's data version stays the one this connection last checked; after a commit
    /// anywhere, one `PRAGMA user_version`.
    private func checkReadNotMigrated(_ db: SQLiteConnection) throws {
        let version = db.dataVersion
        guard version != db.checkedDataVersion else { return }
        try SQLStoreMetadata.checkNotMigrated(db, opened: openedUserVersion, schema: schema, path: path, reading: true)
        db.checkedDataVersion = version
    }

    // MARK: Reader pool

    /// A reader connection for `thread`, which is noted as reading until `giveBack`.
    private func takeReader(for thread: pthread_t) throws -> SQLiteConnection {
        let idle: SQLiteConnection? = try poolLock.withLock {
            if isClosed { throw StoreError(.closed, "the store is closed") }
            readerThreads.append(thread)
            return idleReaders.popLast()
        }
        if let idle { return idle }
        do {
            let db = try SQLiteConnection(path: path, access: readerAccess)
            do {
                try db.exec("PRAGMA query_only = 1")
            } catch {
                db.close()
                throw error
            }
            return db
        } catch {
            poolLock.withLock { Self.removeOne(thread, from: &readerThreads) }
            throw error
        }
    }

    private func giveBack(_ db: SQLiteConnection, from thread: pthread_t) {
        let keep = poolLock.withLock {
            Self.removeOne(thread, from: &readerThreads)
            if isClosed { return false }
            idleReaders.append(db)
            return true
        }
        if !keep { db.close() }
    }

    private static func removeOne(_ thread: pthread_t, from threads: inout [pthread_t]) {
        if let i = threads.lastIndex(where: { pthread_equal($0, thread) != 0 }) { threads.remove(at: i) }
    }
}

extension SQLiteStore {
    /// The built-in backend descriptor, for registries and the conformance kit.
    public static let descriptor = BackendDescriptor(
        name: "sqlite", summary: "SQLite \(String(cString: sqlite3_libversion())) through its C API (WAL)",
        verify: { schema, directory, options in
            try VerificationReport.ofStore(file: directory.appendingPathComponent(fileName)) {
                try SQLiteStore(directory: directory, schema: schema, options: options.readingOnly)
            }
        },
        compact: { schema, directory, options in try SQLiteStore.compact(directory: directory, schema: schema, options: options) },
        storedSchema: { directory in try SQLiteStore.storedSchema(directory: directory) }
    ) { schema, directory, options in
        try SQLiteStore(directory: directory, schema: schema, options: options)
    }

    /// The version of the SQLite library in use.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

extension SQLiteStore {
    /// Compacts a closed store: `VACUUM` (SQLite rebuilds the file without free pages), then a
    /// truncating checkpoint so the rebuilt pages move from the WAL into the file and the WAL
    /// shrinks to nothing. SQLite makes the rebuild atomic. Needs free disk space for a
    /// second copy of the data while it runs.
    public static func compact(directory: URL, schema: Schema, options: StoreOptions = StoreOptions()) throws {
        try SQLStoreMetadata.requireStore(Self.fileName, in: directory)
        let store = try SQLiteStore(directory: directory, schema: schema, options: options)
        defer { try? store.close() }
        try store.vacuum()
        try store.close()
    }

    private func vacuum() throws {
        if options.readOnly { throw StoreError.refusedWrite(to: path) }
        try writeLock.withLock {
            guard let db = writer else { throw StoreError(.closed, "the store is closed") }
            try db.exec("VACUUM")
            // The first column is 1 when another connection's read kept the WAL from being emptied.
            if try db.pragma("PRAGMA wal_checkpoint(TRUNCATE)") == "1" {
                throw StoreError(.busy, "\(path): compacted, but another connection is reading, so the WAL could not be emptied")
            }
        }
    }
}

extension SQLiteStore: StoreLocating {
    /// The database file (`StoreMigrations` keys migrations by it).
    public var storeLocation: String { path }
}
