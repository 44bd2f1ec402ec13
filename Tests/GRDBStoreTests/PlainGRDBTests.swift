import Foundation
import GRDB
import GRDBStore
import PlainGRDB
import StoreBench
import StoreConformance
import StoreCore
import Testing

/// The plain GRDB program (`PlainGRDB`), the reference GRDBStore is measured against, does the
/// floors' work: loaded with the tiny dataset it reads the same posts into the same checksum
/// as GRDBStore (and as the generator's own records), counts operations and timed spans as the
/// SQLite floor does, writes the floor's column formats, and syncs as GRDBStore does.
@Suite("Plain GRDB program")
struct PlainGRDBTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    let dir: TemporaryDirectory
    let generator: SocialGenerator

    init() throws {
        dir = try TemporaryDirectory("plain-grdb")
        generator = SocialGenerator(try DatasetSpec.load(scale: "tiny", fixtures: Self.fixtures))
    }

    /// Every post once, then some again in another order.
    var ids: [Int64] {
        let all = Array(1...Int64(generator.posts))
        return all + all.reversed().enumerated().compactMap { $0.offset % 3 == 0 ? $0.element : nil }
    }

    static func output(_ r: StoreCore.Record) -> PostOutput {
        PostOutput(id: r[0].int64Value!, title: r[1].stringValue!, body: r[2].stringValue!, score: r[3].int64Value!,
                   createdAt: r[4].dateValue!, rating: r[5].doubleValue, published: r[6].boolValue!)
    }

    /// The checksum the generator's own records give for `ids`: what every reader must read.
    func expected(_ ids: [Int64]) -> Int {
        ids.reduce(0) { $0 &+ Self.output(generator.post($1).record).touch }
    }

    func plain(_ durability: Durability = .relaxed) throws -> PlainGRDBProgram {
        let p = try PlainGRDBProgram(directory: dir.url.appendingPathComponent("plain"), durability: durability)
        try p.loadSocial(generator, timer: OperationTimer(minimumSpan: 0))
        try p.loadRows(generator, count: generator.spec.rows.fetch, timer: OperationTimer(minimumSpan: 0))
        return p
    }

    @Test("the plain program and GRDBStore read the same posts into the same checksum")
    func sameChecksum() throws {
        let ids = ids
        let program = try plain()
        defer { program.close() }
        let store = try GRDBStore(directory: dir.url.appendingPathComponent("store"), schema: BenchSchema.schema,
                                  options: StoreOptions(durability: .relaxed))
        defer { try? store.close() }
        try generator.load(into: store)

        let want = expected(ids)
        let untimed = OperationTimer(minimumSpan: 0)
        let fromStore = try store.read { tx in
            try ids.reduce(0) { sum, id in
                let r = try #require(try tx.fetch("Post", id: .int64(id)))
                return sum &+ Self.output(r).touch
            }
        }
        #expect(fromStore == want)
        for perTransaction in [1, 20] {
            #expect(try program.readPosts(ids, perTransaction: perTransaction, timer: untimed) == want)
        }
        let before = program.transactionsBegun
        #expect(try program.rereadPosts(ids, rounds: 3, timer: untimed) == want &* 3, "hot re-reads read every field each round")
        #expect(program.transactionsBegun == before + 1, "in one read transaction")
        #expect(try program.scanPosts(timer: untimed) == expected(Array(1...Int64(generator.posts))))
    }

    @Test("rows: the plain program stores and sums the same 11 columns as GRDBStore")
    func rows() throws {
        let program = try plain()
        defer { program.close() }
        let store = try GRDBStore(directory: dir.url.appendingPathComponent("store"), schema: BenchSchema.schema,
                                  options: StoreOptions(durability: .relaxed))
        defer { try? store.close() }
        let count = generator.spec.rows.fetch
        try generator.loadRows(into: store, count: count)

        let want = (1...Int64(count)).reduce(0) { $0 &+ Touch.row(generator.row($1)) }
        var fromStore = 0
        try store.read { tx in
            try tx.forEach(Query("Row")) { row in fromStore &+= Touch.intRow { row.int64(at: $0) } }
        }
        let untimed = OperationTimer(minimumSpan: 0)
        #expect(fromStore == want)
        #expect(try program.fetchRows(timer: untimed) == want)

        let first = Int64(count + 1), added = 50
        try program.insertRows(first: first, count: added, timer: untimed)
        let more = (first..<(first + Int64(added))).reduce(0) { $0 &+ Touch.row(generator.row($1)) }
        #expect(try program.fetchRows(timer: untimed) == want &+ more)
    }

    /// As the SQLite floor times them: `each` per read at one per transaction (one span per read
    /// when spans are not grouped), one `unit` per transaction otherwise, one recorded span of one
    /// operation per row for scans.
    @Test("each method counts operations and timed spans as the SQLite floor does")
    func timing() throws {
        let program = try plain()
        defer { program.close() }
        func counts(_ body: (OperationTimer) throws -> Void) rethrows -> [Int] {
            let timer = OperationTimer(minimumSpan: 0)
            try body(timer)
            return [timer.operations, timer.spans]
        }
        let ids = Array(ids.prefix(45))
        let users = (0..<7).map { UserInput(generator.user(Int64(generator.users + 1 + $0))) }
        let rows = generator.spec.rows.fetch
        #expect(try counts { _ = try program.readPosts(ids, perTransaction: 1, timer: $0) } == [45, 45])
        #expect(try counts { _ = try program.readPosts(ids, perTransaction: 20, timer: $0) } == [45, 3])
        #expect(try counts { _ = try program.scanPosts(timer: $0) } == [generator.posts, 1])
        #expect(try counts { try program.insertUsers(users, timer: $0) } == [7, 1])
        #expect(try counts { try program.insertRows(first: Int64(rows + 1), count: 30, timer: $0) } == [30, 1])
        #expect(try counts { _ = try program.fetchRows(timer: $0) } == [rows + 30, 1])
    }

    @Test("inserted users are stored in the SQLite floor's column formats")
    func userColumns() throws {
        let program = try plain()
        let users = (1...4).map { UserInput(generator.user(Int64(generator.users) + $0)) }
        try program.insertUsers(users, timer: OperationTimer(minimumSpan: 0))
        program.close()

        let queue = try DatabaseQueue(path: dir.url.appendingPathComponent("plain").appendingPathComponent(PlainGRDBProgram.fileName).path)
        defer { try? queue.close() }
        try queue.read { db in
            for u in users {
                let row = try #require(try Row.fetchOne(db, sql: #"SELECT * FROM "User" WHERE "id" = ?"#, arguments: [u.id]))
                #expect(row["username"] as String == u.username)
                #expect(row["displayName"] as String == u.displayName)
                #expect(row["email"] as String? == u.email)
                #expect(row["age"] as Int64? == u.age)
                #expect(row["score"] as Double == u.score)
                #expect(row["active"] as DatabaseValue == (u.active ? 1 : 0).databaseValue)
                #expect(row["joinedAt"] as Double == u.joinedAt)
                #expect((row["avatar"] as Data?).map { [UInt8]($0) } == u.avatar)
                let uuid = u.externalID.map { withUnsafeBytes(of: $0.uuid) { Data($0) } }
                #expect(row["externalID"] as Data? == uuid)
            }
        }
    }

    @Test("durable syncs at every commit (synchronous = FULL), relaxed does not (NORMAL), in WAL", arguments: [
        (Durability.durable, "2"), (Durability.relaxed, "1"),
    ])
    func synchronous(_ durability: Durability, _ expected: String) throws {
        let program = try PlainGRDBProgram(directory: dir.url, durability: durability)
        defer { program.close() }
        #expect(try program.writerPragma("synchronous") == expected)
        #expect(try program.writerPragma("journal_mode") == "wal")
    }
}
