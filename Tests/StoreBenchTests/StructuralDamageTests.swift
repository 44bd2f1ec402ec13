import Foundation
import LMDBStore
import SQLiteStore
import StoreConformance
import StoreCore
import Testing
@testable import StoreBench

/// `StructuralDamage` on real files written by the damage trials' workload: the fields it
/// finds are where the engines' formats put them, and damage changes one field only.
@Suite("structural damage")
struct StructuralDamageTests {
    /// The data file of a store written as `storebench damage` writes its original.
    private func original(_ backend: BackendDescriptor, _ file: String) throws -> (TemporaryDirectory, [UInt8]) {
        let dir = try TemporaryDirectory("structural-\(backend.name)")
        let trial = DamageTrial(backend: backend, executable: URL(fileURLWithPath: "/bin/false"), dataFile: file)
        _ = try trial.makeOriginal(in: dir.url, seed: 1, transactions: 300)
        return (dir, [UInt8](try Data(contentsOf: dir.url.appendingPathComponent(file))))
    }

    @Test("LMDB: every kind of field is found, each page header's number is its own page's")
    func lmdbFields() throws {
        let (_, bytes) = try original(LMDBStore.descriptor, "data.mdb")
        let fields = StructuralDamage.lmdbFields(bytes)
        let groups = Set(fields.map(\.group))
        for g in ["meta page", "page header", "node pointer", "node header", "database record", "sub-page", "sub-page node header", "overflow page", "free list record"] {
            #expect(groups.contains(g), "\(g) in \(groups.sorted())")
        }
        let numbers = fields.filter { $0.group == "page header" && $0.name.hasSuffix(" number") }
        #expect(numbers.count > 50)
        for f in numbers { #expect(bytes.uint(f.offset, 8) == f.offset / 4096, "\(f.name)") }
        #expect(fields.allSatisfy { $0.offset >= 0 && $0.offset + $0.size <= bytes.count })
    }

    @Test("SQLite: the header's page count is the file's, every b-tree page header has a b-tree type")
    func sqliteFields() throws {
        let (_, bytes) = try original(SQLiteStore.descriptor, SQLiteStore.fileName)
        let fields = StructuralDamage.sqliteFields(bytes)
        #expect(Set(fields.map(\.group)).isSuperset(of: ["header", "page header", "cell pointer", "cell"]))
        let count = try #require(fields.first { $0.name == "page count" })
        #expect(bytes.uint(count.offset, 4, bigEndian: true) * bytes.uint(16, 2, bigEndian: true) == bytes.count)
        let types = fields.filter { $0.group == "page header" && $0.name.hasSuffix(" type") }
        #expect(types.count > 10)
        #expect(types.allSatisfy { [2, 5, 10, 13].contains(bytes[$0.offset]) })
    }

    @Test("damage changes the bytes of one field, the same for the same seed")
    func oneFieldChanged() throws {
        let (_, sound) = try original(LMDBStore.descriptor, "data.mdb")
        let fields = StructuralDamage.lmdbFields(sound)
        for seed in UInt64(1)...60 {
            var a = sound, b = sound
            var r1 = SplitMix64(seed: seed), r2 = SplitMix64(seed: seed)
            let what = try #require(StructuralDamage.apply(to: &a, fields: fields, rng: &r1))
            _ = StructuralDamage.apply(to: &b, fields: fields, rng: &r2)
            #expect(Data(a) == Data(b))
            let f = try #require(fields.first { what.hasPrefix("\($0.group): \($0.name) ") }, "\(what)")
            let end = f.offset + f.size
            #expect(Data(a[f.offset..<end]) != Data(sound[f.offset..<end]), "\(what)")
            #expect(Data(a[..<f.offset]) == Data(sound[..<f.offset]) && Data(a[end...]) == Data(sound[end...]), "only \(f.name) changed")
        }
    }

    @Test("the verify byte check: a changed or new data file counts, lock files and an empty new file do not")
    func changedFiles() throws {
        let dir = try TemporaryDirectory("damage-digests")
        func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: dir.url.appendingPathComponent(name)) }
        try write("data.mdb", [1, 2, 3])
        try write("lock.mdb", [0])
        let before = DamageTrial.fileDigests(dir.url)
        try write("lock.mdb", [9])
        try write("store.sqlite-shm", [9])
        try write("store.sqlite-wal", [])
        #expect(DamageTrial.changedFiles(before, DamageTrial.fileDigests(dir.url)).isEmpty)
        try write("data.mdb", [1, 2, 4])
        try write("store.sqlite-wal", [7])
        #expect(DamageTrial.changedFiles(before, DamageTrial.fileDigests(dir.url)) == ["data.mdb", "store.sqlite-wal"])
    }
}
