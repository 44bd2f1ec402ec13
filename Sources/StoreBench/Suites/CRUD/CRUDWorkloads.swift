import StoreCore
import StoreBenchKit

/// Single-record operations, each once with one transaction per operation (`.single`) and once
/// with `batchSize` operations per transaction (`.batched`).
enum CRUDWorkloads {
    static var all: [Workload] {
        [insert, readByKey, update, delete, upsert].flatMap { make in [make(false), make(true)] } + [readHot]
    }

    static func count(_ ctx: WorkloadContext, batched: Bool) -> Int {
        batched ? ctx.spec.operations.batched : ctx.spec.operations.single
    }

    static func mode(_ batched: Bool) -> String { batched ? "batched" : "single" }

    static func perTransaction(_ batched: Bool) -> String {
        batched ? "many per write transaction (batchSize)" : "one write transaction each"
    }

    /// The items of one repetition and how many go in one transaction when batched.
    struct Batch<T> {
        let items: [T]
        let size: Int
        init(_ ctx: WorkloadContext, _ items: [T]) {
            self.items = items
            size = ctx.spec.operations.batchSize
        }
    }

    /// Runs `op` for each item, one transaction each or `batch.size` per transaction; returns the count.
    static func writes<T>(_ repo: any Repository, _ batch: Batch<T>, batched: Bool, timer: OperationTimer,
                          _ op: (any WriteTransaction, T) throws -> Void) throws -> Int {
        let items = batch.items, batchSize = batch.size
        if !batched {
            try timer.each(items.count) { i in try repo.write { tx in try op(tx, items[i]) } }
            return items.count
        }
        try timer.batches(items.count, of: batchSize) { r in try repo.write { tx in for i in r { try op(tx, items[i]) } } }
        return items.count
    }

    static func insert(_ batched: Bool) -> Workload {
        .define("crud.insert.\(mode(batched))", .crud, "Insert a new user, \(perTransaction(batched))",
                mutatesStore: true,
                setup: { ctx in Batch(ctx, ctx.newUserIDs(count(ctx, batched: batched)).map(ctx.generator.user)) },
                body: { repo, input, timer in
                    try writes(repo, input, batched: batched, timer: timer) { tx, u in try tx.insert(u) }
                })
    }

    static func readByKey(_ batched: Bool) -> Workload {
        .define("crud.read-pk.\(mode(batched))", .crud,
                "Read a post by a random primary key, every field; \(batched ? "many per read transaction" : "one read transaction each")",
                setup: { ctx in (ctx.randomKeys(count(ctx, batched: batched), upTo: ctx.generator.posts), ctx.spec.operations.batchSize) },
                body: { repo, input, timer in
                    let (keys, size) = input
                    var sink = 0
                    if !batched {
                        try timer.each(keys.count) { i in sink &+= try repo.readByKey("Post", keys[i]) }
                    } else {
                        try timer.batches(keys.count, of: size) { r in
                            try repo.read { tx in for i in r { sink &+= try tx.touchByKey("Post", keys[i]) } }
                        }
                    }
                    return sink
                },
                floor: { floor, input, timer in try floor.readPosts(input.0, perTransaction: batched ? input.1 : 1, timer: timer) })
    }

    /// The same `batchSize` posts read again and again inside one read transaction, as an
    /// application re-reads what it shows: where a backend keeps an identity map, repeats are
    /// served from it. Each round (every hot post once) is one timed span.
    static var readHot: Workload {
        .define("crud.read-pk.hot", .crud,
                "Re-read `batchSize` hot posts by primary key, every field, round after round in one read transaction",
                setup: { ctx in
                    let hot = ctx.distinctKeys(ctx.spec.operations.batchSize, upTo: ctx.generator.posts)
                    return (hot, max(2, ctx.spec.operations.batched / max(1, hot.count)))
                },
                body: { repo, input, timer in
                    let (hot, rounds) = input
                    var sink = 0
                    try repo.read { tx in
                        for _ in 0..<rounds {
                            try timer.unit(operations: hot.count) {
                                for k in hot { sink &+= try tx.touchByKey("Post", k) }
                            }
                        }
                    }
                    return sink
                },
                floor: { floor, input, timer in try floor.rereadPosts(input.0, rounds: input.1, timer: timer) })
    }

    static func update(_ batched: Bool) -> Workload {
        .define("crud.update.\(mode(batched))", .crud, "Change two attributes of a random post (partial update), \(perTransaction(batched))",
                mutatesStore: true,
                setup: { ctx in Batch(ctx, ctx.randomKeys(count(ctx, batched: batched), upTo: ctx.generator.posts)) },
                body: { repo, input, timer in
                    try writes(repo, input, batched: batched, timer: timer) { tx, k in
                        try tx.update("Post", id: .int64(k), set: ["score": .int64(k % 997), "title": .string("edited \(k)")])
                    }
                })
    }

    static func delete(_ batched: Bool) -> Workload {
        .define("crud.delete.\(mode(batched))", .crud,
                "Delete a random comment (its replies cascade), \(perTransaction(batched))",
                mutatesStore: true,
                // Replies have larger ids than the comments they answer: deleting in descending
                // order never meets a comment a cascade already removed.
                setup: { ctx in Batch(ctx, ctx.distinctKeys(count(ctx, batched: batched), upTo: ctx.generator.comments).sorted(by: >)) },
                body: { repo, input, timer in
                    try writes(repo, input, batched: batched, timer: timer) { tx, k in try tx.delete("Comment", id: .int64(k)) }
                })
    }

    static func upsert(_ batched: Bool) -> Workload {
        .define("crud.upsert.\(mode(batched))", .crud,
                "Upsert a user, half of them existing (changed display name) and half new, \(perTransaction(batched))",
                mutatesStore: true,
                setup: { ctx -> Batch<Record> in
                    let n = count(ctx, batched: batched)
                    let fresh = ctx.newUserIDs(n / 2 + n % 2).map(ctx.generator.user)
                    let existing = ctx.distinctKeys(n / 2, upTo: ctx.generator.users).map { k -> Record in
                        var r = ctx.generator.user(k)
                        r.values[2] = .string("renamed \(k)")
                        return r
                    }
                    var out: [Record] = []
                    for i in 0..<max(fresh.count, existing.count) {
                        if i < existing.count { out.append(existing[i]) }
                        if i < fresh.count { out.append(fresh[i]) }
                    }
                    return Batch(ctx, out)
                },
                body: { repo, input, timer in
                    try writes(repo, input, batched: batched, timer: timer) { tx, r in try tx.upsert(r) }
                })
    }

}
