import Foundation
import StoreCore

/// Schema: every attribute type, key type, default, optional and declared index works.
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
    ]
}
