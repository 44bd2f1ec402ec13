import CLMDB
import Foundation
import StoreCore
import Synchronization

/// A `Repository` over the LMDB C API: one environment per store directory, a primary
/// database per entity with compact binary records, dupsort databases for secondary indexes
/// and for both sides of every relationship, a small query planner, and a map that grows by
/// itself.
///
/// ```swift
/// let store = try LMDBStore(directory: dir, schema: schema)
/// try store.write { try $0.insert(record) }
/// print(try store.plan(Query("User", where: "username" == "ann")))
/// ```
///
/// Threading: `Sendable`. Read transactions (`MDB_RDONLY`, handles reused through
/// reset/renew) run in parallel on any thread, each on its own snapshot; writes are
/// serialized. A write started inside another on the same thread throws `busy`. When a write
/// fills the map, the store grows the map (waiting for running reads to finish) and runs the
/// write closure again from the start: keep side effects out of write closures.
public final class LMDBStore: Repository, @unchecked Sendable {
    // @unchecked: mutable state is guarded as marked; the environment handle is used under
    // `mapLock` (shared for transactions, exclusive for resizing and closing).

    /// Sizes of the memory map.
    public struct MapSize: Sendable, Hashable {
        /// The size a new environment starts with (an existing one keeps its own if larger).
        /// The default, 1 GiB, is address space, not disk: the file grows only by the pages
        /// written. It is large because the map cannot grow while any read transaction of
        /// the process is open: a reader held through a burst of writes pins the old pages,
        /// the file grows past a small map, and the writer would wait for that reader.
        public var initial: Int
        /// The largest size the map may grow to; a write beyond it throws `storageFull`.
        public var maximum: Int

        public init(initial: Int = 1 << 30, maximum: Int = 1 << 40) {
            self.initial = initial
            self.maximum = maximum
        }
    }

    public let schema: Schema
    public let directory: URL
    /// How many migrations of this store the process had completed when it was opened
    /// (`StoreLocating`).
    public let migrationGeneration: Int
    public let options: StoreOptions
    public let mapLimits: MapSize
    public let capabilities: Capabilities = [.persistence, .multiProcess, .snapshotReads, .concurrentReaders, .schemaVersioning, .migrations, .integrityCheck, .compaction, .readOnlyMode, .orderedRelationships,
                                                  .primitiveLists, .primitiveMaps, .embeddedObjects]
    public var unsupportedCapabilities: [Capabilities: String] { Capabilities.observedThroughObjectGraph }

    let env: LMDBEnvironment
    let layout: LMDBLayout
    private let mapLock = ReadWriteLock()
    private let writeLock = NSLock()
    private let stateLock = NSLock()
    /// This store's commits, once `externalCommitStamp` was asked for.
    let ownCommits = Locked(OwnCommits())
    /// The snapshot (transaction id) whose schema version a read last checked (`checkReadNotMigrated`).
    private let checkedReadSnapshot = Atomic<Int>(-1)
    // Guarded by stateLock, so the runtime's exclusivity tracking is off (it cost about a
    // tenth of a point read).
    /// Reset read transactions, each with its handle, ready to renew (a read reuses both and
    /// marks the object active again).
    @exclusivity(unchecked) private var idleReads: [LMDBTransaction] = []
    @exclusivity(unchecked) private var isClosed = false
    @exclusivity(unchecked) private var writerThread: pthread_t?
    /// How many times the map grew since opening (for tests and reports).
    package private(set) var mapGrowths = 0  // guarded by writeLock

    /// Opens or creates the store in `directory` (files `data.mdb` and `lock.mdb`).
    ///
    /// Throws `corrupted` when the files are not an LMDB environment, are truncated, or are an
    /// LMDB environment that is not a StoreBench store; `schemaMismatch` for another schema;
    /// `busy` when this process already has the directory open. With
    /// `options.verifyOnOpen`, a damaged data file is `corrupted` before liblmdb reads it.
    public init(directory: URL, schema: Schema, options: StoreOptions = StoreOptions(), mapSize: MapSize = MapSize()) throws {
        self.schema = schema
        self.directory = directory
        self.options = options
        self.mapLimits = mapSize
        if options.readOnly {
            try StoreDirectory.requireStore(directory, storeFile: "data.mdb")
        } else {
            try StoreDirectory.prepare(directory, storeFile: "data.mdb")
        }
        let path = directory.standardizedFileURL.path
        try OpenEnvironments.claim(path)
        do {
            try Self.checkDataFile(path)
            if !options.readOnly { try Self.createIfMissing(path, schema: schema, mapSize: mapSize) }
            // A migration opens the databases of every schema it passes through (and may move
            // those of a renamed entity aside).
            let migrating = options.migrations?.migrations.reduce(0) { $0 + 2 * LMDBLayout.databaseCount($1.source) } ?? 0
            let env = try LMDBEnvironment(directory: path, maxDatabases: LMDBLayout.databaseCount(schema) + migrating,
                                          mapSize: mapSize.initial, durability: options.durability,
                                          mode: .init(readOnly: options.readOnly))
            do {
                try Self.checkSize(env)
                if options.verifyOnOpen { try Self.walkBeforeReading(env) }
                layout = options.readOnly
                    ? try Self.readLayout(env, schema: schema, path: path)
                    : try Self.openLayout(env, schema: schema, path: path, migrations: options.migrations, maximumMap: mapSize.maximum)
            } catch {
                env.close()
                throw error
            }
            self.env = env
            migrationGeneration = StoreMigrations.generation(of: path)
        } catch {
            OpenEnvironments.release(path)
            throw error
        }
    }

    /// Opens (creates, migrates) the layout in one write transaction. A migration that fills
    /// the map is aborted, the map doubled (up to `maximumMap`) and the migration run again.
    static func openLayout(_ env: LMDBEnvironment, schema: Schema, path: String,
                                   migrations: MigrationPlan?, maximumMap: Int) throws -> LMDBLayout {
        while true {
            let txn = try LMDBTxn(try env.live(), region: env.region, readOnly: false)
            do {
                let layout = try LMDBLayout.open(txn, schema: schema, path: path, migrations: migrations)
                try txn.commit()
                return layout
            } catch let error as StoreError where error.nativeCode == MDB_MAP_FULL && env.mapSize < maximumMap {
                txn.abort()
                try env.setMapSize(min(maximumMap, env.mapSize * 2))
            } catch {
                txn.abort()
                throw error
            }
        }
    }

    deinit { try? close() }

    public func close() throws {
        if isWriterThread { throw StoreError(.busy, "close() was called inside a write transaction on the same thread") }
        // Inside a read on this thread, waiting for reads to end would wait for itself.
        if holdsMap { throw StoreError(.busy, "close() was called inside a read transaction on the same thread") }
        writeLock.lock()
        defer { writeLock.unlock() }
        let pooled: [LMDBTransaction]? = stateLock.withLock {
            if isClosed { return nil }
            isClosed = true
            defer { idleReads = [] }
            return idleReads
        }
        guard let pooled else { return }
        // Wait for running reads; a read that outlives 60 s leaks the environment rather than crash it.
        guard mapLock.lockExclusive(timeout: 60) else {
            // Nothing changed: the store stays open, with its idle read transactions.
            stateLock.withLock {
                isClosed = false
                idleReads = pooled
            }
            throw StoreError(.busy, "close(): read transactions of other threads stayed open for 60 s; the store is still open")
        }
        pooled.forEach { $0.txn.abort() }
        if options.durability == .relaxed { env.sync() }
        env.close()
        mapLock.unlock()
        OpenEnvironments.release(directory.standardizedFileURL.path)
    }

    // MARK: Transactions

    private var isWriterThread: Bool {
        let me = pthread_self()
        return stateLock.withLock { writerThread.map { pthread_equal($0, me) != 0 } ?? false }
    }

    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        try holdingMap {
            var tx = try beginRead()
            defer { endRead(&tx) }
            try checkReadNotMigrated(tx.txn)
            return try body(tx)
        }
    }

    /// At the start of a read transaction: throws `schemaMismatch` when another process migrated
    /// the store since it was opened. Costs `mdb_txn_id` while the snapshot is the one last
    /// checked; after a commit anywhere, one `mdb_get` of `sb_meta`'s `schema_version`.
    private func checkReadNotMigrated(_ txn: LMDBTxn) throws {
        let id = txn.id
        guard checkedReadSnapshot.load(ordering: .relaxed) != id else { return }
        try layout.checkNotMigrated(txn, schema: schema, path: directory.path, reading: true)
        checkedReadSnapshot.store(id, ordering: .relaxed)
    }

    /// Ends a read: resets its handle and pools it for the next read, with the transaction
    /// object too unless the closure kept a strong reference to it (that object stays inactive
    /// for good). A weak or unowned reference kept past the closure does not stop the reuse.
    private func endRead(_ tx: inout LMDBTransaction) {
        tx.isActive = false
        tx.txn.reset()
        if !isKnownUniquelyReferenced(&tx) { tx = readTransaction(tx.txn, env: tx.env) }
        let pooled = tx
        let keep = stateLock.withLock { () -> Bool in
            if isClosed { return false }
            idleReads.append(pooled)
            return true
        }
        if !keep { pooled.txn.abort() }
    }

    /// Runs `body` holding the map lock shared, unless this thread already holds it (a read
    /// nested in a read or a write on the same thread).
    private func holdingMap<T>(_ body: () throws -> T) throws -> T {
        let held = ThreadReads.current
        let me = ObjectIdentifier(self)
        let outermost = !held.stores.contains(me)
        if outermost { mapLock.lockShared() }
        held.stores.append(me)   // once per level: the depth is the count
        defer {
            // Nested levels on one thread end innermost first, so the last entry is this one.
            let last = held.stores.removeLast()
            assert(last == me, "map levels ended out of order")
            if outermost { mapLock.unlock() }
        }
        return try body()
    }

    /// Whether this thread holds the map lock shared (then the map cannot grow from here).
    private var holdsMap: Bool { ThreadReads.current.stores.contains(ObjectIdentifier(self)) }

    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        if options.readOnly { throw StoreError.refusedWrite(to: directory.path) }
        if isWriterThread { throw StoreError(.busy, "a write transaction was started inside another on the same thread") }
        let me = pthread_self()
        writeLock.lock()
        defer { writeLock.unlock() }
        try stateLock.withLock { if isClosed { throw StoreError(.closed, "the store is closed") } }
        stateLock.withLock { writerThread = me }
        defer { stateLock.withLock { writerThread = nil } }
        while true {
            let (result, full) = try holdingMap { try attemptWrite(body) }
            if let result { return result }
            try grow(after: full)
        }
    }

    /// One run of a write closure. Returns nil (and the error) when the map was full: the
    /// transaction is gone and the caller grows the map and runs the closure again.
    private func attemptWrite<T>(_ body: (any WriteTransaction) throws -> T) throws -> (T?, StoreError?) {
        let txn = try begin { try LMDBTxn(try env.live(), region: env.region, readOnly: false) }
        let tx = LMDBTransaction(schema: schema, layout: layout, env: try env.live(), txn: txn, writable: true)
        defer { tx.isActive = false }
        do {
            try layout.checkNotMigrated(txn, schema: schema, path: directory.path)
            let result = try body(tx)
            if tx.needsLargerMap {
                txn.abort()
                return (nil, StoreError(.storageFull, "the map is full", nativeCode: MDB_MAP_FULL))
            }
            try tx.checkEmbeddedOwners()
            let id = txn.id
            noteCommit(txn, id: id)   // before the commit, so that no poll counts it as another process's
            do { try txn.commit() } catch {
                ownCommits.withLock { $0.forget(id) }
                throw error
            }
            return (result, nil)
        } catch let e as StoreError where e.nativeCode == MDB_MAP_FULL || tx.needsLargerMap {
            txn.abort()   // a no-op after a failed commit, which freed the handle
            return (nil, e)
        } catch {
            txn.abort()
            throw error
        }
    }

    /// Doubles the map (up to `mapLimits.maximum`), with no transaction of this process open.
    private func grow(after error: StoreError?) throws {
        let current = env.mapSize
        guard current < mapLimits.maximum else {
            throw StoreError(.storageFull,
                             "the LMDB map is full at its maximum of \(current) bytes; the write was not applied and stored data is intact",
                             nativeCode: MDB_MAP_FULL, nativeMessage: error?.nativeMessage)
        }
        if holdsMap {
            throw StoreError(.busy, "the LMDB map must grow, but this thread has a read transaction of the store open; write outside the read")
        }
        guard mapLock.lockExclusive(timeout: 30) else {
            throw StoreError(.busy, "the LMDB map must grow, but read transactions stayed open for 30 s")
        }
        defer { mapLock.unlock() }
        discardIdleReads()
        try env.setMapSize(min(mapLimits.maximum, max(current * 2, current + (64 << 20))))
        mapGrowths += 1
    }

    /// A read transaction: a pooled one renewed, or a new one.
    private func beginRead() throws -> LMDBTransaction {
        let idle: LMDBTransaction? = try stateLock.withLock {
            if isClosed { throw StoreError(.closed, "the store is closed") }
            return idleReads.popLast()
        }
        if let idle {
            do {
                _ = try begin { try idle.txn.renew(region: env.region) }
            } catch {
                // Adopting a new map size lets go of the map lock: the store may have closed
                // meanwhile (`setMapSize` then throws `closed`), freeing the environment.
                if (try? env.live()) == nil { idle.txn.abandon() } else { idle.txn.abort() }
                throw error
            }
            idle.isActive = true
            return idle
        }
        let txn = try begin { try LMDBTxn(try env.live(), region: env.region, readOnly: true) }
        return readTransaction(txn, env: try env.live())
    }

    /// A read transaction object over a read handle (active until its read ends).
    private func readTransaction(_ txn: LMDBTxn, env: OpaquePointer) -> LMDBTransaction {
        LMDBTransaction(schema: schema, layout: layout, env: env, txn: txn, writable: false)
    }

    /// Runs a transaction start; when another process grew the map (`MDB_MAP_RESIZED`), adopts
    /// its size and tries again. Called holding the map lock shared (`holdingMap`); adopting
    /// needs it exclusively, which is impossible from a nested read (then: `busy`).
    private func begin<T>(_ start: () throws -> T) throws -> T {
        do {
            return try start()
        } catch let e as StoreError where e.nativeCode == MDB_MAP_RESIZED {
            let held = ThreadReads.current
            guard held.stores.filter({ $0 == ObjectIdentifier(self) }).count == 1 else { throw e }
            mapLock.unlock()
            defer { mapLock.lockShared() }
            guard mapLock.lockExclusive(timeout: 30) else { throw e }
            defer { mapLock.unlock() }
            discardIdleReads()
            try env.setMapSize(0)
        }
        return try start()
    }

    private func discardIdleReads() {
        let idle = stateLock.withLock { defer { idleReads = [] }; return idleReads }
        idle.forEach { $0.txn.abort() }
    }

    // MARK: Inspection

    /// The plan LMDBStore uses for a query.
    public func plan(_ query: Query) throws -> LMDBQueryPlan {
        try read { try ($0 as! LMDBTransaction).plan(query) }
    }

    /// The current map size in bytes.
    public var mapSize: Int { env.mapSize }

    /// The version of the LMDB library in use.
    public static var libraryVersion: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        _ = mdb_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    // MARK: Opening checks

    /// A `data.mdb` too short for its two meta pages is not an environment LMDB can open safely.
    private static func checkDataFile(_ directory: String) throws {
        let data = directory + "/data.mdb"
        guard let size = (try? FileManager.default.attributesOfItem(atPath: data))?[.size] as? Int else { return }
        if size == 0 {
            throw StoreError(.corrupted, "\(data) is empty (0 bytes): a store file is created complete, so this one lost its contents; restore it from a copy, or remove it to start a new store")
        }
        if size < 2 * 4096 {
            throw StoreError(.corrupted, "\(data) is \(size) bytes, too short to be an LMDB environment")
        }
    }

    /// A data file shorter than the pages its meta page claims would fault when read. The meta
    /// is read before the file's size: another process's commit writes its pages before its
    /// meta, so a size taken after the meta covers it (the other order races such a commit).
    private static func checkSize(_ env: LMDBEnvironment) throws {
        let data = env.path + "/data.mdb"
        let needed = (env.info.me_last_pgno + 1) * env.pageSize
        let size = ((try? FileManager.default.attributesOfItem(atPath: data))?[.size] as? Int) ?? 0
        if size > 0 && size < needed {
            throw StoreError(.corrupted, "\(data) is truncated: \(size) bytes, but its pages reach \(needed) bytes")
        }
    }
}

extension LMDBStore: StoreLocating {
    /// The environment directory (`StoreMigrations` keys migrations by it).
    public var storeLocation: String { directory.standardizedFileURL.path }
}
