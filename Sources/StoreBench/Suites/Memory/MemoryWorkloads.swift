import StoreCore
import StoreBenchKit

/// Loading the social dataset (which builds the store every other social workload copies) and
/// walking all of it, with resident memory measured around both.
enum MemoryWorkloads {
    static var all: [Workload] { [load, walk, walkArray] }

    static let loadName = "memory.load"
    static let walkName = "memory.walk"
    static let walkArrayName = "memory.walk-array"

    static var load: Workload {
        .define(loadName, .memory,
                "Load the whole social dataset, 2,000 records per transaction (the transactions timed, not the generator); resident memory after the load, bytes per record in memory and on disk",
                loadsDataset: true,
                setup: { ctx in ctx },
                body: { repo, ctx, timer in
                    let g = ctx.generator
                    // Only the write transactions are timed: making the records is the
                    // generator's work, the same for every target.
                    var elapsed: UInt64 = 0
                    try g.loadChunks { records, links in
                        let start = MonotonicClock.now()
                        try g.write(records, links, into: repo)
                        elapsed &+= MonotonicClock.now() &- start
                    }
                    timer.record(elapsed, operations: g.recordCount)
                    if let now = ResidentMemory.current() {
                        ctx.report(MemorySuite.residentAfterLoad, Double(now) - Double(ctx.residentAtStart))
                    }
                    return g.recordCount
                },
                floor: { floor, ctx, timer in
                    try floor.loadSocial(ctx.generator, timer: timer)
                    return ctx.generator.recordCount
                })
    }

    static var walk: Workload {
        .define(walkName, .memory, "Read every record of every entity, every field (forEach, lazily); peak resident memory during the walk",
                setup: { ctx in ctx },
                body: { repo, ctx, timer in
                    try walkAll(repo, ctx, timer) { tx, query in
                        var sink = 0, rows = 0
                        try tx.forEach(query) { row in
                            sink &+= Touch.row(row)
                            rows += 1
                        }
                        return (sink, rows)
                    }
                })
    }

    /// The same walk with every entity's results converted to an array first (`fetch`), as
    /// code that maps a query to `[Record]` does: what lazy results save.
    static var walkArray: Workload {
        .define(walkArrayName, .memory, "Read every record of every entity, every field, each entity's results fetched into an array first; peak resident memory during the walk",
                setup: { ctx in ctx },
                body: { repo, ctx, timer in
                    try walkAll(repo, ctx, timer) { tx, query in
                        let all = try tx.fetch(query)
                        return (Touch.records(all), all.count)
                    }
                })
    }

    /// Walks User, Post, Comment and Tag with `visit` (checksum and rows), one read
    /// transaction each, timed per entity, and reports the peak resident memory above the
    /// resident memory before the walk began.
    static func walkAll(_ repo: any Repository, _ ctx: WorkloadContext, _ timer: OperationTimer,
                        _ visit: (any ReadTransaction, Query) throws -> (Int, Int)) throws -> Int {
        ResidentMemory.resetPeak()
        let before = ResidentMemory.current() ?? 0
        var sink = 0
        for entity in ["User", "Post", "Comment", "Tag"] {
            let start = MonotonicClock.now()
            let (touched, rows) = try repo.read { tx in try visit(tx, Query(entity)) }
            sink &+= touched
            timer.record(MonotonicClock.now() &- start, operations: rows)
        }
        if let peak = ResidentMemory.peak() {
            ctx.report(MemorySuite.walkPeak, max(ctx.reported(MemorySuite.walkPeak) ?? 0, Double(peak) - Double(before)))
        }
        return sink
    }
}
