import Foundation
import StoreCore

/// Sizes that real data reaches, at the boundaries where the built-in backends chunk, page or
/// change representation: tens of thousands of records in one batch (the object graph purges
/// its registry past 4,096 objects), rows past 42 and 100 columns (SQL's checksum calls chain
/// there), values around LMDB's page and node sizes, indexed strings past LMDB's 511-byte keys,
/// integer keys past 9 (text order) and past 2^31 (32-bit), and non-ASCII text in every path.
enum SizeCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("sizes", "batchesAndDeletesOfTensOfThousands") { ctx in
            let n = 25_000
            let users = try (1...n).map { try CaseSupport.user(ctx, $0, ["age": .int64(Int64($0 % 2))]) }
            try ctx.expectError(.conflict, "a batch of \(n + 1) users whose last repeats the first key") {
                try ctx.write { try $0.insert(contentsOf: users + [users[0]]) }
            }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 0, "users after the refused batch")
            try ctx.write { try $0.insert(contentsOf: users) }
            try ctx.expectEqual(try ctx.write { try $0.update("User", where: KeyPathExpression("id") > 0, set: ["score": 1.5]) }, n, "users update-where counted")
            try ctx.expectEqual(try ctx.write { try $0.delete("User", where: "age" == 1) }, n / 2, "odd users delete-where counted")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: "age" == 1)) }, 0, "odd users left")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: "score" == 1.5)) }, n / 2, "even users with the new score")
            let page = try ctx.ids(Query("User", sort: [.desc("id")], limit: 3, offset: 10_000))
            try ctx.expectEqual(page, [n - 20_000, n - 20_002, n - 20_004].map { .int64(Int64($0)) }, "a page past the 10,000th user")
        },
        ConformanceCase("sizes", "rowsPastFortyTwoAndOneHundredColumns") { ctx in
            let wide = try ctx.startOver(with: try Schema(version: 1, entities: [EntityDescription("Wide", primaryKey: "id",
                attributes: [Attribute("id", .int64)] + (0..<130).map { Attribute("c\($0)", $0 % 2 == 0 ? .int64 : .string, optional: true) })]))
            let e = try wide.schema.entity("Wide")
            func value(_ i: Int, _ k: Int) -> Value { i % 2 == 0 ? .int64(Int64(i * 1000 + k)) : .string("v\(i)-\(k)") }
            let record = try e.record(Dictionary(uniqueKeysWithValues: [("id", Value.int64(1))] + (0..<130).map { ("c\($0)", value($0, 1)) }))
            try ctx.write { try $0.insert(record) }
            try ctx.write { try $0.update("Wide", id: 1, set: Dictionary(uniqueKeysWithValues: (0..<120).map { ("c\($0)", value($0, 2)) })) }
            _ = try ctx.write { try $0.update("Wide", where: "id" == 1, set: Dictionary(uniqueKeysWithValues: (100..<130).map { ("c\($0)", value($0, 3)) })) }
            let expected = (0..<130).map { value($0, $0 < 100 ? 2 : 3) }
            if try ctx.repository.capabilities.contains(.persistence) { try ctx.reopen() }
            let got = try ctx.read { try $0.fetch("Wide", id: 1) }
            try ctx.expectEqual(got.map { Array($0.values.dropFirst()) }, expected, "the 130 columns after updates of 120 and 30")
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() of the wide row found: \(report.problems.prefix(3).map(\.description))")
        },
        ConformanceCase("sizes", "valuesAroundPageAndNodeSizes") { ctx in
            let sizes = [2_000, 2_022, 2_023, 2_040, 2_048, 4_080, 4_095, 4_096, 4_097, 8_191, 8_193, 65_535, 65_536]
            try ctx.write { tx in
                for (i, s) in sizes.enumerated() {
                    try tx.insert(try CaseSupport.user(ctx, i + 1, ["email": .string(CaseSupport.text(s, seed: UInt8(i))), "avatar": .bytes(CaseSupport.bytes(s, seed: UInt8(i)))]))
                }
            }
            try ctx.write { tx in                                  // each grows or shrinks across the next boundary
                for (i, s) in sizes.enumerated() {
                    let t = sizes[(i + 1) % sizes.count]
                    try tx.update("User", id: .int64(Int64(i + 1)), set: ["email": .string(CaseSupport.text(t, seed: UInt8(i + 1))), "avatar": .bytes(CaseSupport.bytes(s - 1))])
                }
            }
            if try ctx.repository.capabilities.contains(.persistence) { try ctx.reopen() }
            for (i, s) in sizes.enumerated() {
                let u = try ctx.read { try $0.fetch("User", id: .int64(Int64(i + 1))) }
                try ctx.expectEqual(u?["email"], .string(CaseSupport.text(sizes[(i + 1) % sizes.count], seed: UInt8(i + 1))), "User \(i + 1)'s email")
                try ctx.expectEqual(u?["avatar"], .bytes(CaseSupport.bytes(s - 1)), "User \(i + 1)'s avatar of \(s - 1) bytes")
            }
            try VerifyCases.expectCleanAndCounted(ctx, "after values around page sizes")
        },
        ConformanceCase("sizes", "longIndexedStrings") { ctx in
            let stem = CaseSupport.text(600)
            let names = [stem + "b", stem + "a", stem, String(stem.prefix(511)), String(stem.prefix(512)), stem + "\u{E9}", stem + "e\u{301}",
                         CaseSupport.text(70_000), CaseSupport.text(70_000, seed: 1)]
            try ctx.write { tx in for (i, n) in names.enumerated() { try tx.insert(try CRUDCases.newUser(ctx, i + 1, n)) } }
            for (i, n) in names.enumerated() {
                try ctx.expectIDs("User", "username == %@", .string(n), are: [.int64(Int64(i + 1))])
                try ctx.expectError(.conflict, "a second user with the \(n.utf8.count)-byte username of user \(i + 1)") {
                    try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 100 + i, n)) }
                }
            }
            let sorted = names.indices.sorted { names[$0].unicodeScalars.lexicographicallyPrecedes(names[$1].unicodeScalars) }
            try ctx.expectIDs(Query("User", sort: [.asc("username")]), sorted.map { .int64(Int64($0 + 1)) }, "users by their long usernames")
            try ctx.expectIDs("User", "username BEGINSWITH %@", .string(stem), are: ids(1, 2, 3, 6, 7, 8))
            try VerifyCases.expectCleanAndCounted(ctx, "with long indexed usernames")
        },
        ConformanceCase("sizes", "integerKeysPastNineAndTwoToThe31") { ctx in
            let keys: [Int64] = [9, 10, 11, 99, 100, 1_000, (1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) + 7, -1, -(1 << 31) - 1, .max, .min]
            try ctx.write { tx in
                try tx.insert(try CRUDCases.newUser(ctx, 1, "hub"))
                for k in keys {
                    try tx.insert(try ctx.record("Post", ["id": .int64(k), "title": .string("p\(k)"), "createdAt": CaseSupport.date(Double(k % 1000))]))
                    try tx.link("Post", id: .int64(k), "author", to: 1)
                    try tx.insert(try ctx.record("User", ["id": .int64(k), "username": .string("k\(k)"), "displayName": "K", "joinedAt": CaseSupport.date(0)]))
                    try tx.link("User", id: 1, "following", to: .int64(k))
                }
            }
            let ordered = keys.sorted().map(Value.int64)
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 1, via: "posts").map(\.id) }, ordered, "the hub's posts in key order")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 1, via: "following").map(\.id) }, ordered, "the users the hub follows in key order")
            try ctx.expectIDs(Query("Post", sort: [.desc("id")]), ordered.reversed(), "posts by descending key")
            try ctx.expectIDs(Query("Post", where: KeyPathExpression("id") > .int64((1 << 31) - 1)), keys.filter { $0 > (1 << 31) - 1 }.sorted().map(Value.int64), "posts past 2^31 - 1")
            for k in keys { try ctx.expectEqual(try ctx.read { try $0.fetch("Post", id: .int64(k))?["title"] }, .string("p\(k)"), "post \(k)") }
        },
        ConformanceCase("sizes", "packedRowsWithPagingAndEdgeValues") { ctx in
            try ctx.write { tx in
                for i in 1...600 {
                    let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 0.000_137)
                    try tx.insert(try CaseSupport.user(ctx, i, ["email": i % 3 == 0 ? "" : (i % 3 == 1 ? .null : .string("m\(i)")),
                                                              "joinedAt": .date(date), "score": .double(Double(i) / 7), "age": i % 5 == 0 ? .null : .int64(Int64(i))]))
                }
            }
            let queries = [Query("User", sort: [.desc("joinedAt")], limit: 7, offset: 300), Query("User", where: "email" == "", limit: 50, offset: 150),
                           Query("User", where: KeyPathExpression("id") > 590, sort: [.asc("age")], offset: 2), Query("User", limit: 0)]
            for q in queries {
                let fetched = try ctx.read { try $0.fetch(q) }
                var packed: [Record] = [], typed: [Value] = []
                try ctx.read { tx in try tx.forEachPacked(q) { packed.append(Record($0)); typed += CaseSupport.typedValues($0) } }
                let what = "\(q.entity) where \(q.predicate) limit \(q.limit.map(String.init) ?? "-") offset \(q.offset)"
                try ctx.expectEqual(packed.map(ConformanceContext.exactDescription), fetched.map(ConformanceContext.exactDescription), "packed rows of \(what)")
                try ctx.expectEqual(typed, fetched.flatMap(\.values), "typed reads of the packed rows of \(what)")
            }
        },
        ConformanceCase("sizes", "nonASCIITextInEveryPath") { ctx in
            try UnicodeTextPaths.run(ctx)
        },
    ]
}
