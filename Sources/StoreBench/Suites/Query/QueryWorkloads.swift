import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// Queries over the loaded social dataset; each operation is one query in its own read
/// transaction, and every field of every result is read.
enum QueryWorkloads {
    static var all: [Workload] { definitions.map(workload) + [traversal, fullScan] }

    /// The workload of a definition: `operations.queries` operations (`operations.slowQueries`
    /// when it scans), each a query in its own read transaction on a backend and its floor query
    /// on a floor. The cell records the digest of its first operations' results (`ResultDigest`),
    /// on backends and floors alike.
    static func workload(_ d: QueryDefinition) -> Workload {
        .define(d.name, .query, d.summary,
                setup: { ctx in
                    var r = ctx.random()
                    let n = d.scans ? ctx.spec.operations.slowQueries : ctx.spec.operations.queries
                    return QueryBatch(try (0..<n).map { _ in try d.make(ctx, &r) })
                },
                body: { repo, batch, timer in
                    var sink = 0
                    try timer.each(batch.queries.count) { i in
                        sink &+= try repo.read { tx in d.counts ? try tx.count(batch.queries[i]) : Touch.records(try tx.fetch(batch.queries[i])) }
                    }
                    return sink
                },
                floor: { floor, batch, timer in try floor.runQueries(batch.floor, timer: timer) },
                results: { repo, batch in
                    try ResultDigest.digest(repo, batch.queries) { tx, q, digest in
                        if d.counts { digest.add(.int64(Int64(try tx.count(q)))) } else { for r in try tx.fetch(q) { digest.add(r) } }
                    }
                },
                floorResults: { floor, batch in try floor.queryDigest(Array(batch.floor.prefix(ResultDigest.checkedQueries))) })
    }

    static var traversal: Workload {
        .define("query.traversal", .query, "A random user's posts, then each post's comments (relationship traversal); one operation per user",
                setup: { ctx in ctx.randomKeys(ctx.spec.operations.queries, upTo: ctx.generator.users) },
                body: { repo, users, timer in
                    var sink = 0
                    try timer.each(users.count) { i in
                        try repo.read { tx in
                            for post in try tx.related("User", id: .int64(users[i]), via: "posts") {
                                sink &+= Touch.row(post)
                                sink &+= Touch.records(try tx.related("Post", id: post.id, via: "comments"))
                            }
                        }
                    }
                    return sink
                },
                floor: { floor, users, timer in try floor.runQueries(users.map { .postsAndComments(ofUser: $0) }, timer: timer) },
                results: { repo, users in
                    try ResultDigest.digest(repo, users) { tx, user, digest in
                        for post in try tx.related("User", id: .int64(user), via: "posts") {
                            digest.add(post)
                            for c in try tx.related("Post", id: post.id, via: "comments") { digest.add(c) }
                        }
                    }
                },
                floorResults: { floor, users in try floor.queryDigest(users.prefix(ResultDigest.checkedQueries).map { .postsAndComments(ofUser: $0) }) })
    }

    static var fullScan: Workload {
        .define("query.full-scan", .query, "Read every post, every field, in one read transaction (forEachPacked); one operation per post",
                setup: { ctx in ctx.spec.operations.scans },
                body: { repo, scans, timer in
                    var sink = 0
                    for _ in 0..<scans {
                        let start = MonotonicClock.now()
                        var rows = 0
                        try repo.read { tx in
                            try tx.forEachPacked(Query("Post")) { row in
                                sink &+= Touch.row(row)
                                rows += 1
                            }
                        }
                        timer.record(MonotonicClock.now() &- start, operations: rows)
                    }
                    return sink
                },
                floor: { floor, scans, timer in
                    var sink = 0
                    for _ in 0..<scans { sink &+= try floor.scanPosts(timer: timer) }
                    return sink
                })
    }
}

/// A query workload's operations: the queries a backend runs and, one for one, what its floor runs.
struct QueryBatch: Sendable {
    let queries: [Query]
    let floor: [FloorQuery]

    init(_ pairs: [(Query, FloorQuery)]) {
        queries = pairs.map(\.0)
        floor = pairs.map(\.1)
    }
}
