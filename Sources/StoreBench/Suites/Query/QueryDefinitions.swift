import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// One query workload: what each of its operations asks, as the `Query` a backend runs and the
/// `FloorQuery` its engine's floor runs (`QueryWorkloads.workload` makes the workload).
struct QueryDefinition: Sendable {
    let name: String
    let summary: String
    /// The query reads a whole entity on some backend: `operations.slowQueries` of them.
    var scans = false
    /// The operation counts (`ReadTransaction.count`) instead of fetching.
    var counts = false
    let make: @Sendable (WorkloadContext, inout SplitMix64) throws -> (Query, FloorQuery)
}

extension QueryWorkloads {
    static let fragments = ["ka", "TO", "mi", "Ra", "cafe", "zurich", "ユーザー", "SE", "ko"]

    /// The query workloads that run one `Query` per operation, in the suite's order.
    static let definitions: [QueryDefinition] = [
        QueryDefinition(name: "query.indexed-eq", summary: "Posts with published == true AND score == k (the (published, score) index)") { _, r in
            let k = Int64(r.below(40))
            return (try Query("Post", format: "published == true AND score == %@", .value(.int64(k))), .publishedPostsScoring(k))
        },
        QueryDefinition(name: "query.unindexed-eq", summary: "Users whose displayName equals a random user's (no index: a scan per query)", scans: true) { ctx, r in
            let name = ctx.generator.user(Int64(r.below(ctx.generator.users) + 1))[2]
            return (try Query("User", format: "displayName == %@", .value(name)), .usersNamed(name.stringValue!))
        },
        QueryDefinition(name: "query.date-range", summary: "Posts created in a random window of about 50 posts (createdAt BETWEEN, indexed)") { ctx, r in
            let first = Int64(r.below(max(1, ctx.generator.posts - 50)) + 1)
            let (from, through) = (ctx.generator.postDate(first), ctx.generator.postDate(first + 50))
            return (try Query("Post", format: "createdAt BETWEEN %@", .list([.date(from), .date(through)])),
                    .postsCreated(from: from.timeIntervalSince1970, through: through.timeIntervalSince1970))
        },
        QueryDefinition(name: "query.contains-cd", summary: "Users whose displayName CONTAINS[cd] a fragment (case and diacritics folded; a scan)", scans: true) { _, r in
            let fragment = r.pick(fragments) + r.pick(["", "to", "ri"])
            return (try Query("User", format: "displayName CONTAINS[cd] %@", .value(.string(fragment))), .usersWithNameContaining(fragment))
        },
        QueryDefinition(name: "query.beginswith-c", summary: "Users whose username BEGINSWITH[c] a two-syllable prefix (case folded)", scans: true) { _, r in
            let a = TextMaker.syllables[r.below(TextMaker.syllables.count)]
            let b = TextMaker.syllables[r.below(TextMaker.syllables.count)]
            let prefix = (a + b).uppercased()
            return (try Query("User", format: "username BEGINSWITH[c] %@", .value(.string(prefix))), .usersWithUsernamePrefix(prefix))
        },
        QueryDefinition(name: "query.sort-page", summary: "Newest posts first, a random page of 20 among the first 50 pages (sort + offset + limit)", scans: true) { _, r in
            let offset = 20 * r.below(50)
            return (Query("Post", sort: [.desc("createdAt")], limit: 20, offset: offset), .newestPosts(limit: 20, offset: offset))
        },
        QueryDefinition(name: "query.count", summary: "Count published posts with score > k (count with a predicate)", counts: true) { _, r in
            let k = Int64(r.below(200))
            return (try Query("Post", format: "published == true AND score > %@", .value(.int64(k))), .countPublishedPostsScoringAbove(k))
        },
        QueryDefinition(name: "query.keypath", summary: "Posts whose author.username equals a random user's (to-one key path)", scans: true) { ctx, r in
            let username = ctx.generator.user(Int64(r.below(ctx.generator.users) + 1))[1]
            return (try Query("Post", format: "author.username == %@", .value(username)), .postsByAuthor(username: username.stringValue!))
        },
        QueryDefinition(name: "query.any-tag", summary: "Posts with ANY tags.name == a random tag, first 100 by id (many-to-many)", scans: true) { ctx, r in
            let tag = SocialGenerator.tagName(r.below(ctx.generator.tags) + 1)
            return (try Query("Post", format: "ANY tags.name == %@", .value(.string(tag)), sort: [.asc("id")], limit: 100), .postsTagged(tag, limit: 100))
        },
        QueryDefinition(name: "query.posts-count", summary: "Users with posts.@count > k (to-many aggregate)", scans: true) { _, r in
            let k = Int64(10 + r.below(30))
            return (try Query("User", format: "posts.@count > %@", .value(.int64(k))), .usersWithMorePosts(than: k))
        },
    ]
}
