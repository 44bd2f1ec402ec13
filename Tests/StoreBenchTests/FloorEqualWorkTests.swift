import CSQLite
import Foundation
import LMDBStore
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// A floor must do exactly its workload's work: read the same values (the same checksum over
/// every field), run the same transactions, leave the same content, and allocate nothing per
/// operation a C loop would not. Each test runs a workload's own prepared bodies, backend and
/// floor, on the same inputs: the tiny dataset loaded into the floor and into the engine's
/// backend (SQLiteStore for sqlite, LMDBStore for lmdb).
@Suite struct FloorEqualWorkTests {
    static let floorWorkloads = WorkloadRegistry.all.filter { $0.hasFloor && !$0.namedProgramsOnly }.map(\.name)

    @Test(arguments: Floors.engines, floorWorkloads)
    func floorDoesItsWorkloadsWork(engine: String, workload: String) throws {
        let pair = try FloorPair(engine)
        let w = try #require(WorkloadRegistry.named(workload))
        // The store the workload runs on, built on each side by its dataset's load workload
        // (none for a workload that starts from an empty store).
        if let loader = WorkloadRegistry.loader(of: w.dataset) {
            let load = try pair.run(loader.name)
            #expect(load.floor == load.backend, "\(engine) \(loader.name): floor \(load.floor) vs backend \(load.backend)")
        } else {
            #expect(w.dataset == .empty, "\(workload): no load for its dataset")
        }
        if !w.loadsDataset {
            let r = try pair.run(workload)
            #expect(r.floor.transactions == r.backend.transactions,
                    "\(engine) \(workload): the floor began \(r.floor.transactions) transactions, the backend \(r.backend.transactions)")
            #expect(r.floor.sink == r.backend.sink, "\(engine) \(workload): floor checksum \(r.floor.sink) vs backend \(r.backend.sink)")
            #expect(r.floor.operations == r.backend.operations, "\(engine) \(workload): operations")
            #expect(r.floor.digest == r.backend.digest, "\(engine) \(workload): the floor's rows or their order differ from the backend's")
        }
        // Same content afterwards: every field of every post, user and row.
        let contents = try pair.contents()
        #expect(contents.floor == contents.backend, "\(engine) \(workload): floor stores \(contents.floor), backend \(contents.backend)")
        if w.dataset == .social {
            // Every record and every link the backends store (they are checked against the
            // generator by FixtureTests).
            var expected = pair.g.storedCounts()
            if workload == "batch.bulk-insert" { expected["User", default: 0] += pair.g.spec.operations.bulk }
            #expect(try pair.storedCounts() == expected, "\(engine): what the floor stores after \(workload)")
        }
    }

    @Test func theSQLiteFloorHasSQLiteStoresSchema() throws {
        let pair = try FloorPair("sqlite")
        let floor = try #require(pair.floor as? SQLiteFloor)
        let backendFile = pair.dir.url.appendingPathComponent("backend").appendingPathComponent(SQLiteStore.fileName).path
        #expect(try floor.schemaSQL() == Self.schemaSQL(backendFile).filter { !$0.contains("sb_meta") })
    }

    @Test(arguments: Floors.engines)
    func theCReferenceReadsWhatTheFloorReads(engine: String) throws {
        let dir = try TemporaryDirectory("creference-\(engine)")
        let g = SocialGenerator(try Bench.spec())
        let floor = try Floors.open(engine: engine, directory: dir.url.appendingPathComponent("floor"), durability: .relaxed)
        let c = try CReferenceFloors.open(engine: engine, directory: dir.url.appendingPathComponent("c"), durability: .relaxed)
        defer { floor.close(); c.close() }
        var sinks: [Int] = [], transactions: [Int] = []
        for f in [floor, c] {
            let start = f.transactionsBegun
            let timer = OperationTimer(minimumSpan: 0)
            try f.loadRows(g, count: g.spec.rows.fetch, timer: timer)
            try f.insertRows(first: Int64(g.spec.rows.fetch + 1), count: g.spec.rows.insert, timer: timer)
            #expect(timer.operations == g.spec.rows.fetch + g.spec.rows.insert)
            let fetch = OperationTimer(minimumSpan: 0)
            sinks.append(try f.fetchRows(timer: fetch))
            #expect(fetch.operations == g.spec.rows.fetch + g.spec.rows.insert)
            transactions.append(f.transactionsBegun - start)
        }
        let expected = (1...Int64(g.spec.rows.fetch + g.spec.rows.insert)).reduce(0) { $0 &+ Touch.row(g.row($1)) }
        #expect(sinks == [expected, expected], "\(engine): Swift floor, C reference, generator")
        #expect(transactions[0] == transactions[1], "\(engine): transactions of the Swift floor and of C")
        #expect(throws: BenchError.self) { _ = try c.scanPosts(timer: OperationTimer(minimumSpan: 0)) }
    }

    // MARK: Allocations

    @Test func theAllocationCounterCounts() {
        let n = Self.count {
            let a = Array(repeating: 7, count: 100)
            #expect(a.count == 100)
        }
        #expect(n.otherCalls >= 1)
    }

    /// Whether the counting allocator is linked in (not under a sanitizer, which brings its own).
    /// The floors avoid what -Onone Swift allocates per element (a for-in over an array or a
    /// `Range<Int64>`: they loop over `Int` indices), so the checks hold in debug builds too.
    static let counting = AllocationCounter.isAvailable

    /// Each floor loop, run for n and for 2n operations in steady state: the extra n allocate
    /// only the `String`s of the text they decode (titles and bodies past 15 UTF-8 bytes), and
    /// the engine allocates for reads what a C loop gets (SQLite: 3 per point read, in C too;
    /// LMDB: nothing).
    @Test(.enabled(if: FloorEqualWorkTests.counting, "the allocation counter is off under sanitizers"),
          arguments: Floors.engines)
    func floorLoopsAllocateNothingPerOperation(engine: String) throws {
        let pair = try FloorPair(engine)
        let (f, g) = (pair.floor, pair.g)
        try f.loadSocial(g, timer: OperationTimer(minimumSpan: 0))
        try f.loadRows(g, count: g.spec.rows.fetch, timer: OperationTimer(minimumSpan: 0))
        var r = SplitMix64(seed: 11)
        let keys = (0..<64).map { _ in Int64(r.below(g.posts) + 1) }
        let keysText = keys.reduce(0) { $0 + Self.decodedStrings(g, $1) }
        let allText = (1...Int64(g.posts)).reduce(0) { $0 + Self.decodedStrings(g, $1) }
        let perRead = engine == "sqlite" ? 3 : 0

        let single = try Self.extra(keys, keys + keys) { k, t in _ = try f.readPosts(k, perTransaction: 1, timer: t) }
        #expect(single.otherCalls == keysText && single.engineCalls == perRead * keys.count,
                "\(engine) single reads: \(single) for \(keys.count) reads decoding \(keysText) strings")
        let batched = try Self.extra(keys, keys + keys) { k, t in _ = try f.readPosts(k, perTransaction: 16, timer: t) }
        #expect(batched.otherCalls == keysText && batched.engineCalls == perRead * keys.count, "\(engine) batched reads: \(batched)")
        let hot = try Self.extra(2, 4) { n, t in _ = try f.rereadPosts(keys, rounds: n, timer: t) }
        #expect(hot.otherCalls == 2 * keysText && hot.engineCalls == 2 * perRead * keys.count, "\(engine) hot reads: \(hot)")
        let scans = try Self.extra(1, 2) { n, t in for _ in 0..<n { _ = try f.scanPosts(timer: t) } }
        #expect(scans.otherCalls == allText, "\(engine) scans: \(scans) for \(g.posts) posts decoding \(allText) strings")

        // Writes: nothing on the Swift side per row or user (the engine's pages are the engine's).
        var nextRow = Int64(g.spec.rows.fetch + 1)
        func rows(_ n: Int) -> (Int64, Int) { defer { nextRow += Int64(n) }; return (nextRow, n) }
        let inserts = try Self.extra(rows(200), rows(400), warm: rows(200)) { range, t in try f.insertRows(first: range.0, count: range.1, timer: t) }
        #expect(inserts.otherCalls == 0, "\(engine) row inserts: \(inserts)")
        var nextUser = Int64(g.users + 1)
        func users(_ n: Int) -> [UserInput] { defer { nextUser += Int64(n) }; return (nextUser..<(nextUser + Int64(n))).map { UserInput(g.user($0)) } }
        let userInserts = try Self.extra(users(50), users(100), warm: users(50)) { u, t in try f.insertUsers(u, timer: t) }
        #expect(userInserts.otherCalls == 0, "\(engine) user inserts: \(userInserts)")
    }

    /// A fetch of more rows allocates nothing more, engine included (the Swift side checked in
    /// every build with the counter).
    @Test(arguments: Floors.engines)
    func aFetchAllocatesNothingPerRow(engine: String) throws {
        let pair = try FloorPair(engine)
        let (f, g) = (pair.floor, pair.g)
        try f.loadRows(g, count: g.spec.rows.fetch, timer: OperationTimer(minimumSpan: 0))
        _ = try f.fetchRows(timer: OperationTimer(minimumSpan: 0))
        let t1 = OperationTimer(minimumSpan: 0), t2 = OperationTimer(minimumSpan: 0)
        let few = try Self.count { _ = try f.fetchRows(timer: t1) }
        try f.insertRows(first: Int64(g.spec.rows.fetch + 1), count: g.spec.rows.insert, timer: OperationTimer(minimumSpan: 0))
        _ = try f.fetchRows(timer: OperationTimer(minimumSpan: 0))
        let more = try Self.count { _ = try f.fetchRows(timer: t2) }
        #expect(t2.operations == t1.operations + g.spec.rows.insert)
        #expect(more.engineCalls == few.engineCalls, "\(engine): \(few) for \(t1.operations) rows, \(more) for \(t2.operations)")
        if Self.counting { #expect(more.otherCalls == few.otherCalls, "\(engine): \(few) for \(t1.operations) rows, \(more) for \(t2.operations)") }
    }

    /// The Swift floor's row inserts allocate what the C reference's allocate: the engine's
    /// pages alike, and nothing of their own (checked wherever the counter runs).
    @Test(arguments: Floors.engines)
    func rowInsertsAllocateWhatCAllocates(engine: String) throws {
        let dir = try TemporaryDirectory("alloc-\(engine)")
        let g = SocialGenerator(try Bench.spec())
        let floor = try Floors.open(engine: engine, directory: dir.url.appendingPathComponent("floor"), durability: .relaxed)
        let c = try CReferenceFloors.open(engine: engine, directory: dir.url.appendingPathComponent("c"), durability: .relaxed)
        defer { floor.close(); c.close() }
        var counts: [AllocationTally] = []
        for f in [floor, c] {
            try f.loadRows(g, count: g.spec.rows.fetch, timer: OperationTimer(minimumSpan: 0))
            let t = OperationTimer(minimumSpan: 0)
            counts.append(try Self.count { try f.insertRows(first: Int64(g.spec.rows.fetch + 1), count: g.spec.rows.insert, timer: t) })
        }
        #expect(counts[0].engineCalls == counts[1].engineCalls, "\(engine) rows.insert of \(g.spec.rows.insert) rows: Swift floor \(counts[0]), C \(counts[1])")
        if Self.counting {
            #expect(counts[0].otherCalls == counts[1].otherCalls, "\(engine) rows.insert of \(g.spec.rows.insert) rows: Swift floor \(counts[0]), C \(counts[1])")
        }
    }

    // MARK: Helpers

    /// The `String`s that decoding post `id` allocates: its title and body when longer than a
    /// small string (15 UTF-8 bytes).
    static func decodedStrings(_ g: SocialGenerator, _ id: Int64) -> Int {
        let r = g.post(id).record
        return (r[1].stringValue!.utf8.count > 15 ? 1 : 0) + (r[2].stringValue!.utf8.count > 15 ? 1 : 0)
    }

    /// Allocations of the calling thread while `body` runs.
    static func count(_ body: () throws -> Void) rethrows -> AllocationTally {
        try AllocationCounter.counting(allThreads: false, body).tally
    }

    /// What running `body` on `two` allocates beyond running it on `one`, after a warm-up run
    /// (on `warm`, `one` by default). Timers are made outside the counted spans.
    static func extra<Input>(_ one: Input, _ two: Input, warm: Input? = nil,
                             _ body: (Input, OperationTimer) throws -> Void) throws -> AllocationTally {
        try body(warm ?? one, OperationTimer(minimumSpan: 0))
        let t1 = OperationTimer(minimumSpan: 0), t2 = OperationTimer(minimumSpan: 0)
        let a = try count { try body(one, t1) }
        let b = try count { try body(two, t2) }
        return b - a
    }

    static func schemaSQL(_ path: String) throws -> [String] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw BenchError("cannot open \(path)") }
        defer { sqlite3_close_v2(db) }
        var s: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY sql", -1, &s, nil)
        defer { sqlite3_finalize(s) }
        var out: [String] = []
        while sqlite3_step(s) == SQLITE_ROW { out.append(String(cString: sqlite3_column_text(s, 0))) }
        return out
    }
}


/// A repository that counts the transactions it is asked for and forwards everything.
final class CountingRepository: Repository, @unchecked Sendable {
    // @unchecked: used by one test thread.
    let base: any Repository
    private(set) var transactions = 0

    init(_ base: any Repository) { self.base = base }

    var schema: Schema { base.schema }
    var capabilities: Capabilities { base.capabilities }

    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        transactions += 1
        return try base.read(body)
    }

    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        transactions += 1
        return try base.write(body)
    }

    func close() throws { try base.close() }
}

/// One engine's floor and backend, each in its own directory, empty at first.
final class FloorPair {
    let dir: TemporaryDirectory
    let g: SocialGenerator
    let floor: any Floor
    let backend: CountingRepository

    /// What one side of a workload gave: the body's value (a checksum for reads, a count for
    /// writes), the transactions it began and the operations it timed.
    struct Outcome: Equatable, CustomStringConvertible {
        var sink: Int
        var transactions: Int
        var operations: Int
        /// The digest of what the first operations return, in order (query workloads).
        var digest: String?
        var description: String { "sink \(sink), \(transactions) transactions, \(operations) operations" }
    }

    /// Every field of every post, user and row, folded as the workloads fold them.
    struct Contents: Equatable, CustomStringConvertible {
        var posts: Int
        var users: Int
        var rows: Int
        var description: String { "posts \(posts), users \(users), rows \(rows)" }
    }

    init(_ engine: String) throws {
        dir = try TemporaryDirectory("floor-\(engine)")
        g = SocialGenerator(try Bench.spec())
        floor = try Floors.open(engine: engine, directory: dir.url.appendingPathComponent("floor"), durability: .relaxed)
        let store = dir.url.appendingPathComponent("backend")
        let options = StoreOptions(durability: .relaxed)
        backend = CountingRepository(engine == "sqlite"
            ? try SQLiteStore(directory: store, schema: BenchSchema.schema, options: options)
            : try LMDBStore(directory: store, schema: BenchSchema.schema, options: options))
    }

    deinit {
        floor.close()
        try? backend.close()
    }

    /// Runs one repetition of a workload: setup once, then its backend body and its floor body
    /// on the same state.
    func run(_ name: String) throws -> (backend: Outcome, floor: Outcome) {
        guard let w = WorkloadRegistry.named(name) else { throw BenchError("no workload \(name)") }
        let ctx = WorkloadContext(generator: g, workload: name, repetition: 0, storeDirectory: dir.url, residentAtStart: 0)
        let prepared = try w.prepare(ctx)
        guard let floorBody = prepared.floor else { throw BenchError("\(name) has no floor") }
        let (bt, ft) = (OperationTimer(minimumSpan: 0), OperationTimer(minimumSpan: 0))
        let (b0, f0) = (backend.transactions, floor.transactionsBegun)
        let bs = try prepared.backend(backend, bt)
        let fs = try floorBody(floor, ft)
        return (Outcome(sink: bs, transactions: backend.transactions - b0, operations: bt.operations, digest: try prepared.results?(backend)),
                Outcome(sink: fs, transactions: floor.transactionsBegun - f0, operations: ft.operations, digest: try prepared.floorResults?(floor)))
    }

    func contents() throws -> (backend: Contents, floor: Contents) {
        let b = try backend.base.read { tx in
            var c = Contents(posts: 0, users: 0, rows: 0)
            try tx.forEach(Query("Post")) { c.posts &+= Touch.row($0) }
            try tx.forEach(Query("User")) { c.users &+= Touch.row($0) }
            try tx.forEach(Query("Row")) { row in c.rows &+= Touch.intRow { row.int64(at: $0) } }
            return c
        }
        let untimed = OperationTimer(minimumSpan: 0)
        let users: Int
        switch floor {
        case let s as SQLiteFloor: users = try s.usersChecksum()
        case let l as LMDBFloor: users = try l.usersChecksum()
        default: throw BenchError("no user checksum for \(type(of: floor))")
        }
        return (b, Contents(posts: try floor.scanPosts(timer: untimed), users: users, rows: try floor.fetchRows(timer: untimed)))
    }

    func storedCounts() throws -> [String: Int] {
        switch floor {
        case let s as SQLiteFloor: try s.storedCounts()
        case let l as LMDBFloor: try l.storedCounts()
        default: throw BenchError("no counts for \(type(of: floor))")
        }
    }
}

extension SocialGenerator {
    /// Records per entity and links per `Entity.relationship` of the dataset.
    func storedCounts() -> [String: Int] {
        var c: [String: Int] = [:]
        walk(records: { c[$0.entity.name, default: 0] += 1 }, link: { e, r, _, _ in c["\(e).\(r)", default: 0] += 1 })
        return c
    }
}
