import CReference
import Foundation
import StoreCore
import StoreSQL
import StoreBenchKit

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
        case "sqlite": return try CReferenceFloor(.sqlite, path: directory.appendingPathComponent("creference.sqlite").path, durability: durability)
        case "lmdb": return try CReferenceFloor(.lmdb, path: directory.path, durability: durability)
        default: throw BenchError("no C reference for engine '\(engine)'; references exist for \(engines.joined(separator: ", "))")
        }
    }

    static func notPart(_ what: String, _ engine: String) -> BenchError {
        BenchError("\(what) is not part of the C reference (c:\(engine) runs the rows workloads only)")
    }
}

/// The C calls of one engine's half of the C reference (internal).
struct CReferenceCalls: Sendable {
    let engine: String
    let open: @Sendable (String, Int32, UnsafeMutablePointer<OpaquePointer?>) -> Int32
    let errmsg: @Sendable (OpaquePointer?, Int32) -> String
    let transactions: @Sendable (OpaquePointer?) -> Int64
    let insert: @Sendable (OpaquePointer?, Int64, Int64, UnsafeMutablePointer<UInt64>) -> Int32
    let fetch: @Sendable (OpaquePointer?, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<Int64>) -> Int32
    let close: @Sendable (OpaquePointer?) -> Void

    static let sqlite = CReferenceCalls(
        engine: "sqlite", open: { cref_sqlite_open($0, $1, $2) }, errmsg: { String(cString: cref_sqlite_errmsg($0, $1)) },
        transactions: { cref_sqlite_transactions($0) }, insert: { cref_sqlite_rows_insert($0, $1, $2, $3) },
        fetch: { cref_sqlite_rows_fetch($0, $1, $2, $3) }, close: { cref_sqlite_close($0) })

    static let lmdb = CReferenceCalls(
        engine: "lmdb", open: { cref_lmdb_open($0, $1, $2) }, errmsg: { String(cString: cref_lmdb_errmsg($1)) },
        transactions: { cref_lmdb_transactions($0) }, insert: { cref_lmdb_rows_insert($0, $1, $2, $3) },
        fetch: { cref_lmdb_rows_fetch($0, $1, $2, $3) }, close: { cref_lmdb_close($0) })
}

/// One engine's half of the C reference. Internal: owns one C handle, freed in `close()`.
final class CReferenceFloor: Floor {
    private let calls: CReferenceCalls
    private var handle: OpaquePointer?
    var engine: String { calls.engine }

    /// Opens the C reference over `path` (SQLite's file, LMDB's directory).
    init(_ calls: CReferenceCalls, path: String, durability: Durability) throws {
        self.calls = calls
        var h: OpaquePointer?
        let rc = calls.open(path, durability == .durable ? 1 : 0, &h)
        handle = h
        if rc != 0 {
            let message = calls.errmsg(h, rc)
            close()
            throw BenchError("c reference (\(calls.engine)): \(message) (code \(rc)) opening \(path)")
        }
    }

    deinit { close() }

    func close() {
        calls.close(handle)
        handle = nil
    }

    var transactionsBegun: Int { Int(calls.transactions(handle)) }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        var nanos: UInt64 = 0
        try check(calls.insert(try live(), first, Int64(count), &nanos), "rows insert")
        timer.record(nanos, operations: count)
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink: Int64 = 0, nanos: UInt64 = 0, rows: Int64 = 0
        try check(calls.fetch(try live(), &sink, &nanos, &rows), "rows fetch")
        timer.record(nanos, operations: Int(rows))
        return Int(truncatingIfNeeded: sink)
    }

    func storeSocial(_ records: [Record], links: [SocialLink]) throws { throw CReferenceFloors.notPart("storeSocial", engine) }
    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws { throw CReferenceFloors.notPart("insertUsers", engine) }
    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("readPosts", engine) }
    func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("rereadPosts", engine) }
    func scanPosts(timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("scanPosts", engine) }
    func runQueries(_ queries: [FloorQuery], timer: OperationTimer) throws -> Int { throw CReferenceFloors.notPart("runQueries", engine) }
    func queryDigest(_ queries: [FloorQuery]) throws -> String { throw CReferenceFloors.notPart("queryDigest", engine) }

    private func live() throws -> OpaquePointer {
        guard let handle else { throw BenchError("c reference (\(engine)): closed") }
        return handle
    }

    private func check(_ rc: Int32, _ what: String) throws {
        let code = engine == "sqlite" ? "\(SQLiteResultCode.name(of: rc)), \(rc)" : "code \(rc)"
        if rc != 0 { throw BenchError("c reference (\(engine)): \(calls.errmsg(handle, rc)) (\(code)) in \(what)") }
    }
}
