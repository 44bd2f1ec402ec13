import Foundation
import StoreCore

/// CRUD: single-record operations, one per transaction and many per transaction; strings and
/// bytes of every size up to the limit; an update that sets nothing.
enum CRUDCases {
    static func newUser(_ ctx: ConformanceContext, _ id: Int, _ name: String) throws -> Record {
        try ctx.record("User", ["id": .int64(Int64(id)), "username": .string(name), "displayName": .string(name.capitalized),
                                "joinedAt": .date(Date(timeIntervalSince1970: Double(id)))])
    }

    static let all: [ConformanceCase] = [
        ConformanceCase("crud", "insertThenFetch") { ctx in
            let r = try newUser(ctx, 6, "frank")
            try ctx.write { try $0.insert(r) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 6) }, r, "fetched User 6")
        },
        ConformanceCase("crud", "fetchMissingIsNil") { ctx in
            try ctx.seed()
            try ctx.expect(try ctx.read { try $0.fetch("User", id: 99) } == nil, "User 99 should not exist")
            try ctx.expect(try ctx.read { try $0.fetch("Tag", id: "nope") } == nil, "Tag 'nope' should not exist")
        },
        ConformanceCase("crud", "duplicateKeyIsConflict") { ctx in
            try ctx.seed()
            let before = try ctx.read { try $0.fetch("User", id: 1) }
            try ctx.expectError(.conflict, "inserting User 1 twice") { try ctx.write { try $0.insert(try newUser(ctx, 1, "other")) } }
            try ctx.expectError(.conflict, "inserting Tag 'swift' twice") {
                try ctx.write { try $0.insert(try ctx.record("Tag", ["name": "swift"])) }
            }
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1) }, before, "User 1 after the refused insert")
        },
        ConformanceCase("crud", "upsertInserts") { ctx in
            let r = try newUser(ctx, 6, "frank")
            try ctx.write { try $0.upsert(r) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 6) }, r, "upserted User 6")
        },
        ConformanceCase("crud", "upsertReplacesAttributesKeepsLinks") { ctx in
            try ctx.seed()
            let r = try ctx.record("User", ["id": 1, "username": "ann2", "displayName": "Ann Two", "score": 9.0, "active": false,
                                            "joinedAt": .date(Date(timeIntervalSince1970: 42))])
            try ctx.write { try $0.upsert(r) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1) }, r, "User 1 after upsert (email and age now nil)")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 1, via: "posts").map(\.id) }, ids(10, 11), "ann's posts after upsert")
        },
        ConformanceCase("crud", "partialUpdateChangesOnlyGivenAttributes") { ctx in
            try ctx.seed()
            var expected = try ctx.read { try $0.fetch("User", id: 2) }!
            try ctx.write { try $0.update("User", id: 2, set: ["age": 26]) }
            expected["age"] = 26
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 2) }, expected, "User 2 after updating age")
        },
        ConformanceCase("crud", "updateSeveralAttributes") { ctx in
            try ctx.seed()
            var expected = try ctx.read { try $0.fetch("Post", id: 14) }!
            try ctx.write { try $0.update("Post", id: 14, set: ["title": "Renamed", "score": 9, "rating": 1.5, "published": true]) }
            expected["title"] = "Renamed"; expected["score"] = 9; expected["rating"] = 1.5; expected["published"] = true
            try ctx.expectEqual(try ctx.read { try $0.fetch("Post", id: 14) }, expected, "Post 14 after a four-attribute update")
        },
        ConformanceCase("crud", "updateToNil") { ctx in
            try ctx.seed()
            try ctx.write { try $0.update("User", id: 1, set: ["email": nil, "age": nil]) }
            let r = try ctx.read { try $0.fetch("User", id: 1) }
            try ctx.expectEqual(r?["email"], .null, "email")
            try ctx.expectEqual(r?["age"], .null, "age")
        },
        ConformanceCase("crud", "updateMissingIsNotFound") { ctx in
            try ctx.seed()
            try ctx.expectError(.notFound, "updating User 99") { try ctx.write { try $0.update("User", id: 99, set: ["age": 1]) } }
        },
        ConformanceCase("crud", "deleteRemoves") { ctx in
            try ctx.seed()
            try ctx.write { try $0.delete("Post", id: 15) }
            try ctx.expect(try ctx.read { try $0.fetch("Post", id: 15) } == nil, "Post 15 still there after delete")
            try ctx.expectIDs(Query("Post"), ids(10, 11, 12, 13, 14))
        },
        ConformanceCase("crud", "deleteMissingIsNotFound") { ctx in
            try ctx.seed()
            try ctx.expectError(.notFound, "deleting Post 99") { try ctx.write { try $0.delete("Post", id: 99) } }
            try ctx.expectError(.notFound, "deleting Tag 'nope'") { try ctx.write { try $0.delete("Tag", id: "nope") } }
        },
        ConformanceCase("crud", "manyOperationsInOneTransaction") { ctx in
            try ctx.write { tx in
                for i in 1...50 { try tx.insert(try newUser(ctx, i, "u\(i)")) }
                for i in 1...20 { try tx.update("User", id: .int64(Int64(i)), set: ["age": .int64(Int64(i))]) }
                for i in 41...50 { try tx.delete("User", id: .int64(Int64(i))) }
            }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 40, "users left")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: "age" != nil)) }, 20, "users with an age")
        },
        ConformanceCase("crud", "oneOperationPerTransaction") { ctx in
            for i in 1...30 { try ctx.write { try $0.insert(try newUser(ctx, i, "u\(i)")) } }
            for i in 1...10 { try ctx.write { try $0.update("User", id: .int64(Int64(i)), set: ["score": 7.0]) } }
            for i in 21...30 { try ctx.write { try $0.delete("User", id: .int64(Int64(i))) } }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User")) }, 20, "users left")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: "score" == 7.0)) }, 10, "users with score 7")
        },
        ConformanceCase("crud", "typedModelRoundTrip") { ctx in
            let tags = [TagModel(name: "a", color: "red"), TagModel(name: "b", color: nil)]
            try ctx.write { try $0.insert(contentsOf: tags) }
            let back = try ctx.read { try $0.fetch(TagModel.self, sort: [.asc("name")]) }
            try ctx.expectEqual(back, tags, "tags decoded from borrowed rows")
            try ctx.expectEqual(try ctx.read { try $0.fetch(TagModel.self, id: "b") }, tags[1], "tag 'b' by key")
            let profile = ProfileModel(id: UUID(), bio: nil)
            try ctx.write { try $0.insert(profile) }
            try ctx.expectEqual(try ctx.read { try $0.fetch(ProfileModel.self, id: .uuid(profile.id)) }, profile, "profile by UUID key")
        },
        ConformanceCase("crud", "forEachStreamsTheSameRows") { ctx in
            try ctx.seed()
            let q = Query("Post", where: "score" >= 3, sort: [.desc("score")])
            let fetched = try ctx.read { try $0.fetch(q) }
            var streamed: [Record] = []
            try ctx.read { tx in try tx.forEach(q) { streamed.append(Record($0)) } }
            try ctx.expectEqual(streamed, fetched, "rows streamed by forEach vs fetched")
            var titles: [String] = []
            let o = try ctx.entity("Post").ordinal(of: "title")!
            try ctx.read { tx in try tx.forEach(q) { titles.append($0.string(at: o) ?? "?") } }
            try ctx.expectEqual(titles, fetched.map { $0.string(at: o) ?? "?" }, "titles read through the borrowed row")
        },
        ConformanceCase("crud", "forEachPackedStreamsTheSameRows") { ctx in
            // Packed rows (the typed read path) give every entity's records as fetch does,
            // nulls, UUIDs and bytes included, in a read and inside a write.
            try ctx.seed()
            try ctx.write { tx in
                try tx.update("User", id: 1, set: ["avatar": .bytes([0, 1, 0xFF]), "externalID": .uuid(UUID(uuidString: "12345678-9ABC-DEF0-1234-56789ABCDEF0")!)])
            }
            for e in ctx.schema.entities {
                let q = Query(e.name, sort: [.asc(KeyPathExpression(e.primaryKey.name))])
                let fetched = try ctx.read { try $0.fetch(q) }
                var packed: [Record] = [], typed: [Value] = []
                try ctx.read { tx in
                    try tx.forEachPacked(q) { row in
                        packed.append(Record(row))
                        typed += CaseSupport.typedValues(row)
                    }
                }
                try ctx.expectEqual(packed, fetched, "\(e.name): rows streamed by forEachPacked vs fetched")
                try ctx.expectEqual(typed, fetched.flatMap(\.values), "\(e.name): values read through the packed row's typed accessors")
                var inWrite: [Record] = []
                try ctx.write { tx in try tx.forEachPacked(q) { inWrite.append(Record($0)) } }
                try ctx.expectEqual(inWrite, fetched, "\(e.name): forEachPacked inside a write")
            }
        },
        ConformanceCase("crud", "valuesUpToTheSizeLimitRoundTrip") { ctx in
            // Strings and bytes of every size up to Limits.maxValueBytes come back whole: around
            // 64 KiB, at 1 MiB and at the limit; one byte more is invalidValue on every write path.
            let sizes = [(1 << 16) - 1, 1 << 16, (1 << 16) + 1, 1 << 20, Limits.maxValueBytes]
            func post(_ id: Int, _ body: String) throws -> Record {
                try ctx.record("Post", ["id": .int64(Int64(id)), "title": "t", "body": .string(body), "createdAt": CaseSupport.date(0)])
            }
            func expectStored(_ id: Int, body: String, avatar: [UInt8], _ what: String) throws {
                let (p, u) = try ctx.read { tx in (try tx.fetch("Post", id: .int64(Int64(id))), try tx.fetch("User", id: .int64(Int64(id)))) }
                try ctx.expectEqual(p?["body"].stringValue?.utf8.count, body.utf8.count, "bytes of the string read back (\(what))")
                try ctx.expect(p?["body"] == .string(body), "the \(body.utf8.count)-byte string read back differs (\(what))")
                try ctx.expectEqual(u?["avatar"].bytesValue?.count, avatar.count, "count of the bytes read back (\(what))")
                try ctx.expect(u?["avatar"] == .bytes(avatar), "the \(avatar.count) bytes read back differ (\(what))")
            }
            for (i, n) in sizes.enumerated() {
                let body = CaseSupport.text(n, seed: UInt8(i)), avatar = CaseSupport.bytes(n, seed: UInt8(i))
                try ctx.write { tx in
                    try tx.insert(try post(i, body))
                    try tx.insert(try CaseSupport.user(ctx, i, ["avatar": .bytes(avatar)]))
                }
                try expectStored(i, body: body, avatar: avatar, "\(n) bytes, inserted")
            }
            // Past 64 KiB through every other write path: update, upsert, update-where, a batch.
            let n = (1 << 16) + 1, limit = Limits.maxValueBytes
            let (b1, a1) = (CaseSupport.text(n, seed: 9), CaseSupport.bytes(n, seed: 9))
            try ctx.write { tx in
                try tx.update("Post", id: 2, set: ["body": .string(b1)])
                try tx.upsert(try CaseSupport.user(ctx, 2, ["avatar": .bytes(a1)]))
            }
            try expectStored(2, body: b1, avatar: a1, "\(n) bytes, updated and upserted")
            let (b2, a2) = (CaseSupport.text(n, seed: 7), CaseSupport.bytes(n, seed: 7))
            try ctx.write { tx in
                try ctx.expectEqual(try tx.update("Post", where: "id" == 0, set: ["body": .string(b2)]), 1, "posts updated")
                _ = try tx.update("User", where: "id" == 0, set: ["avatar": .bytes(a2)])
                try tx.insert(contentsOf: [try post(20, b2), try CaseSupport.user(ctx, 20, ["avatar": .bytes(a1)])])
            }
            try expectStored(0, body: b2, avatar: a2, "\(n) bytes, set by update-where")
            try expectStored(20, body: b2, avatar: a1, "\(n) bytes, inserted by a batch")
            let over = CaseSupport.text(limit + 1)
            try ctx.expectError(.invalidValue, "upserting a string one byte over the limit") { try ctx.write { try $0.upsert(try post(0, over)) } }
            try ctx.expectError(.invalidValue, "a batch with a string one byte over the limit") { try ctx.write { try $0.insert(contentsOf: [try post(30, over)]) } }
            try ctx.expectError(.invalidValue, "update-where with bytes one over the limit") {
                try ctx.write { _ = try $0.update("User", where: .all, set: ["avatar": .bytes(CaseSupport.bytes(limit + 1))]) }
            }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Post")) }, sizes.count + 1, "posts after the refused writes")
        },
        .seeded("crud", "emptyUpdateStillChecksTheRecord") { ctx in
            // An update that sets nothing changes nothing, but a missing record is still notFound.
            let before = try ctx.dump()
            try ctx.write { try $0.update("User", id: 1, set: [:]) }
            try ctx.expectError(.notFound, "an update of missing User 99 that sets nothing") { try ctx.write { try $0.update("User", id: 99, set: [:]) } }
            try ctx.expectError(.notFound, "an update of missing Tag 'nope' that sets nothing") { try ctx.write { try $0.update("Tag", id: "nope", set: [:]) } }
            try ctx.expectEqual(try ctx.write { try $0.update("Post", where: "published" == true, set: [:]) }, 4, "posts matched by an update-where setting nothing")
            try ctx.expectEqual(try ctx.dump(), before, "store after updates that set nothing")
        },
        // Added after the held-back measurement (updateNotAtomicAcrossAttributes).
        ConformanceCase("crud", "updateOfSeveralAttributesIsAtomic") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            // username (last in name order, and the only change that can fail late) takes ann's.
            // Caught inside the transaction, which then commits: the operation alone must be atomic.
            _ = try ctx.write { tx in
                try ctx.expectError(.conflict, "an update of five attributes whose username is taken") {
                    try tx.update("User", id: 2, set: ["active": true, "age": 99, "displayName": "X", "score": 9.5, "username": "ann"])
                }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused update, committed")
        },
    ]
}

/// A typed model for the kit's `Tag` entity.
struct TagModel: StoredModel, Equatable {
    static let entityName = "Tag"
    var name: String
    var color: String?
    init(name: String, color: String?) { self.name = name; self.color = color }
    init(row: some RowView) throws {
        name = try row.require(String.self, at: 0)
        color = row.string(at: 1)
    }
    func values(for entity: Entity) -> [Value] { [.string(name), color.map(Value.string) ?? .null] }
}

/// A typed model for the kit's `Profile` entity (UUID key).
struct ProfileModel: StoredModel, Equatable {
    static let entityName = "Profile"
    var id: UUID
    var bio: String?
    init(id: UUID, bio: String?) { self.id = id; self.bio = bio }
    init(row: some RowView) throws {
        id = try row.require(UUID.self, at: 0)
        bio = row.string(at: 1)
    }
    func values(for entity: Entity) -> [Value] { [.uuid(id), bio.map(Value.string) ?? .null] }
}
