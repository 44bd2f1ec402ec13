import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// The planner: indexed predicates use their index (checked on the plan the store uses), and
/// every plan returns what StoreCore's reference evaluator returns.
@Suite("LMDB query planner")
struct LMDBPlannerTests {
    typealias Access = LMDBQueryPlan.Access

    struct Expectation: CustomTestStringConvertible, Sendable {
        let query: Query
        let access: Access
        /// For a relationship access: the words its summary shows (the sub-plan is nested).
        var shows: String? = nil
        let filters: Bool
        let order: LMDBQueryPlan.Order
        var testDescription: String { "\(query.entity) \(query.predicate) sort \(query.sort.map(\.keyPath.description))" }
    }

    static let pd = Date(timeIntervalSince1970: 1_700_000_000)
    static let expectations: [Expectation] = [
        .init(query: Query("User", where: "id" == 3), access: .primaryKeys(count: 1), filters: false, order: .access),
        .init(query: Query("User", where: .condition(Condition("id", .in([1, 2, 99])))), access: .primaryKeys(count: 3), filters: false, order: .access),
        .init(query: Query("User", where: "id" > 2 && "id" <= 1004), access: .primaryRange, filters: false, order: .access),
        .init(query: Query("User", where: "username" == "ann"), access: .index("User#username"), filters: false, order: .access),
        .init(query: Query("User", where: "username" ~= .beginsWith("a")), access: .index("User#username"), filters: false, order: .memory),
        .init(query: Query("User", where: "username" ~= .beginsWith("a", .caseInsensitive)), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: "age" == 30 && "score" > 1.0), access: .index("User#age,score"), filters: false, order: .memory),
        .init(query: Query("User", where: .condition(Condition("age", .between(20, 40)))), access: .index("User#age,score"), filters: false, order: .memory),
        .init(query: Query("User", where: .condition(Condition("age", .in([20, 30, .null])))), access: .index("User#age,score"), filters: false, order: .memory),
        .init(query: Query("User", where: "age" == 30 && "displayName" ~= .contains("a")), access: .index("User#age,score"), filters: true, order: .memory),
        .init(query: Query("User", where: "age" == 30, sort: [SortKey("score")]), access: .index("User#age,score"), filters: false, order: .access),
        .init(query: Query("Post", sort: [SortKey("createdAt")], limit: 3), access: .index("Post#createdAt"), filters: false, order: .access),
        .init(query: Query("Post", sort: [SortKey("createdAt", ascending: false)], limit: 3), access: .indexDescending("Post#createdAt"), filters: false, order: .access),
        .init(query: Query("Post", sort: [SortKey("createdAt", ascending: false)]), access: .scan(reverse: false), filters: false, order: .memory),
        .init(query: Query("Post", where: "published" == true, sort: [SortKey("score", ascending: false)]), access: .indexDescending("Post#published,score"), filters: false, order: .access),
        .init(query: Query("Post", where: "published" == true, sort: [SortKey("score", ascending: false), SortKey("id")]), access: .index("Post#published,score"), filters: false, order: .memory),
        .init(query: Query("User", where: "age" == 30, sort: [SortKey("score", ascending: false)], limit: 2, offset: 1), access: .indexDescending("User#age,score"), filters: false, order: .access),
        .init(query: Query("Post", where: "published" == true, sort: [SortKey("score")]), access: .index("Post#published,score"), filters: false, order: .access),
        .init(query: Query("Post", where: "createdAt" >= .date(pd)), access: .index("Post#createdAt"), filters: false, order: .memory),
        .init(query: Query("User", sort: [SortKey("id", ascending: false)]), access: .scan(reverse: true), filters: false, order: .access),
        .init(query: Query("User", where: "email" ~= .contains("x")), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: "posts.@count" > 1), access: .linkCounts("User.posts"), filters: false, order: .access),
        .init(query: Query("User", where: "posts.@count" >= 2 && "displayName" ~= .contains("a"), sort: [SortKey("id", ascending: false)]), access: .linkCounts("User.posts"), filters: true, order: .memory),
        .init(query: Query("User", where: "posts.@count" < 2), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: "followers.@count" == 1), access: .linkCounts("User.followers"), filters: false, order: .access),
        .init(query: Query("User", where: "displayName" == "Zoë Café"), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: "email" != "ann@example.com" && "displayName" != "Bob Stone"), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: .not("displayName" == "Ann Lee") || "email" == .null), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Post", where: "score" >= 5 && "score" < 9 && .not("score" == 7)), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Post", where: .condition(Condition("score", .between(3, 6))) || "score" > .int64(.max) || "score" < .int64(.min)), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: "age" > 2.5), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("User", where: "username" == "ann" || "age" == 3), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Tag", where: "name" ~= .beginsWith("t"), limit: 2, offset: 1), access: .primaryRange, filters: false, order: .access),
        .init(query: Query("Post", where: "author.username" == "ann", sort: [SortKey("title")], limit: 2), access: .scan(reverse: false),
              shows: "linked through Post.author from [User: index User#username", filters: false, order: .topK(2)),
        .init(query: Query("Post", where: "author.username" == .null), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Post", where: "author.username" != "ann"), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Post", where: .condition(Condition("tags.name", .equal("swift"), quantifier: .any)), sort: [SortKey("id")], limit: 3),
              access: .scan(reverse: false), shows: "linked through Post.tags from [Tag: primary key lookup (1 key)", filters: false, order: .access),
        .init(query: Query("Post", where: .condition(Condition("tags.name", .beginsWith("s"), options: .caseInsensitive, quantifier: .any)) && "score" > 1),
              access: .scan(reverse: false), shows: "linked through Post.tags from [Tag: full scan", filters: true, order: .access),
        .init(query: Query("Post", where: .condition(Condition("tags.name", .equal("swift"), quantifier: .none))), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Comment", where: "post.author.username" == "ann"), access: .scan(reverse: false), filters: true, order: .access),
        .init(query: Query("Post", where: "id" == 4 && "author.username" == "ann"), access: .primaryKeys(count: 1), filters: true, order: .access),
    ]

    @Test("plans: which access, filter and order each query gets", arguments: expectations)
    func plans(_ x: Expectation) throws {
        let dir = try TemporaryDirectory("plan")
        let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
        let plan = try store.plan(x.query)
        if let shows = x.shows {
            #expect(plan.description.contains(shows), "\(plan)")
        } else {
            #expect(plan.access == x.access, "\(plan)")
        }
        #expect(plan.filtersRecords == x.filters, "\(plan)")
        #expect(plan.order == x.order, "\(plan)")
    }

    @Test("every planned query returns the reference evaluator's result and count, at several limits and offsets")
    func resultsMatchReference() throws {
        let dir = try TemporaryDirectory("plan-results")
        let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
        try SocialFixture.load(into: store)
        try SocialFixture.addRandomRecords(into: store, seed: 11, count: 300)
        try store.read { tx in
            for x in Self.expectations {
                // Offsets that end inside a key's run of equal sort values and past several such runs
                // (a descending walk passes over whole keys of certain matches).
                for (limit, offset) in [(x.query.limit, x.query.offset), (nil, 0), (5, 2), (5, 7), (10, 33), (nil, 61)] {
                    var q = x.query
                    q.limit = limit
                    q.offset = offset
                    let got = try tx.fetch(q).map(\.id)
                    let want = try QueryEvaluator().fetch(q, from: tx).map(\.id)
                    #expect(got == want, "\(x.testDescription) limit \(String(describing: limit)) offset \(offset)")
                    #expect(try tx.count(q) == want.count, "count of \(x.testDescription)")
                    var streamed: [Value] = []
                    try tx.forEach(q) { streamed.append($0.id) }
                    #expect(streamed == want)
                }
            }
        }
    }
}

/// Index keys longer than LMDB's key limit are cut; every query over them still answers
/// exactly, and unique indexes still tell long values apart.
@Suite("LMDB long index keys")
struct LMDBLongKeyTests {
    static func schema() throws -> Schema {
        try Schema(version: 1, entities: [
            EntityDescription("Doc", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("title", .string), Attribute("n", .int64)],
                              indexes: [IndexDescription(["title"], unique: true), IndexDescription(["n", "title"])]),
        ])
    }

    @Test("equality, prefix, range, sort and uniqueness on values that share a 600-byte prefix")
    func longKeys() throws {
        let dir = try TemporaryDirectory("long")
        let s = try Self.schema()
        let store = try LMDBStore(directory: dir.url, schema: s)
        let doc = s["Doc"]!
        let stem = String(repeating: "é", count: 300)   // 600 bytes
        var titles: [String] = []
        for i in 0..<60 { titles.append(i % 3 == 0 ? "short\(i)" : stem + String(format: "%03d", (i * 37) % 100)) }
        try store.write { tx in
            for (i, t) in titles.enumerated() {
                try tx.insert(try doc.record(["id": .int64(Int64(i)), "title": .string(t), "n": .int64(Int64(i % 4))]))
            }
        }
        // Same long value: conflict. Same 480-byte prefix, other value: fine.
        expectCategory(.conflict) {
            try store.write { try $0.insert(try doc.record(["id": 100, "title": .string(titles[1]), "n": 0])) }
        }
        try store.write { try $0.insert(try doc.record(["id": 101, "title": .string(stem + "zzz"), "n": 1])) }
        expectCategory(.conflict) { try store.write { try $0.update("Doc", id: 2, set: ["title": .string(stem + "zzz")]) } }

        let queries: [Query] = [
            Query("Doc", where: "title" == .string(titles[1])),
            Query("Doc", where: "title" == .string(stem)),
            Query("Doc", where: "title" ~= .beginsWith(stem + "0")),
            Query("Doc", where: "title" ~= .beginsWith(stem)),
            Query("Doc", where: "title" > .string(stem + "050")),
            Query("Doc", where: "title" <= .string(stem + "050") && "title" > "short3"),
            Query("Doc", where: "n" == 2 && "title" >= .string(stem + "020")),
            Query("Doc", where: "n" == 1, sort: [SortKey("title")]),
            Query("Doc", sort: [SortKey("title")], limit: 7, offset: 3),
            Query("Doc", sort: [SortKey("title")], limit: 40),
            Query("Doc", where: "n" == 1, sort: [SortKey("title", ascending: false)]),
            Query("Doc", sort: [SortKey("title", ascending: false)], limit: 7, offset: 3),
            Query("Doc", sort: [SortKey("title", ascending: false)], limit: 40),
            Query("Doc", where: "n" >= 1 && "title" > "short3"),
        ]
        try store.read { tx in
            for q in queries {
                let want = try QueryEvaluator().fetch(q, from: tx).map(\.id)
                #expect(try tx.fetch(q).map(\.id) == want, "\(q.predicate) sort \(q.sort.count)")
                #expect(try tx.count(q) == want.count)
            }
        }
        #expect(try store.plan(queries[0]).access == .index("Doc#title"))
        let deleted = try store.write { try $0.delete("Doc", where: "title" ~= .beginsWith(stem + "0")) }
        #expect(deleted == titles.filter { $0.hasPrefix(stem + "0") }.count)
        #expect(try store.read { try $0.count(Query("Doc", where: "title" ~= .beginsWith(stem + "0"))) } == 0)
    }

    @Test("a long fixed component cuts the key inside the sorted one; IN values cut to one key count once")
    func cutsBeforeTheSortedComponent() throws {
        let dir = try TemporaryDirectory("long-fixed")
        let schema = try Schema(version: 1, entities: [
            EntityDescription("Item", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("name", .string), Attribute("rank", .int64)],
                              indexes: [IndexDescription(["name", "rank"]), IndexDescription(["name"])]),
        ])
        let store = try LMDBStore(directory: dir.url, schema: schema)
        let item = schema["Item"]!
        let long = String(repeating: "x", count: 476), stem = String(repeating: "y", count: 600)
        let rows: [(Int64, String, Int64)] = [(1, long, 5), (2, long, 9), (3, long, 7), (4, stem + "a", 1), (5, stem + "b", 2), (6, "short", 3)]
        try store.write { tx in
            for (id, name, rank) in rows { try tx.insert(try item.record(["id": .int64(id), "name": .string(name), "rank": .int64(rank)])) }
        }
        let queries = [
            Query("Item", where: "name" == .string(long), sort: [SortKey("rank", ascending: false)], limit: 1),
            Query("Item", where: "name" == .string(long), sort: [SortKey("rank", ascending: false)]),
            Query("Item", where: "name" == .string(long), sort: [SortKey("rank")], limit: 2),
            Query("Item", where: .condition(Condition("name", .in([.string(stem + "a"), .string(stem + "b")])))),
            Query("Item", where: .condition(Condition("name", .in([.string(stem + "a"), .string(stem + "b"), "short"])))),
        ]
        try store.read { tx in
            for q in queries {
                let want = try QueryEvaluator().fetch(q, from: tx).map(\.id)
                let got = try tx.fetch(q).map(\.id)
                let plan = try store.plan(q).description
                #expect(got == want, "got \(got), want \(want), plan \(plan.suffix(120))")
                #expect(try tx.count(q) == want.count, "count of \(q.predicate)")
            }
        }
    }
}
