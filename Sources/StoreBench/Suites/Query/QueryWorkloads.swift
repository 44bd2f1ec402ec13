import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// Queries over the loaded social dataset; each operation is one query in its own read
/// transaction, and every field of every result is read.
enum QueryWorkloads {
    static var all: [Workload] {
        [indexedEquality, unindexedEquality, dateRange, containsCD, beginsWithC, sortPage, countWhere,
         toOneKeyPath, anyTag, postsCount, traversal, fullScan]
    }

    /// A workload that runs `operations.queries` queries made by `make` (`operations.slowQueries`
    /// when `scans` is set: the query reads a whole entity on some backend). The cell records
    /// the digest of its first queries' results (`ResultDigest`).
    static func queries(_ name: String, _ summary: String, scans: Bool = false,
                        _ make: @escaping @Sendable (WorkloadContext, inout SplitMix64) throws -> Query) -> Workload {
        .define(name, .query, summary,
                setup: { ctx in
                    var r = ctx.random()
                    let n = scans ? ctx.spec.operations.slowQueries : ctx.spec.operations.queries
                    return try (0..<n).map { _ in try make(ctx, &r) }
                },
                body: { repo, queries, timer in
                    var sink = 0
                    try timer.each(queries.count) { i in
                        sink &+= try repo.read { tx in Touch.records(try tx.fetch(queries[i])) }
                    }
                    return sink
                },
                results: { repo, queries in
                    try ResultDigest.digest(repo, queries) { tx, q, digest in for r in try tx.fetch(q) { digest.add(r) } }
                })
    }

    static var indexedEquality: Workload {
        queries("query.indexed-eq", "Posts with published == true AND score == k (the (published, score) index)") { _, r in
            try Query("Post", format: "published == true AND score == %@", .value(.int64(Int64(r.below(40)))))
        }
    }

    static var unindexedEquality: Workload {
        queries("query.unindexed-eq", "Users whose displayName equals a random user's (no index: a scan per query)", scans: true) { ctx, r in
            let name = ctx.generator.user(Int64(r.below(ctx.generator.users) + 1))[2]
            return try Query("User", format: "displayName == %@", .value(name))
        }
    }

    static var dateRange: Workload {
        queries("query.date-range", "Posts created in a random window of about 50 posts (createdAt BETWEEN, indexed)") { ctx, r in
            let first = Int64(r.below(max(1, ctx.generator.posts - 50)) + 1)
            return try Query("Post", format: "createdAt BETWEEN %@",
                             .list([.date(ctx.generator.postDate(first)), .date(ctx.generator.postDate(first + 50))]))
        }
    }

    static let fragments = ["ka", "TO", "mi", "Ra", "cafe", "zurich", "ユーザー", "SE", "ko"]

    static var containsCD: Workload {
        queries("query.contains-cd", "Users whose displayName CONTAINS[cd] a fragment (case and diacritics folded; a scan)", scans: true) { _, r in
            try Query("User", format: "displayName CONTAINS[cd] %@", .value(.string(r.pick(fragments) + r.pick(["", "to", "ri"]))))
        }
    }

    static var beginsWithC: Workload {
        queries("query.beginswith-c", "Users whose username BEGINSWITH[c] a two-syllable prefix (case folded)", scans: true) { _, r in
            let a = TextMaker.syllables[r.below(TextMaker.syllables.count)]
            let b = TextMaker.syllables[r.below(TextMaker.syllables.count)]
            return try Query("User", format: "username BEGINSWITH[c] %@", .value(.string((a + b).uppercased())))
        }
    }

    static var sortPage: Workload {
        queries("query.sort-page", "Newest posts first, a random page of 20 among the first 50 pages (sort + offset + limit)", scans: true) { _, r in
            Query("Post", sort: [.desc("createdAt")], limit: 20, offset: 20 * r.below(50))
        }
    }

    static var countWhere: Workload {
        .define("query.count", .query, "Count published posts with score > k (count with a predicate)",
                setup: { ctx in
                    var r = ctx.random()
                    return try (0..<ctx.spec.operations.queries).map { _ in
                        try Query("Post", format: "published == true AND score > %@", .value(.int64(Int64(r.below(200)))))
                    }
                },
                body: { repo, queries, timer in
                    var sink = 0
                    try timer.each(queries.count) { i in sink &+= try repo.read { tx in try tx.count(queries[i]) } }
                    return sink
                },
                results: { repo, queries in
                    try ResultDigest.digest(repo, queries) { tx, q, digest in digest.add(.int64(Int64(try tx.count(q)))) }
                })
    }

    static var toOneKeyPath: Workload {
        queries("query.keypath", "Posts whose author.username equals a random user's (to-one key path)", scans: true) { ctx, r in
            try Query("Post", format: "author.username == %@", .value(ctx.generator.user(Int64(r.below(ctx.generator.users) + 1))[1]))
        }
    }

    static var anyTag: Workload {
        queries("query.any-tag", "Posts with ANY tags.name == a random tag, first 100 by id (many-to-many)", scans: true) { ctx, r in
            try Query("Post", format: "ANY tags.name == %@", .value(.string(SocialGenerator.tagName(r.below(ctx.generator.tags) + 1))),
                      sort: [.asc("id")], limit: 100)
        }
    }

    static var postsCount: Workload {
        queries("query.posts-count", "Users with posts.@count > k (to-many aggregate)", scans: true) { _, r in
            try Query("User", format: "posts.@count > %@", .value(.int64(Int64(10 + r.below(30)))))
        }
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
                results: { repo, users in
                    try ResultDigest.digest(repo, users) { tx, user, digest in
                        for post in try tx.related("User", id: .int64(user), via: "posts") {
                            digest.add(post)
                            for c in try tx.related("Post", id: post.id, via: "comments") { digest.add(c) }
                        }
                    }
                })
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
