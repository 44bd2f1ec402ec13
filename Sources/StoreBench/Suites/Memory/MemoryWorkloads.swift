import StoreCore
import StoreBenchKit

/// Loading the social dataset (which builds the store every other social workload copies) and
/// walking all of it, with resident memory measured around both.
enum MemoryWorkloads {
    static var all: [Workload] { [load, walk] }

    static let loadName = "memory.load"
    static let walkName = "memory.walk"

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
        .define(walkName, .memory, "Read every record of every entity, every field (forEach); peak resident memory during the walk",
                setup: { ctx in ctx },
                body: { repo, ctx, timer in
                    ResidentMemory.resetPeak()
                    let before = ResidentMemory.current() ?? 0
                    var sink = 0
                    for entity in ["User", "Post", "Comment", "Tag"] {
                        let start = MonotonicClock.now()
                        var rows = 0
                        try repo.read { tx in
                            try tx.forEach(Query(entity)) { row in
                                sink &+= Touch.row(row)
                                rows += 1
                            }
                        }
                        timer.record(MonotonicClock.now() &- start, operations: rows)
                    }
                    if let peak = ResidentMemory.peak() {
                        ctx.report(MemorySuite.walkPeak, max(ctx.reported(MemorySuite.walkPeak) ?? 0, Double(peak) - Double(before)))
                    }
                    return sink
                })
    }
}
