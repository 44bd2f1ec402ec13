import Foundation
import StoreCore

/// Isolation: a read transaction never sees what a write transaction open on another thread
/// has done and not committed (inserts, updates, links, deletes, cascades), and a write rolled
/// back was never visible at all. Needs `concurrentReaders`: the read runs while the write is
/// open. Every wait is bounded; a reader that waits for the writer fails the case.
enum IsolationCases {
    struct Rollback: Error {}

    /// Runs `writes` in a write transaction on a thread of its own and, once they are done but
    /// not committed, `check` in a read transaction on the calling thread; then the writer
    /// commits (or rolls back when `commit` is false) and this returns.
    static func whileAWriteIsOpen(_ ctx: ConformanceContext, commit: Bool, timeout: Double = 10,
                                  _ writes: @escaping @Sendable (any WriteTransaction) throws -> Void,
                                  check: (any ReadTransaction) throws -> Void) throws {
        let repo = try ctx.repository
        let written = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let box = ErrorBox(), first = OnceFlag()
        Thread {
            do {
                try repo.write { tx in
                    try writes(tx)
                    // A store may run the closure again (LMDB after growing its map): wait once.
                    if first.take() {
                        written.signal()
                        if !CaseSupport.wait(checked, timeout) {
                            box.set("the read on another thread did not finish within \(timeout) s while this write was open: a read must not wait for a writer")
                        }
                    }
                    if !commit { throw Rollback() }
                }
            } catch is Rollback {
            } catch {
                box.set("the write on the other thread failed: \(error)")
            }
            if first.take() { written.signal() }
            finished.signal()
        }.start()
        guard CaseSupport.wait(written, timeout) else {
            throw ConformanceFailure("the write on the other thread did not get through its operations within \(timeout) s")
        }
        var failure: Error?
        if box.get() == nil {
            do { try ctx.read { try check($0) } } catch { failure = error }
        }
        checked.signal()
        guard CaseSupport.wait(finished, timeout) else {
            throw ConformanceFailure("the write on the other thread did not finish within \(timeout) s after the read")
        }
        if let e = box.get() { throw ConformanceFailure(e) }
        if let failure { throw failure }
    }

    static let all: [ConformanceCase] = [
        .seeded("isolation", "readerDoesNotSeeUncommittedInsertsUpdatesOrLinks", requires: .concurrentReaders) { ctx in
            let frank = try CaseSupport.user(ctx, 6, ["username": "frank"])
            let tag = try ctx.record("Tag", ["name": "new"])
            try whileAWriteIsOpen(ctx, commit: true, { tx in
                try tx.insert(frank)
                try tx.insert(tag)
                try tx.update("User", id: 1, set: ["username": "changed", "age": 99])
                try tx.link("Post", id: 15, "author", to: 2)
                try tx.link("Post", id: 15, "tags", to: "new")
                _ = try tx.update("Post", where: "published" == true, set: ["score": 100])
            }, check: { tx in
                try ctx.expect(try tx.fetch("User", id: 6) == nil, "a reader sees User 6, inserted by a write on another thread not yet committed")
                try ctx.expectEqual(try tx.fetch("User", id: 1)?["username"], "ann", "ann's username, changed by a write not yet committed")
                try ctx.expectEqual(try tx.count(Query("User")), 5, "users")
                try ctx.expectEqual(try tx.fetch(Query("User", where: "username" == "changed" || "age" == 99)).map(\.id), [], "users changed by the open write")
                try ctx.expect(try tx.fetch("Tag", id: "new") == nil, "a reader sees Tag 'new', inserted by a write not yet committed")
                try ctx.expectEqual(try tx.related("Post", id: 15, via: "author").map(\.id), [], "Post 15's author")
                try ctx.expectEqual(try tx.related("User", id: 2, via: "posts").map(\.id), ids(12), "bob's posts")
                try ctx.expectEqual(try tx.related("Post", id: 15, via: "tags").map(\.id), [], "Post 15's tags")
                try ctx.expectEqual(try tx.count(Query("Post", where: "score" == 100)), 0, "posts with score 100")
            })
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 6) }, frank, "User 6 once committed")
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["username"] }, "changed", "ann's username once committed")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 2, via: "posts").map(\.id) }, ids(12, 15), "bob's posts once committed")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Post", where: "score" == 100)) }, 4, "posts with score 100 once committed")
        },
        .seeded("isolation", "readerDoesNotSeeUncommittedDeletesOrUnlinks", requires: .concurrentReaders) { ctx in
            let before = try ctx.dump()
            try whileAWriteIsOpen(ctx, commit: false, { tx in
                try tx.delete("User", id: 1)   // cascades to posts 10 and 11, comments 100–104 and P1
                _ = try tx.delete("Post", where: "published" == false)
                try tx.unlink("Post", id: 13, "tags", from: "Unicode")
                try tx.unlink("User", id: 3, "following", from: 1)
            }, check: { tx in
                try ctx.expect(try tx.fetch("User", id: 1) != nil, "a reader misses ann, deleted by a write on another thread not yet committed")
                try ctx.expect(try tx.fetch("Post", id: 10) != nil, "a reader misses Post 10, deleted by a cascade not yet committed")
                try ctx.expect(try tx.fetch("Profile", id: .uuid(SocialFixture.profile1)) != nil, "a reader misses P1, deleted by a cascade not yet committed")
                try ctx.expectEqual(try tx.count(Query("Post")), 6, "posts")
                try ctx.expectEqual(try tx.fetch(Query("Comment")).map(\.id), ids(100, 101, 102, 103, 104), "comments")
                try ctx.expectEqual(try tx.related("User", id: 1, via: "posts").map(\.id), ids(10, 11), "ann's posts")
                try ctx.expectEqual(try tx.related("Post", id: 13, via: "tags").map(\.id), ["Unicode"], "Post 13's tags")
                try ctx.expectEqual(try tx.related("User", id: 1, via: "followers").map(\.id), ids(2, 3), "ann's followers")
            })
            try ctx.expectEqual(try ctx.dump(), before, "store after the write was rolled back")
        },
    ]
}

/// True for the first caller of `take()` only, on any thread. Internal.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false
    func take() -> Bool { lock.withLock { defer { taken = true }; return !taken } }
}
