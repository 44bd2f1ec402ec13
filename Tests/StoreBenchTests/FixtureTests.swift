import Foundation
import LMDBStore
import SQLiteStore
import StoreBench
import StoreConformance
import StoreCore
import Testing

@Suite struct FixtureTests {
    @Test func theSameSeedGivesTheSameRecords() throws {
        let spec = try Bench.spec()
        let a = SocialGenerator(spec), b = SocialGenerator(spec)
        #expect(a.checksum() == b.checksum())
        for id in Int64(1)...20 {
            #expect(a.user(id) == b.user(id))
            #expect(a.post(id).record == b.post(id).record)
            #expect(a.comment(id).record == b.comment(id).record)
        }
        var other = spec
        other.seed += 1
        #expect(SocialGenerator(other).checksum() != a.checksum())
        #expect(SocialGenerator(other).user(1) != a.user(1))
    }

    @Test func theDatasetHasTheSpecifiedShape() throws {
        let spec = try Bench.spec()
        let g = SocialGenerator(spec)
        #expect(g.posts == Int((Double(spec.users) * spec.postsPerUser.mean).rounded()))
        let comments = (1...Int64(g.comments)).map(g.comment)
        let replies = comments.filter { $0.parent != nil }
        // Replies answer an earlier comment of the same post.
        for r in replies { #expect(r.parent! < r.record[0].int64Value! && g.comment(r.parent!).post == r.post) }
        let share = Double(replies.count) / Double(comments.count)
        #expect(abs(share - spec.replyShare) < 0.08)
        // Skewed authorship: the most prolific user has several times the mean.
        var perUser: [Int64: Int] = [:]
        for p in 1...Int64(g.posts) { perUser[g.post(p).author, default: 0] += 1 }
        #expect(Double(perUser.values.max()!) > 3 * spec.postsPerUser.mean)
        // Some non-ASCII text, and every username unique.
        #expect((1...Int64(g.posts)).contains { g.post($0).record[2].stringValue!.unicodeScalars.contains { !$0.isASCII } })
        #expect(Set((1...Int64(g.users)).map { g.user($0)[1] }).count == g.users)
        #expect(g.follows(3).allSatisfy { $0 != 3 })
    }

    @Test(arguments: ["sqlite", "lmdb"])
    func everyBackendStoresTheSameBytes(_ backend: String) throws {
        let dir = try TemporaryDirectory("fixture-\(backend)")
        let g = SocialGenerator(try Bench.spec())
        let repo: any Repository = backend == "sqlite"
            ? try SQLiteStore(directory: dir.url, schema: BenchSchema.schema, options: StoreOptions(durability: .relaxed))
            : try LMDBStore(directory: dir.url, schema: BenchSchema.schema, options: StoreOptions(durability: .relaxed))
        defer { try? repo.close() }
        try g.load(into: repo, chunk: 97)
        // Read everything back in the generator's order and compute the same checksum.
        var sum = DatasetChecksum()
        try repo.read { tx in
            func all(_ entity: String, _ key: String) throws -> [Record] { try tx.fetch(Query(entity, sort: [.asc(KeyPathExpression(key))])) }
            for t in try all("Tag", "name") { sum.add(t) }
            for u in try all("User", "id") { sum.add(u) }
            for p in try all("Post", "id") {
                sum.add(p)
                for a in try tx.related("Post", id: p.id, via: "author") { sum.addLink("Post.author", p.id, a.id) }
                for t in try tx.related("Post", id: p.id, via: "tags").map(\.id).sorted(by: { $0.stringValue! < $1.stringValue! }) {
                    sum.addLink("Post.tags", p.id, t)
                }
            }
            for c in try all("Comment", "id") {
                sum.add(c)
                for (rel, name) in [("post", "Comment.post"), ("author", "Comment.author"), ("parent", "Comment.parent")] {
                    for target in try tx.related("Comment", id: c.id, via: rel) { sum.addLink(name, c.id, target.id) }
                }
            }
            for u in try all("User", "id") {
                for f in try tx.related("User", id: u.id, via: "following").compactMap({ $0.id.int64Value }).sorted() {
                    sum.addLink("User.following", u.id, .int64(f))
                }
            }
        }
        #expect(sum == g.checksum())
    }

    @Test func badFixtureFilesGiveClearErrors() throws {
        let dir = try TemporaryDirectory("bad-fixtures")
        #expect(throws: BenchError.self) { try DatasetSpec.load(scale: "nope", fixtures: dir.url) }
        try Data("{\"name\": 3}".utf8).write(to: dir.url.appendingPathComponent("broken.json"))
        let e = #expect(throws: BenchError.self) { try DatasetSpec.load(scale: "broken", fixtures: dir.url) }
        #expect(e?.message.contains("not a dataset specification") == true)
        var spec = try Bench.spec()
        spec.users = 1
        try JSONEncoder().encode(spec).write(to: dir.url.appendingPathComponent("small.json"))
        let e2 = #expect(throws: BenchError.self) { try DatasetSpec.load(scale: "small", fixtures: dir.url) }
        #expect(e2?.message.contains("users must be at least 2") == true)
        #expect(DatasetSpec.available(in: Bench.fixtures).starts(with: ["tiny", "quick", "standard", "large"]))
    }
}
