import Foundation
import StoreCore

/// Transactions: atomic rollback on throw, read-your-writes, snapshot reads, concurrency; the
/// first error wins, and a caught error of any kind leaves the transaction usable.
enum TransactionCases {
    struct Abort: Error {}

    static let all: [ConformanceCase] = [
        ConformanceCase("transactions", "rollbackOnThrow") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            do {
                try ctx.write { tx in
                    try tx.insert(try CRUDCases.newUser(ctx, 6, "frank"))
                    try tx.update("User", id: 1, set: ["age": 99])
                    try tx.delete("Post", id: 15)
                    try tx.link("Post", id: 14, "tags", to: "db")
                    throw Abort()
                }
            } catch is Abort {}
            try ctx.expectEqual(try ctx.dump(), before, "store after a rolled-back write")
        },
        ConformanceCase("transactions", "errorIsRethrownUnchanged") { ctx in
            struct Marker: Error, Equatable { let n: Int }
            do {
                try ctx.write { _ in throw Marker(n: 7) }
                throw ConformanceFailure("write did not rethrow the closure's error")
            } catch let m as Marker {
                try ctx.expectEqual(m, Marker(n: 7), "rethrown error")
            }
        },
        ConformanceCase("transactions", "readYourWrites") { ctx in
            try ctx.seed()
            try ctx.write { tx in
                try tx.insert(try CRUDCases.newUser(ctx, 6, "frank"))
                try ctx.expect(try tx.fetch("User", id: 6) != nil, "inserted User 6 invisible to its own transaction")
                try ctx.expectEqual(try tx.count(Query("User")), 6, "count inside the transaction")
                try ctx.expectEqual(try tx.fetch(Query("User", where: "username" == "frank")).map(\.id), ids(6), "query inside the transaction")
                try tx.update("User", id: 6, set: ["age": 33])
                try ctx.expectEqual(try tx.fetch("User", id: 6)?["age"], 33, "updated age inside the transaction")
                try tx.link("Post", id: 15, "author", to: 6)
                try ctx.expectEqual(try tx.related("User", id: 6, via: "posts").map(\.id), ids(15), "new link inside the transaction")
                try tx.delete("User", id: 2)
                try ctx.expect(try tx.fetch("User", id: 2) == nil, "deleted User 2 still visible to its own transaction")
            }
        },
        ConformanceCase("transactions", "committedWritesVisibleToLaterReads") { ctx in
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 6, "frank")) }
            try ctx.expect(try ctx.read { try $0.fetch("User", id: 6) } != nil, "committed User 6 not visible")
        },
        ConformanceCase("transactions", "failedOperationLeavesTransactionUsable") { ctx in
            try ctx.seed()
            try ctx.write { tx in
                do { try tx.insert(try CRUDCases.newUser(ctx, 1, "dup")); throw ConformanceFailure("duplicate insert succeeded") }
                catch let e as StoreError where e.category == .conflict {}
                try tx.insert(try CRUDCases.newUser(ctx, 6, "frank"))
            }
            try ctx.expect(try ctx.read { try $0.fetch("User", id: 6) } != nil, "User 6 inserted after a caught error was not committed")
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["username"] }, "ann", "User 1 after the refused duplicate")
        },
        ConformanceCase("transactions", "closuresReturnValues") { ctx in
            try ctx.seed()
            let n = try ctx.write { tx -> Int in try tx.count(Query("Post")) }
            try ctx.expectEqual(n, 6, "value returned by write")
            let t = try ctx.read { tx in try tx.fetch("Post", id: 10)?["title"] }
            try ctx.expectEqual(t, "Café au lait", "value returned by read")
        },
        ConformanceCase("transactions", "snapshotReadIgnoresConcurrentCommit", requires: .snapshotReads) { ctx in
            try ctx.seed()
            let repo = try ctx.repository
            let frank = try CRUDCases.newUser(ctx, 6, "frank")
            let (first, second, writerError) = try ctx.read { tx -> (Int, Int, String?) in
                let first = try tx.count(Query("User"))
                let firstName = try tx.fetch("User", id: 1)?["username"]
                let done = DispatchSemaphore(value: 0)
                let box = ErrorBox()
                let t = Thread {
                    do {
                        try repo.write { w in
                            try w.insert(frank)
                            try w.update("User", id: 1, set: ["username": "changed"])
                        }
                    } catch { box.set("\(error)") }
                    done.signal()
                }
                t.start()
                guard done.wait(timeout: .now() + 10) == .success else {
                    return (first, -1, "the writer did not finish within 10 s while a reader was open")
                }
                let second = try tx.count(Query("User"))
                if try tx.fetch("User", id: 1)?["username"] != firstName { return (first, -2, nil) }
                return (first, second, box.get())
            }
            if let writerError { throw ConformanceFailure("concurrent writer: \(writerError)") }
            try ctx.expect(second != -2, "a read transaction saw another transaction's update")
            try ctx.expectEqual(second, first, "user count inside one read transaction after a concurrent commit")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 6, "user count in a later read")
        },
        // Found by a new user's caching wrapper, which served a transaction's first fetch from
        // its cache before the engine's snapshot existed: the snapshot must hold from the first
        // read, whatever kind of read that is.
        ConformanceCase("transactions", "snapshotHoldsFromTheFirstReadOfAnyKind", requires: .snapshotReads) { ctx in
            try ctx.seed()
            let repo = try ctx.repository
            let firstReads: [(String, (any ReadTransaction) throws -> Void)] = [
                ("fetch by key", { _ = try $0.fetch("User", id: 1) }),
                ("fetch of a query", { _ = try $0.fetch(Query("User", where: "id" == 1)) }),
                ("count", { _ = try $0.count(Query("User")) }),
                ("related", { _ = try $0.related("User", id: 1, via: "posts") }),
                ("forEach", { try $0.forEach(Query("User", where: "id" == 1)) { _ in } }),
            ]
            for (round, (kind, firstRead)) in firstReads.enumerated() {
                let before = try ctx.read { try $0.fetch("User", id: 1) }
                let users = try ctx.read { try $0.count(Query("User")) }
                let newcomer = try CRUDCases.newUser(ctx, 100 + round, "new\(round)")
                let seen = try ctx.read { tx -> (Record?, Int, String?) in
                    try firstRead(tx)
                    let done = DispatchSemaphore(value: 0)
                    let box = ErrorBox()
                    Thread {
                        do {
                            try repo.write { w in
                                try w.update("User", id: 1, set: ["username": .string("changed\(round)")])
                                try w.insert(newcomer)
                            }
                        } catch { box.set("\(error)") }
                        done.signal()
                    }.start()
                    guard done.wait(timeout: .now() + 10) == .success else {
                        return (nil, -1, "the writer did not finish within 10 s while a reader was open")
                    }
                    return (try tx.fetch("User", id: 1), try tx.count(Query("User")), box.get())
                }
                if let writerError = seen.2 { throw ConformanceFailure("concurrent writer after a first \(kind): \(writerError)") }
                try ctx.expectEqual(seen.0, before, "User 1 read after a concurrent commit, in a transaction whose first read was a \(kind)")
                try ctx.expectEqual(seen.1, users, "users counted after a concurrent commit, in a transaction whose first read was a \(kind)")
            }
        },
        ConformanceCase("transactions", "concurrentReadersAndWriter", requires: .concurrentReaders) { ctx in
            try ctx.seed()
            let repo = try ctx.repository
            let box = ErrorBox()
            let group = DispatchGroup()
            for t in 0..<4 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        for _ in 0..<100 {
                            let (n, m) = try repo.read { tx in (try tx.count(Query("User")), try tx.fetch(Query("User")).count) }
                            if n != m || n < 5 || n > 55 { box.set("reader \(t) saw count \(n) but fetched \(m)") }
                        }
                    } catch { box.set("reader \(t): \(error)") }
                }.start()
            }
            for i in 6...55 { try repo.write { try $0.insert(try CRUDCases.newUser(ctx, i, "u\(i)")) } }
            guard group.wait(timeout: .now() + 60) == .success else { throw ConformanceFailure("readers did not finish in 60 s") }
            if let e = box.get() { throw ConformanceFailure(e) }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 55, "users after concurrent writes")
        },
        .seeded("transactions", "firstErrorWins") { ctx in
            // The error that ends a closure reaches the caller as it was thrown (category, message,
            // native code), never replaced by one from the rollback after it.
            var thrown: StoreError?
            do {
                try ctx.write { tx in
                    try tx.update("User", id: 2, set: ["age": 26])
                    do { try tx.insert(try CRUDCases.newUser(ctx, 1, "dup")) } catch let e as StoreError { thrown = e; throw e }
                    throw ConformanceFailure("inserting User 1 twice succeeded")
                }
                throw ConformanceFailure("a write whose closure threw succeeded")
            } catch let e as StoreError {
                try ctx.expectEqual(thrown, e, "the error write() threw, against the one the closure threw")
            }
            var queryError: StoreError?
            do {
                _ = try ctx.read { tx -> [Record] in
                    do { return try tx.fetch(Query("User", where: "nope" == 1)) } catch let e as StoreError { queryError = e; throw e }
                }
                throw ConformanceFailure("a query on an unknown attribute succeeded")
            } catch let e as StoreError {
                try ctx.expectEqual(queryError, e, "the error read() threw, against the one the closure threw")
            }
            // A closure that caught a store error and then threw its own: its own wins.
            struct Marker: Error {}
            do {
                try ctx.write { tx in
                    do { try tx.delete("Tag", id: "swift") } catch is StoreError {}
                    throw Marker()
                }
                throw ConformanceFailure("a write whose closure threw succeeded")
            } catch is Marker {}
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 2)?["age"] }, 25, "bob's age after the rolled-back write")
        },
        .seeded("transactions", "caughtErrorsOfEveryKindKeepTheTransactionUsable") { ctx in
            // After any refused operation, caught by the closure, the transaction reads and writes
            // on, with the work before it kept and nothing of the refused operation left.
            try ctx.write { tx in
                try tx.insert(try CaseSupport.user(ctx, 6))
                let attempts: [(StoreError.Category, String, () throws -> Void)] = [
                    (.conflict, "a batch holding a duplicate key", { try tx.insert(contentsOf: [try CaseSupport.user(ctx, 7), try CaseSupport.user(ctx, 1)]) }),
                    (.conflict, "an update-where giving two users one username", { _ = try tx.update("User", where: "age" == 30, set: ["username": "same"]) }),
                    (.constraintViolation, "a delete-where reaching a denied tag", { _ = try tx.delete("Tag", where: "name" ~= .in(["cafe", "swift"])) }),
                    (.constraintViolation, "deleting a denied tag", { try tx.delete("Tag", id: "swift") }),
                    (.notFound, "linking to a missing tag", { try tx.link("Post", id: 10, "tags", to: "nope") }),
                    (.notFound, "updating a missing user", { try tx.update("User", id: 99, set: ["age": 1]) }),
                    (.conflict, "updating to a taken username", { try tx.update("User", id: 6, set: ["username": "ann"]) }),
                    (.invalidValue, "a batch with a NaN", { try tx.insert(contentsOf: [try CaseSupport.user(ctx, 8, ["score": .double(.nan)])]) }),
                    (.invalidQuery, "a query on an unknown attribute", { _ = try tx.count(Query("User", where: "nope" == 1)) }),
                ]
                for (category, what, attempt) in attempts {
                    do {
                        try attempt()
                        throw ConformanceFailure("\(what) succeeded")
                    } catch let e as StoreError {
                        if e.category != category { throw ConformanceFailure("\(what): expected \(category.rawValue), got \(e)") }
                    }
                    try ctx.expectEqual(try tx.count(Query("User")), 6, "users after \(what), in the same transaction")
                }
                try tx.insert(try CaseSupport.user(ctx, 7))
                try tx.update("User", id: 6, set: ["age": 40])
                try tx.link("Post", id: 15, "author", to: 6)
                try tx.unlink("Post", id: 12, "tags", from: "db")
                try tx.delete("Tag", id: "db")
            }
            try ctx.expectIDs(Query("User"), ids(1, 2, 3, 4, 5, 6, 7), "users after the transaction")
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 6)?["age"] }, 40, "User 6's age")
            try ctx.expectEqual(try ctx.read { try $0.related("Post", id: 15, via: "author").map(\.id) }, ids(6), "Post 15's author")
            try ctx.expectIDs(Query("User", where: "username" == "same"), [], "users renamed by the refused update-where")
            try ctx.expectIDs(Query("Tag"), ["Unicode", "cafe", "swift"], "tags after the transaction")
            try ctx.expectEqual(try ctx.read { try $0.related("Post", id: 10, via: "tags").map(\.id) }, ["Unicode", "cafe"], "Post 10's tags")
        },
        // Added after the held-back measurement (batchInsertSurvivesRollback).
        ConformanceCase("transactions", "batchOperationsRollBackWithTheirTransaction") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            struct Abort: Error {}
            do {
                try ctx.write { tx in
                    try tx.insert(contentsOf: [try CRUDCases.newUser(ctx, 2000, "a"), try CRUDCases.newUser(ctx, 2001, "b")])
                    _ = try tx.update("Post", where: "published" == true, set: ["score": 0])
                    _ = try tx.delete("Comment", where: .all)
                    throw Abort()
                }
            } catch is Abort {}
            try ctx.expectEqual(try ctx.dump(), before, "store after a rolled-back batch insert, update-where and delete-where")
        },
    ]
}

/// A thread-safe slot for the first error message seen by helper threads. Internal.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func set(_ m: String) { lock.withLock { if message == nil { message = m } } }
    func get() -> String? { lock.withLock { message } }
}
