import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// The store and the upgrade of migration crash trials: a version-1 store of the kit's schema
/// holding a few thousand records and links, and a plan that takes it to version 3 in two
/// stages in one open: v2 transforms every user (a full name from two attributes, an integer
/// age turned into a string, a status folded from two attributes; a table rebuild on SQLite,
/// every record rewritten on LMDB), v3 renames `Tag` to `Label` (a join table turned around),
/// adds `Post.views` and an index on `Post.title`.
public enum MigrationTorture {
    public static let v1 = SocialSchema.make()

    public static let v2: Schema = try! Schema(version: 2, entities: v2Descriptions)
    public static let v3: Schema = try! Schema(version: 3, entities: v3Descriptions)

    static var v2Descriptions: [EntityDescription] {
        var d = SocialSchema.kitDescriptions
        d[0].attributes.removeAll { $0.name == "displayName" || $0.name == "active" }
        d[0].attributes.append(Attribute("fullName", .string))
        d[0].attributes.append(Attribute("status", .string, default: "active"))
        d[0].attributes[d[0].attributes.firstIndex { $0.name == "age" }!].type = .string
        return d
    }

    static var v3Descriptions: [EntityDescription] {
        var d = v2Descriptions
        let tag = d.firstIndex { $0.name == "Tag" }!, post = d.firstIndex { $0.name == "Post" }!
        d[tag].name = "Label"
        d[post].relationships = d[post].relationships.map { $0.name == "tags" ? Relationship("tags", to: "Label", inverse: "posts", .toMany) : $0 }
        d[post].attributes.append(Attribute("views", .int64, default: 0))
        d[post].indexes.append(IndexDescription(["title"]))
        return d
    }

    /// v1 → v2 → v3.
    public static var plan: MigrationPlan {
        MigrationPlan([
            Migration(from: v1, to: v2).transforming("User") { user in
                user["fullName"] = .string("\(user.old["displayName"].stringValue ?? "") @\(user.old["username"].stringValue ?? "")")
                user["age"] = user.old["age"].int64Value.map { .string("\($0 / 10 * 10)s") } ?? .null
                user["status"] = .string(user.old["active"].boolValue == false ? "away" : "active")
            },
            Migration(from: v2, to: v3).renamingEntity("Tag", to: "Label"),
        ])
    }

    /// Writes the version-1 data: 300 users, 900 posts, 10 tags, 900 comments and their links.
    public static func load(into repo: any Repository) throws {
        let s = repo.schema
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        try repo.write { tx in
            let user = try s.entity("User"), post = try s.entity("Post"), tag = try s.entity("Tag"), comment = try s.entity("Comment")
            for t in 0..<10 { try tx.insert(try tag.record(["name": .string("t\(t)"), "color": t % 3 == 0 ? .null : .string("c\(t)")])) }
            for i in 1...300 {
                try tx.insert(try user.record([
                    "id": .int64(Int64(i)), "username": .string("user\(i)"), "displayName": .string("User \(i) Ñame"),
                    "email": i % 3 == 0 ? .null : .string("u\(i)@example.org"), "age": i % 5 == 0 ? .null : .int64(Int64(18 + i % 50)),
                    "score": .double(Double(i % 100) / 10), "active": .bool(i % 4 != 0), "joinedAt": .date(epoch.addingTimeInterval(Double(i))),
                ]))
            }
            for p in 1...900 {
                let id = Value.int64(Int64(1000 + p))
                try tx.insert(try post.record(["id": id, "title": .string("Post \(p)"), "body": .string(String(repeating: "b", count: p % 200)),
                                               "score": .int64(Int64(p % 17)), "createdAt": .date(epoch.addingTimeInterval(Double(p)))]))
                try tx.link("Post", id: id, "author", to: .int64(Int64(1 + p % 300)))
                try tx.link("Post", id: id, "tags", to: .string("t\(p % 10)"))
                if p % 10 != (p * 7) % 10 { try tx.link("Post", id: id, "tags", to: .string("t\((p * 7) % 10)")) }
                let c = Value.int64(Int64(5000 + p))
                try tx.insert(try comment.record(["id": c, "text": .string("comment \(p)"), "createdAt": .date(epoch.addingTimeInterval(Double(p)))]))
                try tx.link("Comment", id: c, "post", to: id)
                try tx.link("Comment", id: c, "author", to: .int64(Int64(1 + (p * 7) % 300)))
            }
            for i in 1...300 {
                try tx.link("User", id: .int64(Int64(i)), "following", to: .int64(Int64(i % 300 + 1)))
                let other = (i * 7) % 300 + 1
                if other != i % 300 + 1 { try tx.link("User", id: .int64(Int64(i)), "following", to: .int64(Int64(other))) }
            }
        }
    }

    /// What the child writes to its standard output when it starts opening the store.
    static let startMarker = "migrating\n"

    /// The child side of a trial: writes `startMarker`, opens the store with version 3 and the
    /// plan (migrating it), closes it and returns.
    public static func migrate(_ backend: BackendDescriptor, directory: URL, durability: Durability) throws {
        let marker = Array(startMarker.utf8)
        _ = marker.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        let store = try backend.open(v3, directory, StoreOptions(durability: durability, migrations: plan))
        try store.close()
    }
}
