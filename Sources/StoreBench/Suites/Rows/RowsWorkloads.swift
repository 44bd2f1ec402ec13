import StoreCore
import StoreBenchKit

/// The 10-integer row shape of GRDB's performance suite, so results sit next to a published
/// method: insert `rows.insert` rows in one transaction, fetch all `rows.fetch` rows.
enum RowsWorkloads {
    static var all: [Workload] { [load, insert, fetch] }

    static var load: Workload {
        .define("rows.load", .rows, "Store `rows.fetch` rows of 10 integers, 10,000 per transaction, each timed (builds the rows store)",
                dataset: .rows, loadsDataset: true,
                setup: { ctx in ctx },
                body: { repo, ctx, timer in
                    // Each transaction is timed; making its rows (the generator's work) is not.
                    let count = ctx.spec.rows.fetch
                    for first in stride(from: 1, through: count, by: SocialGenerator.rowsChunk) {
                        let rows = (Int64(first)...Int64(min(count, first + SocialGenerator.rowsChunk - 1))).map(ctx.generator.row)
                        try timer.unit(operations: rows.count) { try repo.write { tx in try tx.insert(contentsOf: rows) } }
                    }
                    return count
                },
                floor: { floor, ctx, timer in
                    try floor.loadRows(ctx.generator, count: ctx.spec.rows.fetch, timer: timer)
                    return ctx.spec.rows.fetch
                })
    }

    static var insert: Workload {
        .define("rows.insert", .rows, "Insert `rows.insert` rows of 10 integers one by one in one write transaction",
                dataset: .rows, mutatesStore: true,
                setup: { ctx in
                    let first = Int64(ctx.spec.rows.fetch) + 1
                    return (first, (first..<(first + Int64(ctx.spec.rows.insert))).map(ctx.generator.row))
                },
                body: { repo, input, timer in
                    let rows = input.1
                    try timer.unit(operations: rows.count) { try repo.write { tx in for r in rows { try tx.insert(r) } } }
                    return rows.count
                },
                floor: { floor, input, timer in
                    try floor.insertRows(first: input.0, count: input.1.count, timer: timer)
                    return input.1.count
                })
    }

    static var fetch: Workload {
        .define("rows.fetch", .rows, "Read all `rows.fetch` rows, every column, in one read transaction (forEachPacked: typed reads, no dispatch per field)",
                dataset: .rows,
                setup: { _ in () },
                body: { repo, _, timer in
                    var sink = 0, rows = 0
                    let start = MonotonicClock.now()
                    try repo.read { tx in
                        try tx.forEachPacked(Query("Row")) { row in
                            sink &+= Touch.intRow { row.int64(at: $0) }
                            rows += 1
                        }
                    }
                    timer.record(MonotonicClock.now() &- start, operations: rows)
                    return sink
                },
                floor: { floor, _, timer in try floor.fetchRows(timer: timer) })
    }
}
