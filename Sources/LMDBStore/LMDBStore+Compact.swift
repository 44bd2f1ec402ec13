import CLMDB
import Foundation
import StoreCore

extension LMDBStore {
    /// Compacts a closed store with LMDB's compacting copy (`mdb_env_copy2` with
    /// `MDB_CP_COMPACT`): every live page written again in order, free pages left out. LMDB
    /// never shrinks its data file by itself; pages freed by deletes and rewrites are reused
    /// but the file keeps its largest size.
    ///
    /// The copy is written to `.compacting/` inside the store directory and synced, then
    /// renamed over `data.mdb` (atomic: a crash leaves the old file or the new one; a copy
    /// left by a crash is removed by the next compaction). Peak disk use is the old file plus
    /// the compacted one. The store is opened first, so a foreign, damaged or other-schema
    /// store is refused before anything is copied. Throws `notFound` without a store, `busy`
    /// when this process or another has the store open; a process that opens the store while
    /// the copy runs is not kept out: compact while no other process uses it.
    public static func compact(directory: URL, schema: Schema, options: StoreOptions = StoreOptions()) throws {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw StoreError(.notFound, "no LMDB store at \(path)")
        }
        // This process first: probing the lock file must never touch the locks of an open store.
        if OpenEnvironments.isOpen(path) {
            throw StoreError(.busy, "\(path) is open in this process; close the LMDBStore before compacting it")
        }
        try requireNoOtherProcess(path)
        let copy = directory.appendingPathComponent(".compacting")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        let store = try LMDBStore(directory: directory, schema: schema, options: options)
        do {
            let rc = mdb_env_copy2(try store.env.live(), copy.path, UInt32(MDB_CP_COMPACT))
            try LMDBError.check(rc, "cannot write a compacted copy of \(path)")
            try store.close()
        } catch {
            try? store.close()
            throw error
        }
        try syncFile(copy.path + "/data.mdb")
        guard rename(copy.path + "/data.mdb", path + "/data.mdb") == 0 else {
            throw StoreError(.io, "cannot move the compacted copy over \(path)/data.mdb: \(String(cString: strerror(errno)))", nativeCode: errno)
        }
        try syncFile(path)
    }

    /// LMDB keeps a read lock on byte 0 of `lock.mdb` in every process that has the store open.
    /// An open-file-description lock (`F_OFD_SETLK`) conflicts with those of any process,
    /// this one included, and is released when its own descriptor closes, so the probe never
    /// drops a lock LMDB holds (a classic `F_SETLK` probe and `close` would drop this
    /// process's locks on the file).
    private static func requireNoOtherProcess(_ path: String) throws {
        let fd = open(path + "/lock.mdb", O_RDWR)
        guard fd >= 0 else { return }   // no lock file: nobody has it open
        defer { Glibc.close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        lock.l_pid = 0
        if fcntl(fd, Self.ofdSetLock, &lock) != 0 {
            throw StoreError(.busy, "\(path) is open in another process; compact it when no process uses it", nativeCode: errno)
        }
    }

    /// Linux's `F_OFD_SETLK` (not exported by Glibc's Swift overlay).
    private static let ofdSetLock: Int32 = 37

    /// `fsync` of a file or directory.
    private static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0, fsync(fd) == 0 else {
            let code = errno
            if fd >= 0 { Glibc.close(fd) }
            throw StoreError(.io, "cannot sync \(path): \(String(cString: strerror(code)))", nativeCode: code)
        }
        Glibc.close(fd)
    }
}
