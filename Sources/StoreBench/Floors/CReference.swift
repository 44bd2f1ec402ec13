import CReference
import Foundation
import StoreCore

/// The C reference of the rows workloads (`Sources/CReference/rows.c`) as floor-shaped targets,
/// so each Swift floor can be given as a multiple of plain C doing the same engine calls on the
/// same table: `rows.load`, `rows.insert` and `rows.fetch` run in C and the span C measured is
/// recorded; every other workload throws "not part of the C reference".
///
/// ```swift
/// let c = try CReferenceFloors.open(engine: "sqlite", directory: dir, durability: .durable)
/// try c.insertRows(first: 1, count: 50_000, timer: timer)
/// ```
public enum CReferenceFloors {
    public static let engines = ["sqlite", "lmdb"]

    /// The C reference of `engine`, over a store in `directory` (created when missing).
    public static func open(engine: String, directory: URL, durability: Durability) throws -> any Floor {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch engine {
        case "sqlite": return try CReferenceSQLite(path: directory.appendingPathComponent("creference.sqlite").path, durability: durability)
        case "lmdb": return try CReferenceLMDB(directory: directory.path, durability: durability)
        default: throw BenchError("no C reference for engine '\(engine)'; references exist for \(engines.joined(separator: ", "))")
        }
    }

    static func notPart(_ what: String, _ engine: String) -> BenchError {
        BenchError("\(what) is not part of the C reference (c:\(engine) runs rows.load, rows.insert and rows.fetch only)")
    }
}

/// The SQLite half of the C reference. Internal: owns one C handle, freed in `close()`.
final class CReferenceSQLite: Floor {
    let engine = "sqlite"
    private var handle: OpaquePointer?

    init(path: String, durability: Durability) throws {
        var h: OpaquePointer?
        let rc = cref_sqlite_open(path, durability == .durable ? 1 : 0, &h)
        handle = h
        if rc != 0 {
            let message = String(cString: cref_sqlite_errmsg(h, rc))
            close()
            throw BenchError("c reference (sqlite): \(message) (code \(rc)) opening \(path)")
        }
    }

    deinit { close() }

    func close() {
        cref_sqlite_close(handle)
        handle = nil
    }

    var transactionsBegun: Int { Int(cref_sqlite_transactions(handle)) }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        var nanos: UInt64 = 0
        try check(cref_sqlite_rows_insert(try live(), first, Int64(count), &nanos), "rows insert")
        timer.record(nanos, operations: count)
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink: Int64 = 0, nanos: UInt64 = 0, rows: Int64 = 0
        try check(cref_sqlite_rows_fetch(try live(), &sink, &nanos, &rows), "rows fetch")
        timer.record(nanos, operations: Int(rows))
        return Int(truncatingIfNeeded: sink)
    }

    func storeSocial(_ records: [Record], links: [SocialLink]) throws { throw CReferenceFloors.notPart("memory.load", engine) }
    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws { throw CReferenceFloors.notPart("batch.bulk-insert", engine) }
    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("crud.read-pk", engine) }
    func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("crud.read-pk.hot", engine) }
    func scanPosts(timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("query.full-scan", engine) }

    private func live() throws -> OpaquePointer {
        guard let handle else { throw BenchError("c reference (sqlite): closed") }
        return handle
    }

    private func check(_ rc: Int32, _ what: String) throws {
        if rc != 0 { throw BenchError("c reference (sqlite): \(String(cString: cref_sqlite_errmsg(handle, rc))) (code \(rc)) in \(what)") }
    }
}

/// The LMDB half of the C reference. Internal: owns one C handle, freed in `close()`.
final class CReferenceLMDB: Floor {
    let engine = "lmdb"
    private var handle: OpaquePointer?

    init(directory: String, durability: Durability) throws {
        var h: OpaquePointer?
        let rc = cref_lmdb_open(directory, durability == .durable ? 1 : 0, &h)
        handle = h
        if rc != 0 {
            close()
            throw BenchError("c reference (lmdb): \(String(cString: cref_lmdb_errmsg(rc))) (code \(rc)) opening \(directory)")
        }
    }

    deinit { close() }

    func close() {
        cref_lmdb_close(handle)
        handle = nil
    }

    var transactionsBegun: Int { Int(cref_lmdb_transactions(handle)) }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        var nanos: UInt64 = 0
        try check(cref_lmdb_rows_insert(try live(), first, Int64(count), &nanos), "rows insert")
        timer.record(nanos, operations: count)
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink: Int64 = 0, nanos: UInt64 = 0, rows: Int64 = 0
        try check(cref_lmdb_rows_fetch(try live(), &sink, &nanos, &rows), "rows fetch")
        timer.record(nanos, operations: Int(rows))
        return Int(truncatingIfNeeded: sink)
    }

    func storeSocial(_ records: [Record], links: [SocialLink]) throws { throw CReferenceFloors.notPart("memory.load", engine) }
    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws { throw CReferenceFloors.notPart("batch.bulk-insert", engine) }
    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("crud.read-pk", engine) }
    func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("crud.read-pk.hot", engine) }
    func scanPosts(timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("query.full-scan", engine) }

    private func live() throws -> OpaquePointer {
        guard let handle else { throw BenchError("c reference (lmdb): closed") }
        return handle
    }

    private func check(_ rc: Int32, _ what: String) throws {
        if rc != 0 { throw BenchError("c reference (lmdb): \(String(cString: cref_lmdb_errmsg(rc))) (code \(rc)) in \(what)") }
    }
}
