import Foundation
import StoreCore
import StoreBenchKit

/// Many records per statement or transaction.
enum BatchWorkloads {
    static var all: [Workload] { [bulkInsert, chunkedInsert, updateWhere, deleteWhere] }

    static var bulkInsert: Workload {
        .define("batch.bulk-insert", .batch, "Insert `bulk` new users in one write transaction (insert(contentsOf:))",
                mutatesStore: true,
                setup: { ctx in ctx.newUserIDs(ctx.spec.operations.bulk).map(ctx.generator.user) },
                body: { repo, users, timer in
                    try timer.unit(operations: users.count) { try repo.write { tx in try tx.insert(contentsOf: users) } }
                    return users.count
                },
                floor: { floor, users, timer in
                    try floor.insertUsers(users.map(UserInput.init), timer: timer)
                    return users.count
                })
    }

    static var chunkedInsert: Workload {
        .define("batch.chunked-insert", .batch, "Insert `bulk` new users, `chunk` per write transaction",
                mutatesStore: true,
                setup: { ctx in
                    let users = ctx.newUserIDs(ctx.spec.operations.bulk).map(ctx.generator.user), chunk = ctx.spec.operations.chunk
                    return stride(from: 0, to: users.count, by: chunk).map { Array(users[$0..<min(users.count, $0 + chunk)]) }
                },
                body: { repo, parts, timer in
                    try timer.units(parts) { part in try repo.write { tx in try tx.insert(contentsOf: part) } }
                    return parts.reduce(0) { $0 + $1.count }
                })
    }

    static var updateWhere: Workload {
        .define("batch.update-where", .batch,
                "Unpublish every published post with score < 50 in one update(where:); one operation per changed row",
                mutatesStore: true,
                setup: { _ in StorePredicate.and([KeyPathExpression("published") == true, KeyPathExpression("score") < 50]) },
                body: { repo, predicate, timer in
                    let start = MonotonicClock.now()
                    let n = try repo.write { tx in try tx.update("Post", where: predicate, set: ["published": false]) }
                    timer.record(MonotonicClock.now() &- start, operations: max(n, 1))
                    return n
                })
    }

    static var deleteWhere: Workload {
        .define("batch.delete-where", .batch,
                "Delete the oldest third of the comments (createdAt before a date) in one delete(where:); one operation per deleted row",
                mutatesStore: true,
                setup: { ctx in
                    let cut = ctx.generator.postDate(Int64(ctx.generator.posts / 3))
                    return KeyPathExpression("createdAt") < .date(cut)
                },
                body: { repo, predicate, timer in
                    let start = MonotonicClock.now()
                    let n = try repo.write { tx in try tx.delete("Comment", where: predicate) }
                    timer.record(MonotonicClock.now() &- start, operations: max(n, 1))
                    return n
                })
    }
}
