import Foundation
import StoreCore

/// Batch: bulk insert (atomic), update-where and delete-where with their counts.
enum BatchCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("batch", "insertMany") { ctx in
            let records = try (1...500).map { try CRUDCases.newUser(ctx, $0, "user\($0)") }
            try ctx.write { try $0.insert(contentsOf: records) }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 500, "users after a bulk insert")
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 250) }, records[249], "User 250")
        },
        ConformanceCase("batch", "insertIsAtomic") { ctx in
            try ctx.seed()
            let batch = try [CRUDCases.newUser(ctx, 2000, "a"), CRUDCases.newUser(ctx, 2001, "b"), CRUDCases.newUser(ctx, 1, "dup")]
            try ctx.write { tx in
                do { try tx.insert(contentsOf: batch); throw ConformanceFailure("a batch with a duplicate key succeeded") }
                catch let e as StoreError where e.category == .conflict {}
                try tx.insert(try CRUDCases.newUser(ctx, 3000, "c"))
            }
            try ctx.expectIDs(Query("User", where: "id" >= 1000), ids(3000), "users of the failed batch (none) and the later insert")
        },
        ConformanceCase("batch", "insertEmptyIsNoOp") { ctx in
            try ctx.seed()
            try ctx.write { try $0.insert(contentsOf: []) }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 5, "users")
        },
        ConformanceCase("batch", "updateWhere") { ctx in
            try ctx.seed()
            let n = try ctx.write { try $0.update("Post", where: "published" == false, set: ["score": 0]) }
            try ctx.expectEqual(n, 2, "posts updated")
            try ctx.expectIDs(Query("Post", where: "score" == 0), ids(12, 14))
            try ctx.expectEqual(try ctx.read { try $0.fetch("Post", id: 10)?["score"] }, 5, "untouched Post 10 score")
        },
        ConformanceCase("batch", "updateWhereSeveralAttributesThroughKeyPath") { ctx in
            try ctx.seed()
            let n = try ctx.write { try $0.update("Post", where: "author.username" == "ann", set: ["score": 7, "body": "x"]) }
            try ctx.expectEqual(n, 2, "posts updated")
            try ctx.expectIDs("Post", "score == 7 AND body == 'x'", are: ids(10, 11))
        },
        ConformanceCase("batch", "updateWhereNoMatch") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            try ctx.expectEqual(try ctx.write { try $0.update("Post", where: "score" > 100, set: ["score": 0]) }, 0, "count")
            try ctx.expectEqual(try ctx.dump(), before, "store after an update matching nothing")
        },
        ConformanceCase("batch", "updateWhereIsAtomic") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            // Two users get the same unique username: the second row conflicts, so neither changes.
            try ctx.expectError(.conflict, "update-where creating a duplicate username") {
                try ctx.write { _ = try $0.update("User", where: "age" == 30, set: ["username": "same"]) }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused update-where")
        },
        ConformanceCase("batch", "deleteWhere") { ctx in
            try ctx.seed()
            let n = try ctx.write { try $0.delete("Comment", where: try StorePredicate(format: "text BEGINSWITH 'H' OR text == 'Nice'")) }
            try ctx.expectEqual(n, 2, "comments deleted")
            try ctx.expectIDs(Query("Comment"), ids(100, 101, 102))
        },
        ConformanceCase("batch", "deleteWhereAppliesDeleteRules") { ctx in
            try ctx.seed()
            let n = try ctx.write { try $0.delete("User", where: "age" == 30) }
            try ctx.expectEqual(n, 2, "users deleted")
            try ctx.expectIDs(Query("User"), ids(2, 3, 5))
            try ctx.expectIDs(Query("Post"), ids(12, 13, 15), "posts left after cascading from ann and zoe")
        },
        ConformanceCase("batch", "deleteWhereIsAtomic") { ctx in
            try ctx.seed()
            try ctx.write { try $0.unlink("Post", id: 12, "tags", from: "db") }
            let before = try ctx.dump()
            // 'db' has no posts left and could go, but 'swift' is denied: nothing is deleted.
            try ctx.expectError(.constraintViolation, "deleting tags db and swift") {
                try ctx.write { _ = try $0.delete("Tag", where: "name" ~= .in(["db", "swift"])) }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused delete-where")
        },
        ConformanceCase("batch", "deleteWhereNoMatch") { ctx in
            try ctx.seed()
            try ctx.expectEqual(try ctx.write { try $0.delete("Post", where: "score" > 100) }, 0, "count")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Post")) }, 6, "posts")
        },
    ]
}
