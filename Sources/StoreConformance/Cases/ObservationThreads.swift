import Foundation
import StoreCore

/// Two observers, each on a thread of its own, and commits from a third: both see every
/// change (the observation case `everyObserverOnEveryThreadSees`).
enum ObservationThreads {
    static func run(_ ctx: ConformanceContext) throws {
        let repository = try ctx.repository
        let query = Query("User", sort: [.asc("id")])
        let expected = ids(1, 2, 3, 4, 7)
        let ready = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let outcomes = Locked<[String]>([])
        for observer in 1...2 {
            Thread.detachNewThread {
                defer { done.signal() }
                do {
                    let watched = try WatchedResults(repository, query)
                    ready.signal()
                    try watched.follow(until: expected, modifying: [1], "commits of another thread (observer \(observer))")
                } catch {
                    ready.signal()
                    outcomes.withLock { $0.append("observer \(observer): \(error)") }
                }
            }
        }
        for _ in 1...2 { try ctx.expect(CaseSupport.wait(ready, 10), "an observer thread did not start within 10 s") }
        let committed = DispatchSemaphore(value: 0)
        let commitError = Locked<(any Error)?>(nil)
        Thread.detachNewThread {
            defer { committed.signal() }
            do {
                try repository.write { tx in try tx.delete("User", id: 5) }
                try repository.write { tx in
                    try tx.insert(try tx.schema.entity("User").record(["id": 7, "username": "gus", "displayName": "Gus", "joinedAt": .date(Date())]))
                    try tx.update("User", id: 1, set: ["age": 70])
                }
            } catch { commitError.withLock { $0 = error } }
        }
        try ctx.expect(CaseSupport.wait(committed, 10), "the committing thread did not finish within 10 s")
        if let e = commitError.withLock({ $0 }) { throw e }
        for _ in 1...2 { try ctx.expect(CaseSupport.wait(done, 20), "an observer did not see the commits within 20 s") }
        let failures = outcomes.withLock { $0 }
        try ctx.expect(failures.isEmpty, failures.joined(separator: "; "))
    }
}
