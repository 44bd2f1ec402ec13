// A concurrency stress run for ThreadSanitizer (`make test-tsan`): reader threads beside a
// writer on SQLiteStore and on LMDBStore (whose small map grows while the readers read), and
// object-graph contexts saving and fetching on several threads, and queue-bound contexts whose
// observers are pushed those saves while other threads use them through `performAndWait`. Every thread checks what it
// reads; the process exits 1 on a wrong answer, and ThreadSanitizer ends it on a data race.
import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore

let schema = SocialSchema.make()
let users = schema["User"]!
let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 3
let failures = Failures()

/// Wrong answers seen by any thread.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func note(_ s: String) { lock.withLock { messages.append(s) } }
    var all: [String] { lock.withLock { messages } }
}

/// Runs `body(k)` on `n` threads until `seconds` pass; an error is a failure.
func onThreads(_ n: Int, _ label: String, _ body: @escaping @Sendable (Int, Date) throws -> Void) -> [Thread] {
    let deadline = Date().addingTimeInterval(seconds)
    return (0..<n).map { k in
        let t = Thread {
            do { try body(k, deadline) } catch { failures.note("\(label) \(k): \(error)") }
        }
        t.stackSize = 4 << 20
        t.start()
        return t
    }
}

func join(_ threads: [Thread]) { while threads.contains(where: { !$0.isFinished }) { usleep(10_000) } }

func user(_ id: Int) throws -> Record {
    try users.record(["id": .int64(Int64(id)), "username": .string("u\(id)"), "displayName": .string(String(repeating: "x", count: id % 300)),
                      "joinedAt": .date(Date(timeIntervalSince1970: Double(id)))])
}

/// Readers check that a snapshot is consistent: the count matches a scan, and every user the
/// writer inserted in one transaction (ten at a time) is there with all nine others.
func stress(_ store: any Repository, _ name: String) throws {
    let writer = onThreads(1, "\(name) writer") { _, deadline in
        var next = 1
        while Date() < deadline {
            try store.write { tx in
                for i in next..<(next + 10) { try tx.insert(try user(i)) }
                if next > 20 {
                    try tx.link("User", id: .int64(Int64(next)), "following", to: .int64(Int64(next - 15)))
                    try tx.update("User", id: .int64(Int64(next - 20)), set: ["age": .int64(Int64(next % 90))])
                }
            }
            next += 10
        }
    }
    let readers = onThreads(4, "\(name) reader") { k, deadline in
        while Date() < deadline {
            try store.read { tx in
                let all = try tx.fetch(Query("User"))
                let n = try tx.count(Query("User"))
                if n != all.count { failures.note("\(name) reader \(k): count \(n), scan \(all.count)") }
                if all.count % 10 != 0 { failures.note("\(name) reader \(k): \(all.count) users, not whole transactions") }
                var seen = 0
                try tx.forEach(Query("User", where: KeyPathExpression("age") >= .int64(0))) { _ in seen += 1 }
                if let last = all.last, last[0] != .null {
                    _ = try tx.related("User", id: last[0], via: "following")
                }
            }
        }
    }
    join(writer + readers)
    let report = try store.verify()
    if !report.isClean { failures.note("\(name): verify after the run: \(report.problems.prefix(3))") }
    try store.close()
}

/// Contexts on several threads: each inserts its own users and saves, fetches everything,
/// and reads related objects; saves reach the other contexts through the graph.
func stressGraph(_ graph: ObjectGraph) throws {
    let threads = onThreads(4, "graph context") { k, deadline in
        let context = graph.newContext()
        var next = 1_000_000 * (k + 1)
        while Date() < deadline {
            for i in next..<(next + 5) { _ = try context.insert(try user(i)) }
            try context.save()
            next += 5
            let fetched = try context.fetch(Query("User", where: KeyPathExpression("id") >= .int64(Int64(1_000_000 * (k + 1)))))
            if fetched.count < next - 1_000_000 * (k + 1) { failures.note("graph context \(k): saved users missing from a fetch") }
            for o in fetched.prefix(3) { _ = try o.value("username") }
        }
    }
    join(threads)
    try graph.close()
}

/// A queue-bound context shared between threads (what its queue is for).
struct SharedContext: @unchecked Sendable {
    let context: ObjectContext
}

/// The latest user count an observer was told, written on a context's queue.
final class LatestCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = -1
    func set(_ n: Int) { lock.withLock { value = n } }
    var current: Int { lock.withLock { value } }
}

/// Two queue-bound contexts (one coalescing) observe every user while threads save through
/// `write` and through their own contexts, another thread inserts through `performAndWait`, and
/// another observes and cancels from its own thread. Once the writers stop, each observer
/// must be told the final count without any merge call.
func stressPush(_ graph: ObjectGraph) throws {
    let viewers = [graph.newBackgroundContext(), graph.newBackgroundContext(delivery: .coalescing(.milliseconds(2)))]
    let latest = [LatestCount(), LatestCount()]
    let tokens = try zip(viewers, latest).map { context, count in
        try context.performAndWait { c in
            try c.observe(Query("User")) { change in
                switch change {
                case .initial(let all), .update(let all, _): count.set(all.count)
                case .error(let e): failures.note("push observer: \(e)")
                }
            }
        }
    }
    let shared = SharedContext(context: viewers[0])
    let threads = onThreads(4, "push") { k, deadline in
        var next = 2_000_000 * (k + 1)
        let own = graph.newContext()
        while Date() < deadline {
            switch k {
            case 0: try graph.write { tx in for i in next..<(next + 5) { try tx.insert(try user(i)) } }
            case 1:
                for i in next..<(next + 5) { _ = try own.insert(try user(i)) }
                try own.save()
            case 2:
                try shared.context.performAndWait { c in
                    for i in next..<(next + 5) { _ = try c.insert(try user(i)) }
                    try c.save()
                }
            default:
                let token = try shared.context.performAndWait { c in try c.observe(Query("User", limit: 3)) { _ in } }
                token.cancel()
            }
            next += 5
        }
    }
    join(threads)
    let stored = try graph.read { try $0.count(Query("User")) }
    let until = Date().addingTimeInterval(10)
    while latest.contains(where: { $0.current != stored }) && Date() < until { usleep(1_000) }
    for (i, count) in latest.enumerated() where count.current != stored {
        failures.note("push observer \(i): told \(count.current) users, the store holds \(stored)")
    }
    tokens.forEach { $0.cancel() }
    try graph.close()
}

let root = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-stress-\(UUID().uuidString)")
do {
    try stress(try SQLiteStore(directory: root.appendingPathComponent("sqlite"), schema: schema, options: StoreOptions(durability: .relaxed)), "sqlite")
    let lmdb = try LMDBStore(directory: root.appendingPathComponent("lmdb"), schema: schema, options: StoreOptions(durability: .relaxed),
                             mapSize: LMDBStore.MapSize(initial: 64 << 10, maximum: 1 << 32))
    try stress(lmdb, "lmdb")
    print("lmdb: the map grew \(lmdb.mapGrowths) times under the readers")
    if lmdb.mapGrowths == 0 { failures.note("lmdb: the map never grew; the run did not test growth under readers") }
    try stressGraph(ObjectGraph(store: try SQLiteStore(directory: root.appendingPathComponent("graph"), schema: schema,
                                                       options: StoreOptions(durability: .relaxed))))
    try stressPush(ObjectGraph(store: try SQLiteStore(directory: root.appendingPathComponent("push"), schema: schema,
                                                      options: StoreOptions(durability: .relaxed))))
} catch {
    failures.note("setup: \(error)")
}
try? FileManager.default.removeItem(at: root)
for f in failures.all.prefix(20) { print("FAILED: \(f)") }
print(failures.all.isEmpty ? "stress: every check held" : "stress: \(failures.all.count) failure(s)")
exit(failures.all.isEmpty ? 0 : 1)
