import CLMDB
import Foundation
import StoreCore

/// Where a transaction's keys and values may lie, taken when it begins: LMDB hands out
/// pointers into its memory map, and on a damaged file a node's size or offset can point past
/// the end of the data file, where reading the map raises SIGBUS. Every key and value is
/// checked against these bounds before anything reads it; one that falls outside is
/// `corrupted`. Internal.
///
/// A value in the map must end within the pages the environment has committed
/// (`me_last_pgno`) for a read transaction, and within the data file for a write transaction
/// (a large one spills dirty pages to the file past the committed ones and reads them back
/// through the map); a write transaction's other dirty pages live outside the map, in memory
/// LMDB allocated, and are accepted as they are (they were written in this process).
struct MapBounds {
    private let start: UInt
    private let mapEnd: UInt
    private let committedEnd: UInt
    private let readOnly: Bool

    init(env: OpaquePointer, region: MapRegion, readOnly: Bool) {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        if region.start != 0, mdb_env_info(env, &info) == 0, mdb_env_stat(env, &stat) == 0 {
            start = region.start
            mapEnd = region.end
            let committed = start &+ (UInt(info.me_last_pgno) &+ 1) &* UInt(stat.ms_psize)
            committedEnd = min(region.end, readOnly ? committed : max(committed, start &+ Self.fileSize(env)))
        } else {
            (start, mapEnd, committedEnd) = (0, UInt.max, UInt.max)  // the map was not found: check nothing
        }
        self.readOnly = readOnly
    }

    /// The data file's size in bytes (0 when unknown).
    private static func fileSize(_ env: OpaquePointer) -> UInt {
        MapRegion.dataFileStatus(env).map { UInt(max(0, $0.st_size)) } ?? 0
    }

    /// Whether `v` lies where the transaction may read it.
    @inline(__always)
    func allows(_ v: MDB_val) -> Bool {
        let p = UInt(bitPattern: v.mv_data)
        let (end, overflow) = p.addingReportingOverflow(UInt(v.mv_size))
        if p >= start && p < mapEnd { return !overflow && end <= committedEnd }
        return !readOnly || v.mv_size == 0
    }

    /// `v` as bytes, once it is known to lie where the transaction may read.
    @inline(__always)
    func bytes(_ v: MDB_val, _ what: @autoclosure () -> String) throws -> UnsafeRawBufferPointer {
        guard allows(v) else { throw Self.outside(v, what()) }
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    @inline(never)
    static func outside(_ v: MDB_val, _ what: String) -> StoreError {
        StoreError(.corrupted, "the LMDB file is damaged: \(what) of \(v.mv_size) bytes lies outside the data file")
    }
}
