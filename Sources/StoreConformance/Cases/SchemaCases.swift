import Foundation
import StoreCore

/// Schema: every attribute type, key type, default, optional and declared index works; string
/// keys at their byte bound, strings kept to the scalar, numbers and dates at their edges.
enum SchemaCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("schema", "freshStoreIsEmpty") { ctx in
            for e in ctx.schema.entities {
                try ctx.expectEqual(try ctx.read { try $0.count(Query(e.name)) }, 0, "records of \(e.name) in a new store")
            }
        },
        ConformanceCase("schema", "everyAttributeTypeRoundTrips") { ctx in
            let u = try ctx.entity("User")
            let cases: [[String: Value]] = [
                ["id": .int64(.max), "username": "max", "displayName": "", "age": .int64(.min), "score": .double(-0.5),
                 "active": false, "joinedAt": .date(Date(timeIntervalSince1970: -86_400.25)), "avatar": .bytes([]),
                 "externalID": .uuid(UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000001")!)],
                ["id": .int64(.min), "username": "min", "displayName": "日本語 🎉 e\u{301}", "email": "x@y",
                 "age": 0, "score": .double(1e300), "active": true, "joinedAt": .date(Date(timeIntervalSince1970: 1e9 + 0.123)),
                 "avatar": .bytes([0, 255, 0, 1]), "externalID": .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)],
                ["id": 0, "username": "zero", "displayName": "tab\tnew\nline'quote\"", "score": .double(-.infinity), "joinedAt": .date(Date(timeIntervalSince1970: 0))],
            ]
            let records = try cases.map { try u.record($0) }
            try ctx.write { tx in for r in records { try tx.insert(r) } }
            for r in records {
                let got = try ctx.read { try $0.fetch("User", id: r.id) }
                try ctx.expectEqual(got, r, "User \(r.id) after a round trip")
            }
            // Every write path's checksum (or its equivalent) agrees with verify()'s.
            let more = try [u.record(cases[1].merging(["id": 1, "username": "one"]) { $1 }),
                            u.record(cases[0].merging(["id": 2, "username": "two", "score": .double(-0.0)]) { $1 })]
            try ctx.write { tx in try tx.insert(contentsOf: more); try tx.upsert(records[2]); try tx.upsert(more[0]) }
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() after every type at its edges found: \(report.problems.prefix(3).map(\.description))")
        },
        ConformanceCase("schema", "optionalAttributesHoldNil") { ctx in
            let r = try ctx.record("User", ["id": 7, "username": "n", "displayName": "N", "joinedAt": .date(Date(timeIntervalSince1970: 5))])
            try ctx.write { try $0.insert(r) }
            let got = try ctx.read { try $0.fetch("User", id: 7) }
            for name in ["email", "age", "avatar", "externalID"] {
                try ctx.expectEqual(got?[name], .null, "User 7 \(name)")
            }
        },
        ConformanceCase("schema", "defaultsAreStored") { ctx in
            let r = try ctx.record("User", ["id": 7, "username": "d", "displayName": "D", "joinedAt": .date(Date(timeIntervalSince1970: 5))])
            try ctx.write { try $0.insert(r) }
            let got = try ctx.read { try $0.fetch("User", id: 7) }
            try ctx.expectEqual(got?["score"], .double(0), "default score")
            try ctx.expectEqual(got?["active"], .bool(true), "default active")
        },
        ConformanceCase("schema", "stringPrimaryKey") { ctx in
            let t = try ctx.entity("Tag")
            let names = ["", "a", "A", "é", "e\u{301}", "日本", String(repeating: "k", count: 200)]
            try ctx.write { tx in for n in names { try tx.insert(try t.record(["name": .string(n)])) } }
            for n in names {
                try ctx.expect(try ctx.read { try $0.fetch("Tag", id: .string(n)) } != nil, "Tag '\(n)' not found after insert")
            }
            try ctx.expectEqual(try ctx.ids(Query("Tag")).count, names.count, "tag count")
        },
        ConformanceCase("schema", "uuidPrimaryKey") { ctx in
            let p = try ctx.entity("Profile")
            let ids = (0..<20).map { _ in UUID() }
            try ctx.write { tx in for id in ids { try tx.insert(try p.record(["id": .uuid(id), "bio": .string(id.uuidString)])) } }
            for id in ids {
                let got = try ctx.read { try $0.fetch("Profile", id: .uuid(id)) }
                try ctx.expectEqual(got?["bio"], .string(id.uuidString), "Profile \(id)")
            }
            let sorted = try ctx.ids(Query("Profile"))
            try ctx.expectEqual(sorted, ids.sorted { Value.compare(.uuid($0), .uuid($1)) == .orderedAscending }.map(Value.uuid),
                                "profiles in key order (UUID bytes ascending)")
        },
        ConformanceCase("schema", "uniqueIndexEnforced") { ctx in
            try ctx.seed()
            let r = try ctx.record("User", ["id": 9, "username": "ann", "displayName": "Other", "joinedAt": .date(Date())])
            try ctx.expectError(.conflict, "inserting a second username 'ann'") { try ctx.write { try $0.insert(r) } }
            try ctx.expectError(.conflict, "updating bob's username to 'ann'") {
                try ctx.write { try $0.update("User", id: 2, set: ["username": "ann"]) }
            }
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 2)?["username"] }, "bob", "bob's username after the refused update")
        },
        ConformanceCase("schema", "nonUniqueIndexAllowsDuplicates") { ctx in
            try ctx.seed()
            // (age, score) is a non-unique compound index; users 1 and 4 share (30, 4.5).
            try ctx.expectIDs("User", "age == 30 AND score == 4.5", are: ids(1, 4))
            try ctx.write { try $0.update("User", id: 5, set: ["age": 30, "score": 4.5]) }
            try ctx.expectIDs("User", "age == 30 AND score == 4.5", are: ids(1, 4, 5))
        },
        .seeded("schema", "stringKeysAtTheirByteBound") { ctx in
            // A string key may hold up to Limits.maxKeyBytes UTF-8 bytes, whatever its characters.
            let t = try ctx.entity("Tag")
            let max = Limits.maxKeyBytes
            let a255 = String(repeating: "a", count: max - 1)
            // 255, 256, 256 and 256 bytes (the last ends in a two-byte "é"), in key order.
            let keys = [a255, a255 + "a", a255 + "b", String(repeating: "a", count: max - 2) + "\u{E9}"]
            try ctx.write { tx in
                for (i, k) in keys.enumerated() { try tx.insert(try t.record(["name": .string(k), "color": .string("c\(i)")])) }
            }
            for (i, k) in keys.enumerated() {
                let got = try ctx.read { try $0.fetch("Tag", id: .string(k)) }
                try ctx.expectEqual(CaseSupport.scalars(got?["name"] ?? .null), CaseSupport.scalars(.string(k)), "key of the \(k.utf8.count)-byte tag \(i)")
                try ctx.expectEqual(got?["color"], .string("c\(i)"), "color of the \(k.utf8.count)-byte tag \(i)")
            }
            try ctx.expectIDs(Query("Tag", where: "name" ~= .beginsWith("aaaa")), keys.map(Value.string), "tags at the bound, in key order")
            try ctx.write { tx in
                try tx.link("Post", id: 10, "tags", to: .string(keys[1]))
                try tx.update("Tag", id: .string(keys[3]), set: ["color": "changed"])
            }
            try ctx.expectEqual(try ctx.read { try $0.related("Tag", id: .string(keys[1]), via: "posts").map(\.id) }, ids(10), "posts of the 256-byte tag")
            try ctx.expectEqual(try ctx.read { try $0.related("Post", id: 10, via: "tags").count }, 3, "Post 10's tags, the 256-byte one among them")
            try ctx.expectEqual(try ctx.read { try $0.fetch("Tag", id: .string(keys[3]))?["color"] }, "changed", "color of the tag ending in é")
            // 257 bytes: 257 ASCII characters, or 256 characters whose last takes two bytes.
            for k in [a255 + "aa", a255 + "\u{E9}"] {
                try ctx.expectError(.invalidValue, "inserting a \(k.utf8.count)-byte key of \(k.unicodeScalars.count) characters") {
                    try ctx.write { try $0.insert(try t.record(["name": .string(k)])) }
                }
                try ctx.expectError(.invalidValue, "fetching with a \(k.utf8.count)-byte key") { _ = try ctx.read { try $0.fetch("Tag", id: .string(k)) } }
            }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Tag")) }, keys.count + 4, "tags stored (four from the fixture)")
        },
        ConformanceCase("schema", "stringsKeepTheirExactScalars") { ctx in
            // A store keeps the scalars it was given: canonically equivalent spellings ("é" and
            // "e\u{301}") are different values and different keys, never normalized.
            let names = ["e\u{301}cole", "\u{E9}cole", "\u{212B}", "\u{C5}", "\u{FB01}", "\u{FF21}\u{FF22}", "\u{1F1EF}\u{1F1F5}",
                         "\u{1F469}\u{200D}\u{1F4BB}", "\u{D55C}", "\u{1112}\u{1161}\u{11AB}", "a\u{0}b"]
            let users = try names.enumerated().map { i, n in
                try CaseSupport.user(ctx, 6 + i, ["displayName": .string(n), "email": .string(n + "@x")])
            }
            try ctx.write { try $0.insert(contentsOf: users) }
            for (i, n) in names.enumerated() {
                let got = try ctx.read { try $0.fetch("User", id: .int64(Int64(6 + i))) }
                try ctx.expectEqual(CaseSupport.scalars(got?["displayName"] ?? .null), CaseSupport.scalars(.string(n)), "scalars of user \(6 + i)'s displayName")
                try ctx.expectEqual(CaseSupport.scalars(got?["email"] ?? .null), CaseSupport.scalars(.string(n + "@x")), "scalars of user \(6 + i)'s email")
            }
            try ctx.expectIDs("User", "displayName == %@", "\u{E9}cole", are: ids(7))
            try ctx.expectIDs("User", "displayName == %@", "e\u{301}cole", are: ids(6))
            try ctx.expectIDs("User", "displayName IN %@", ["\u{212B}", "\u{D55C}"], are: ids(8, 14))
            let tags = ["e\u{301}", "\u{E9}", "\u{212B}", "\u{C5}"]
            try ctx.write { tx in
                for (i, n) in tags.enumerated() { try tx.insert(try ctx.record("Tag", ["name": .string(n), "color": .string("c\(i)")])) }
            }
            for (i, n) in tags.enumerated() {
                let got = try ctx.read { try $0.fetch("Tag", id: .string(n)) }
                try ctx.expectEqual(got?["color"], .string("c\(i)"), "color of the tag spelled \(CaseSupport.scalars(.string(n)) ?? [])")
                try ctx.expectEqual(CaseSupport.scalars(got?["name"] ?? .null), CaseSupport.scalars(.string(n)), "scalars of tag \(i)'s key")
            }
            try ctx.expectEqual(CaseSupport.scalars(try ctx.ids(Query("Tag"))), CaseSupport.scalars(tags.map(Value.string).sorted {
                Value.compare($0, $1) == .orderedAscending
            }), "tags in key order (UTF-8 bytes)")
        },
        ConformanceCase("schema", "extremeNumbersAndDatesRoundTrip") { ctx in
            // Doubles at the edges, dates to the microsecond and far from 1970, and integers past
            // 2^53 compared with doubles exactly.
            let rows: [(Double, Double, Int64)] = [   // score, joinedAt (seconds since 1970), age
                (.greatestFiniteMagnitude, 1_700_000_000.000_123_4, 9_007_199_254_740_993),
                (.leastNonzeroMagnitude, -62_135_596_800, -9_007_199_254_740_993),
                (-.leastNormalMagnitude, 253_402_300_799.999_9, .max - 1),
                (.infinity, 0.000_001, .min + 1),
                (-0.1, -0.000_001, 0),
            ]
            let users = try rows.enumerated().map { i, r in
                try CaseSupport.user(ctx, 6 + i, ["score": .double(r.0), "joinedAt": .date(Date(timeIntervalSince1970: r.1)), "age": .int64(r.2)])
            }
            try ctx.write { try $0.insert(contentsOf: users) }
            for u in users {
                try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: u.id) }, u, "User \(u.id) after a round trip")
            }
            let mine: StorePredicate = "id" >= 6
            try ctx.expectIDs(Query("User", where: mine, sort: [.asc("score")]), ids(10, 8, 7, 6, 9), "users by score")
            try ctx.expectIDs(Query("User", where: mine && "score" > 0.0), ids(6, 7, 9), "users with a positive score")
            try ctx.expectIDs("User", "score == %@", .value(.double(.leastNonzeroMagnitude)), are: ids(7))
            try ctx.expectIDs(Query("User", where: "joinedAt" < .date(Date(timeIntervalSince1970: 0))), ids(7, 10), "users joined before 1970")
            try ctx.expectIDs(Query("User", where: "joinedAt" ~= .between(.date(Date(timeIntervalSince1970: 1_700_000_000.000_123_3)),
                                                                         .date(Date(timeIntervalSince1970: 1_700_000_000.000_123_5)))),
                              ids(6), "users joined within a microsecond")
            try ctx.expectIDs(Query("User", where: "age" > .double(9_007_199_254_740_992)), ids(6, 8), "ages above 2^53 (a double)")
            try ctx.expectIDs(Query("User", where: "age" == .double(9_007_199_254_740_992)), [], "ages equal to 2^53 (a double)")
            try ctx.expectIDs(Query("User", where: "age" < .double(-9_007_199_254_740_992)), ids(7, 9), "ages below -2^53 (a double)")
        },
    ]
}
