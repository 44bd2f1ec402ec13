import Foundation
import StoreConformance
import StoreCore
import Testing

/// `torture`, `damage` and `verify` as CI runs them: a few trials per backend, real child
/// processes killed with SIGKILL, real damaged files.
@Suite("integrity commands", .serialized)
struct IntegrityCommandTests {
    @Test("crash trials: three SIGKILLs per backend lose no acknowledged commit and leave verify clean")
    func tortureEveryBackend() throws {
        let r = try Bench.run(["torture", "--trials", "3", "--seed", "41"])
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        for backend in ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"] {
            #expect(r.out.contains("| \(backend) | 3 |"), "\(r.out)")
        }
        #expect(r.out.contains("| failed |"))
    }

    @Test("migration crash trials: a store killed mid-migration opens at version 1 or 3 with that version's data")
    func migrationTortureEveryBackend() throws {
        let r = try Bench.run(["torture", "--mode", "migration", "--trials", "4", "--seed", "9"])
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        for backend in ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"] {
            #expect(r.out.contains("| \(backend) | 4 |"), "\(r.out)")
        }
        #expect(r.out.contains("opened at v1 (old data)"))
    }

    @Test("damaged files: every wrong read is flagged by verify, which never crashes nor writes; verifyOnOpen reads never crash")
    func damagedFiles() throws {
        let r = try Bench.run(["damage", "--trials", "5", "--seed", "77", "--verify-on-open"])
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        for kind in ["truncate", "overwrite", "zero-page", "structural"] {
            #expect(r.out.contains("| sqlite | \(kind) | 5 |") && r.out.contains("| lmdb | \(kind) | 5 |"), "\(r.out)")
        }
        for engine in ["sqlite", "lmdb"] {
            #expect(r.out.contains("\(engine): 20 damaged files (15 random, 5 structural): verify crashed, hung or failed 0, wrong reads verify missed 0, verify changed a byte 0;"), "\(r.out)")
        }
        #expect(r.out.contains("0 with verifyOnOpen; read back wrong"), "\(r.out)")
    }

    @Test("verify: 0 for a sound store, 1 for a damaged one, 2 where there is no store; JSON on request")
    func verifyExitStatus() throws {
        let dir = try TemporaryDirectory("verify-cli")
        let store = dir.url.appendingPathComponent("store")
        // A writer killed mid-run leaves a real store behind.
        let acks = dir.url.appendingPathComponent("acks")
        let writer = Process()
        writer.executableURL = try Bench.binary()
        writer.arguments = ["torture-writer", "--backend", "lmdb", "--seed", "5", "--durability", "relaxed", "--acks", acks.path, store.path]
        try writer.run()
        while (FileManager.default.contents(atPath: acks.path)?.count ?? 0) < 200 && writer.isRunning { usleep(5_000) }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()

        let sound = try Bench.run(["verify", "--backend", "lmdb", store.path])
        #expect(sound.status == 0, "\(sound.out)\n\(sound.err)")
        #expect(sound.out.contains("clean"))
        let json = try Bench.run(["verify", "--backend", "lmdb", "--json", store.path])
        #expect(json.out.contains("\"problems\""), "\(json.out)")

        let data = store.appendingPathComponent("data.mdb")
        let handle = try FileHandle(forUpdating: data)
        try handle.truncate(atOffset: 5 * 4096)
        try handle.close()
        let damaged = try Bench.run(["verify", "--backend", "lmdb", store.path])
        #expect(damaged.status == 1, "\(damaged.out)\n\(damaged.err)")
        #expect(damaged.out.contains("truncated"), "\(damaged.out)")

        let empty = dir.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try Bench.run(["verify", "--backend", "sqlite", empty.path])
        #expect(none.status == 2, "\(none.out)\n\(none.err)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: empty.path)).isEmpty, "verify created nothing")
    }

    /// A store of a schema StoreBench does not know, still open in this process (its WAL and
    /// lock files live): `verify` reads the schema the store records and changes no byte.
    @Test("verify checks a store of any schema against the schema it records, and writes, deletes and checkpoints nothing", arguments: ["sqlite", "grdb", "lmdb"])
    func verifyReadsTheRecordedSchemaAndWritesNothing(_ backend: String) throws {
        let dir = try TemporaryDirectory("verify-own-schema")
        let schema = try Schema(version: 3, entities: [
            EntityDescription("Reading", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("celsius", .double), Attribute("place", .string, optional: true)],
                              indexes: [IndexDescription(["place"])]),
        ])
        let descriptor = MisuseTests.backends.first { $0.name == backend }!
        let store = try descriptor.open(schema, dir.url, StoreOptions())
        defer { try? store.close() }
        let e = try schema.entity("Reading")
        try store.write { tx in for i in 1...300 { try tx.insert(try e.record(["id": .int64(Int64(i)), "celsius": .double(Double(i) / 10), "place": .string("p\(i % 7)")])) } }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        let before = try DirectoryBytes(dir.url)
        let r = try Bench.run(["verify", "--backend", backend, dir.url.path])
        #expect(r.status == 0 && r.out.contains("clean"), "\(r.out)\n\(r.err)")
        #expect(r.out.contains("300") || r.out.contains("records"), "\(r.out)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == files, "verify added or removed files")
        try before.expectUnchanged("\(backend) verify")
        #expect(try store.read { try $0.count(Query("Reading")) } == 300)
    }
}
