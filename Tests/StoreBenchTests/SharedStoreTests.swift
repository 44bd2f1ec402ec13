import Foundation
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// Several processes on one store: writers and readers killed with SIGKILL at random while
/// the others go on lose no acknowledged commit and never show a torn state; and the check
/// that says so does flag a torn or lost commit.
@Suite struct SharedStoreTests {
    @Test("shared store: 2 writers and 2 readers, killed at random, lose nothing and see no torn state on sqlite and lmdb")
    func sharedStoreTorture() throws {
        let r = try Bench.run(["torture", "--mode", "shared", "--processes", "4", "--trials", "2", "--seconds", "1.5",
                               "--seed", "5", "--backend", "sqlite", "--backend", "lmdb"])
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        for backend in ["sqlite", "lmdb"] {
            let row = r.out.split(separator: "\n").first { $0.hasPrefix("| \(backend) | 2 | 2 + 2 |") }.map(String.init) ?? ""
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 9, "\(r.out)")
            guard cells.count == 9 else { continue }
            #expect(Int(cells[3])! > 0 && Int(cells[4])! > 0 && Int(cells[6])! > 0, "kills, acknowledged commits and checked snapshots: \(row)")
            #expect(cells[7] == "0", "\(row)")
        }
    }

    @Test("the shared-store check flags a commit torn from its head, a lost record and a broken link")
    func checkFlagsTornStates() throws {
        let dir = try TemporaryDirectory("shared-check")
        let store = try SQLiteStore.descriptor.open(SocialSchema.make(), dir.url, StoreOptions(durability: .relaxed))
        defer { try? store.close() }
        for i in 1...3 { try store.write { try SharedStoreChild.transaction($0, writer: 1, index: i) } }
        let clean = try store.read { try SharedStoreChild.check($0, writers: 2) }
        #expect(clean.heads == [0, 3] && clean.problem == nil)
        try store.write { tx in try tx.unlink("Post", id: .int64(2_000_003), "author", from: .int64(2_000_003)) }
        #expect(try store.read { try SharedStoreChild.check($0, writers: 2).problem } == "writer 1's post 2000003 is not linked to its user")
        try store.write { tx in try tx.link("Post", id: .int64(2_000_003), "author", to: .int64(2_000_003)) }
        try store.write { tx in try tx.delete("Post", id: .int64(2_000_001)) }
        #expect(try store.read { try SharedStoreChild.check($0, writers: 2).problem } == "writer 1's head says 3 commits; its users number 3 and its posts 2")
        try store.write { tx in try tx.update("User", id: .int64(2_000_000), set: ["age": 4]) }
        #expect(try store.read { try SharedStoreChild.check($0, writers: 2).problem }?.hasPrefix("writer 1's head says 4 commits") == true)
    }
}
