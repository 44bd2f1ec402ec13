import Foundation
import StoreCore

/// Transactions: atomic rollback on throw, read-your-writes, snapshot reads, concurrency.
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
    ]
}

/// A thread-safe slot for the first error message seen by helper threads. Internal.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func set(_ m: String) { lock.withLock { if message == nil { message = m } } }
    func get() -> String? { lock.withLock { message } }
}
