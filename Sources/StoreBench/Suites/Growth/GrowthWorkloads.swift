import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// The growth sweeps: records of one payload size inserted into a store that starts empty, in
/// chunks of `chunk` per write transaction, up to each of `pointCount` record counts; at each,
/// `reads` random reads by key, `pages` sorted pages (the 20 largest `rank`s, an indexed
/// attribute) and the resident memory per record. The cell's time per operation is the read at
/// the largest count.
enum GrowthWorkloads {
    static let pointCount = 4
    static let valueSizes = [100, 4_096, 65_536]
    static let reads = 2_000
    static let pages = 50
    static let chunk = 1_000

    static var all: [Workload] { valueSizes.map(sweep) }

    static func name(_ size: Int) -> String {
        "growth.\(size >= 1_024 ? "\(size / 1_024)kib" : "\(size)b")"
    }

    /// The record counts of a sweep: up to the scale's limits, four counts a factor 10 apart,
    /// closer where the largest is small, so that the smallest holds at least 32 records (a
    /// page of 20 is full).
    static func points(_ limits: DatasetSpec.GrowthLimits, valueBytes: Int) -> [Int] {
        let top = max(64, min(limits.maxRecords, limits.maxBytes / valueBytes))
        let step = min(10, pow(Double(top) / 32, 1 / Double(pointCount - 1)))
        return (0..<pointCount).map { k in Int((Double(top) / pow(step, Double(pointCount - 1 - k))).rounded()) }
    }

    static let schema: Schema = {
        let item = EntityDescription("Item", primaryKey: "id", attributes: [
            Attribute("id", .int64), Attribute("rank", .int64), Attribute("payload", .bytes),
        ], indexes: [IndexDescription(["rank"])])
        return try! Schema(version: 1, entities: [item])
    }()

    static let page = Query("Item", sort: [SortKey(KeyPathExpression("rank"), ascending: false)], limit: 20)

    struct State: @unchecked Sendable {
        // @unchecked: used by the thread running the cell only.
        let repo: any Repository
        let directory: URL
        let points: [Int]
        let valueBytes: Int
        let seed: UInt64
        let residentAtStart: UInt64
    }

    static func sweep(_ size: Int) -> Workload {
        .define(name(size), .growth,
                "Grow a store of \(size)-byte records through four record counts (up to the scale's growth limits), \(chunk) inserts per write transaction; at each count time \(reads) random reads by key, \(pages) pages of the 20 largest of an indexed attribute, and the resident memory per record; time per operation is a read at the largest count",
                dataset: .empty, mutatesStore: true, largestScaleOnly: true, inQuickProfile: false,
                setup: { ctx in try start(ctx, size) },
                body: { _, s, timer in try grow(s, timer) },
                teardown: { s in
                    try? s.repo.close()
                    try? FileManager.default.removeItem(at: s.directory)
                })
    }

    static func start(_ ctx: WorkloadContext, _ size: Int) throws -> State {
        guard let open = ctx.openStore else { throw BenchError("growth workloads run on backends only") }
        var points = points(ctx.spec.growth ?? .standard, valueBytes: size)
        if ctx.isWarmUp { points = [points[0]] }
        ctx.record(GrowthSuite.Parameters.valueBytes, size)
        let dir = ctx.storeDirectory.deletingLastPathComponent().appendingPathComponent("growth-store")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let repo = try open(schema, dir)
        return State(repo: repo, directory: dir, points: points, valueBytes: size,
                     seed: ctx.generator.spec.seed &+ UInt64(ctx.repetition), residentAtStart: ResidentMemory.current() ?? 0)
    }
}
