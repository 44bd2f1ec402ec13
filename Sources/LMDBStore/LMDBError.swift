import CLMDB
import Foundation
import StoreCore

/// Maps LMDB's return codes (its own `MDB_*` codes and `errno` values) to `StoreError`,
/// keeping the native code and `mdb_strerror`'s message. Internal.
enum LMDBError {
    /// Throws unless `rc` is `MDB_SUCCESS`.
    @inline(__always)
    static func check(_ rc: Int32, _ what: @autoclosure () -> String, key: @autoclosure () -> String? = nil) throws {
        if rc != MDB_SUCCESS { throw error(rc, what(), key: key()) }
    }

    /// The error for a failed call: `what` says what was being done, `key` the key involved.
    static func error(_ rc: Int32, _ what: String, key: String? = nil) -> StoreError {
        StoreError(category(rc), "\(what): \(summary(rc))", nativeCode: rc,
                   nativeMessage: String(cString: mdb_strerror(rc)), context: key)
    }

    static func category(_ rc: Int32) -> StoreError.Category {
        switch rc {
        case MDB_KEYEXIST: .conflict
        case MDB_NOTFOUND: .notFound
        case MDB_PAGE_NOTFOUND, MDB_CORRUPTED, MDB_PANIC, MDB_VERSION_MISMATCH, MDB_INVALID, MDB_INCOMPATIBLE: .corrupted
        case MDB_MAP_FULL, MDB_TXN_FULL, MDB_PAGE_FULL, MDB_CURSOR_FULL, MDB_DBS_FULL: .storageFull
        case MDB_READERS_FULL, MDB_TLS_FULL, MDB_MAP_RESIZED: .busy
        case MDB_BAD_RSLOT, MDB_BAD_TXN, MDB_BAD_DBI: .closed
        case MDB_BAD_VALSIZE: .invalidValue
        case ENOSPC, EDQUOT, EFBIG: .storageFull
        case ENOMEM: .storageFull
        case EAGAIN, EBUSY, EWOULDBLOCK: .busy
        case EINVAL: .invalidValue
        default: .io
        }
    }

    /// A short explanation of what the code means for a StoreBench user.
    private static func summary(_ rc: Int32) -> String {
        switch rc {
        case MDB_INVALID: "the file is not an LMDB environment"
        case MDB_VERSION_MISMATCH: "the environment was written by an incompatible LMDB version"
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND: "the environment is damaged"
        case MDB_PANIC: "LMDB hit a fatal error; the environment must be reopened"
        case MDB_INCOMPATIBLE: "a database has other flags than this schema needs"
        case MDB_MAP_FULL: "the map is full"
        case MDB_TXN_FULL: "the transaction has too many dirty pages"
        case MDB_BAD_VALSIZE: "a key or value has a size LMDB does not accept (keys are 1...511 bytes)"
        case MDB_READERS_FULL: "too many read transactions are open"
        case EACCES, EPERM, EROFS: "no permission to write there (read-only media, or files not yours); to read the store, open it with StoreOptions(readOnly: true)"
        default: String(cString: mdb_strerror(rc))
        }
    }
}
