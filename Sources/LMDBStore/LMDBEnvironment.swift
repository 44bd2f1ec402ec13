import CLMDB
import Foundation
import StoreCore

/// Owns one `MDB_env` handle and frees it in one place (`close`).
///
/// The environment is opened with `MDB_NOTLS`, so read transactions are not tied to the thread
/// that began them and Swift concurrency may move work between threads, and with
/// `MDB_NORDAHEAD`: a page fault reads its page, not the kernel's 128 KiB read-around, so a
/// cold open that reads a few pages reads a few pages (with read-around, the first query after a
/// cold open took 8x SQLite's). Internal.
final class LMDBEnvironment: @unchecked Sendable {
    // @unchecked: `handle` is set once in init and cleared once in close(); LMDBStore orders
    // close() after every transaction (its locks), so no call races with it.
    private(set) var handle: OpaquePointer?
    let path: String
    /// Where the data file is mapped (found after open and after every resize).
    private(set) var region = MapRegion.unknown

    /// How an environment is opened besides its durability.
    struct Mode: Sendable {
        /// `MDB_RDONLY`: nothing is written to the data file. When the lock file cannot be
        /// written (read-only media, no permission), the environment opens without it
        /// (`MDB_NOLOCK`): no process may write the store meanwhile.
        var readOnly = false
        /// `MDB_NOSUBDIR`: `directory` is the data file's path (its lock file is `path-lock`).
        var noSubdirectory = false
    }

    /// Opens (creating when absent, unless read-only) the environment in `directory`. A handle
    /// that fails to open is closed before the error is thrown.
    init(directory: String, maxDatabases: Int, mapSize: Int, durability: Durability, mode: Mode = Mode()) throws {
        path = directory
        // relaxed: no fsync at commit (a process crash loses nothing, power loss may).
        var flags = UInt32(MDB_NOTLS | MDB_NORDAHEAD) | (durability == .relaxed ? UInt32(MDB_NOSYNC) : 0)
        if mode.readOnly { flags |= UInt32(MDB_RDONLY) }
        if mode.noSubdirectory { flags |= UInt32(MDB_NOSUBDIR) }
        do {
            handle = try Self.open(directory, maxDatabases, mapSize, flags)
        } catch let e as StoreError where mode.readOnly && (e.nativeCode == EACCES || e.nativeCode == EROFS) {
            handle = try Self.open(directory, maxDatabases, mapSize, flags | UInt32(MDB_NOLOCK))
        }
        region = MapRegion.locate(handle!)
    }

    private static func open(_ directory: String, _ maxDatabases: Int, _ mapSize: Int, _ flags: UInt32) throws -> OpaquePointer {
        var env: OpaquePointer?
        try LMDBError.check(mdb_env_create(&env), "cannot create an LMDB environment")
        do {
            try LMDBError.check(mdb_env_set_maxdbs(env, MDB_dbi(maxDatabases)), "cannot set the number of databases")
            try LMDBError.check(mdb_env_set_mapsize(env, mapSize), "cannot set the map size to \(mapSize) bytes")
            try LMDBError.check(mdb_env_open(env, directory, flags, 0o644), "cannot open the LMDB environment at \(directory)")
        } catch {
            mdb_env_close(env)
            throw error
        }
        return env!
    }

    deinit { close() }

    /// Closes the environment. Every transaction must have ended. Idempotent.
    func close() {
        if let h = handle { mdb_env_close(h) }
        handle = nil
    }

    /// The live handle, or `closed`.
    @inline(__always)
    func live() throws -> OpaquePointer {
        guard let h = handle else { throw StoreError(.closed, "the store is closed") }
        return h
    }

    var info: MDB_envinfo {
        var i = MDB_envinfo()
        if let h = handle { mdb_env_info(h, &i) }
        return i
    }

    var pageSize: Int {
        var s = MDB_stat()
        if let h = handle { mdb_env_stat(h, &s) }
        return Int(s.ms_psize)
    }

    var mapSize: Int { info.me_mapsize }

    /// Sets a new map size; 0 adopts the size another process set. No transaction of this
    /// process may be active (LMDBStore holds its map lock exclusively around this).
    func setMapSize(_ size: Int) throws {
        let h = try live()
        try LMDBError.check(mdb_env_set_mapsize(h, size), "cannot resize the map to \(size) bytes")
        region = MapRegion.locate(h)
    }

    /// Flushes buffers to disk (used on close in relaxed mode).
    func sync() {
        if let h = handle { mdb_env_sync(h, 1) }
    }
}
