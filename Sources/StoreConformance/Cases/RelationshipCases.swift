import Foundation
import StoreCore

/// Relationships: inverses kept on both sides for every cardinality, and delete rules.
enum RelationshipCases {
    static func related(_ ctx: ConformanceContext, _ e: String, _ id: Value, _ r: String) throws -> [Value] {
        try ctx.read { try $0.related(e, id: id, via: r).map(\.id) }
    }

    static func seeded(_ name: String, _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        .seeded("relationships", name, body)
    }

    static let all: [ConformanceCase] = [
        seeded("traverseEveryKind") { ctx in
            try ctx.expectEqual(try related(ctx, "User", 1, "posts"), ids(10, 11), "ann's posts")
            try ctx.expectEqual(try related(ctx, "Post", 10, "author"), ids(1), "Post 10's author")
            try ctx.expectEqual(try related(ctx, "Post", 15, "author"), [], "Post 15's author")
            try ctx.expectEqual(try related(ctx, "Post", 10, "tags"), ["Unicode", "cafe"], "Post 10's tags")
            try ctx.expectEqual(try related(ctx, "Tag", "Unicode", "posts"), ids(10, 11, 13), "Unicode's posts")
            try ctx.expectEqual(try related(ctx, "User", 1, "following"), ids(2, 4), "ann follows")
            try ctx.expectEqual(try related(ctx, "User", 1, "followers"), ids(2, 3), "ann's followers")
            try ctx.expectEqual(try related(ctx, "User", 1, "profile"), [.uuid(SocialFixture.profile1)], "ann's profile")
            try ctx.expectEqual(try related(ctx, "Profile", .uuid(SocialFixture.profile2), "user"), ids(2), "P2's user")
            try ctx.expectEqual(try related(ctx, "Comment", 101, "parent"), ids(100), "101's parent")
            try ctx.expectEqual(try related(ctx, "Comment", 100, "replies"), ids(101), "100's replies")
        },
        seeded("linkToOneUpdatesInverse") { ctx in
            try ctx.write { try $0.link("Post", id: 15, "author", to: 5) }
            try ctx.expectEqual(try related(ctx, "User", 5, "posts"), ids(15), "chloe's posts")
            try ctx.expectEqual(try related(ctx, "Post", 15, "author"), ids(5), "Post 15's author")
        },
        seeded("linkToManyUpdatesInverse") { ctx in
            try ctx.write { try $0.link("User", id: 5, "posts", to: 14) }
            try ctx.expectEqual(try related(ctx, "Post", 14, "author"), ids(5), "Post 14's author")
            try ctx.expectEqual(try related(ctx, "User", 4, "posts"), [], "zoe's posts after Post 14 moved to chloe")
            try ctx.expectEqual(try related(ctx, "User", 5, "posts"), ids(14), "chloe's posts")
        },
        seeded("relinkToOneMovesFromOldOwner") { ctx in
            try ctx.write { try $0.link("Post", id: 10, "author", to: 2) }
            try ctx.expectEqual(try related(ctx, "User", 1, "posts"), ids(11), "ann's posts")
            try ctx.expectEqual(try related(ctx, "User", 2, "posts"), ids(10, 12), "bob's posts")
        },
        seeded("manyToManyBothSides") { ctx in
            try ctx.write { try $0.link("Post", id: 15, "tags", to: "db") }
            try ctx.expectEqual(try related(ctx, "Tag", "db", "posts"), ids(12, 15), "db's posts")
            try ctx.write { try $0.link("Tag", id: "cafe", "posts", to: 14) }
            try ctx.expectEqual(try related(ctx, "Post", 14, "tags"), ["cafe", "swift"], "Post 14's tags")
        },
        seeded("unlinkRemovesBothSides") { ctx in
            try ctx.write { tx in
                try tx.unlink("Post", id: 12, "tags", from: "db")
                try tx.unlink("Post", id: 10, "author", from: 1)
                try tx.unlink("User", id: 1, "following", from: 4)
            }
            try ctx.expectEqual(try related(ctx, "Tag", "db", "posts"), [], "db's posts")
            try ctx.expectEqual(try related(ctx, "Post", 12, "tags"), ["swift"], "Post 12's tags")
            try ctx.expectEqual(try related(ctx, "User", 1, "posts"), ids(11), "ann's posts")
            try ctx.expectEqual(try related(ctx, "User", 4, "followers"), [], "zoe's followers")
            try ctx.write { try $0.unlink("Post", id: 12, "tags", from: "db") }   // absent: no-op
        },
        seeded("oneToOneIsExclusive") { ctx in
            try ctx.write { try $0.link("User", id: 3, "profile", to: .uuid(SocialFixture.profile1)) }
            try ctx.expectEqual(try related(ctx, "User", 1, "profile"), [], "ann's profile after P1 moved to emile")
            try ctx.expectEqual(try related(ctx, "Profile", .uuid(SocialFixture.profile1), "user"), ids(3), "P1's user")
            try ctx.write { try $0.link("User", id: 3, "profile", to: .uuid(SocialFixture.profile2)) }
            try ctx.expectEqual(try related(ctx, "Profile", .uuid(SocialFixture.profile1), "user"), [], "P1's user after emile took P2")
            try ctx.expectEqual(try related(ctx, "User", 2, "profile"), [], "bob's profile after P2 moved")
            try ctx.expectEqual(try related(ctx, "User", 3, "profile"), [.uuid(SocialFixture.profile2)], "emile's profile")
        },
        seeded("selfReferentialManyToMany") { ctx in
            try ctx.write { try $0.link("User", id: 5, "following", to: 1) }
            try ctx.expectEqual(try related(ctx, "User", 1, "followers"), ids(2, 3, 5), "ann's followers")
            try ctx.write { try $0.link("User", id: 4, "followers", to: 5) }
            try ctx.expectEqual(try related(ctx, "User", 5, "following"), ids(1, 4), "chloe follows")
        },
        seeded("linkTwiceIsNoOp") { ctx in
            try ctx.write { tx in
                try tx.link("Post", id: 10, "tags", to: "cafe")
                try tx.link("Post", id: 10, "author", to: 1)
            }
            try ctx.expectEqual(try related(ctx, "Tag", "cafe", "posts"), ids(10), "cafe's posts")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Post", where: try StorePredicate(format: "tags.@count == 2"))) }, 2,
                                "posts with two tags")
        },
        seeded("linkMissingRecordIsNotFound") { ctx in
            let before = try ctx.dump()
            try ctx.expectError(.notFound, "linking to a missing tag") { try ctx.write { try $0.link("Post", id: 10, "tags", to: "nope") } }
            try ctx.expectError(.notFound, "linking from a missing post") { try ctx.write { try $0.link("Post", id: 99, "author", to: 1) } }
            try ctx.expectError(.notFound, "traversing from a missing user") { _ = try related(ctx, "User", 99, "posts") }
            try ctx.expectEqual(try ctx.dump(), before, "store after refused links")
        },
        seeded("cascadeDeletes") { ctx in
            try ctx.write { try $0.delete("User", id: 1) }
            try ctx.expectIDs(Query("User"), ids(2, 3, 4, 5))
            try ctx.expectIDs(Query("Post"), ids(12, 13, 14, 15), "posts after deleting ann")
            try ctx.expectIDs(Query("Comment"), [], "comments after deleting ann (on her posts, or hers)")
            try ctx.expectIDs(Query("Profile"), [.uuid(SocialFixture.profile2)], "profiles after deleting ann")
            try ctx.expectEqual(try related(ctx, "User", 2, "following"), [], "bob follows")
            try ctx.expectEqual(try related(ctx, "User", 4, "followers"), [], "zoe's followers")
            try ctx.expectEqual(try related(ctx, "Tag", "Unicode", "posts"), ids(13), "Unicode's posts")
        },
        seeded("cascadeIsRecursive") { ctx in
            try ctx.write { try $0.delete("Comment", id: 100) }
            try ctx.expectIDs(Query("Comment"), ids(103, 104), "comments after deleting the root of a reply tree")
            try ctx.expectEqual(try related(ctx, "Post", 10, "comments"), [], "Post 10's comments")
        },
        seeded("nullifyKeepsDestination") { ctx in
            try ctx.write { try $0.delete("Post", id: 12) }
            try ctx.expect(try ctx.read { try $0.fetch("User", id: 2) } != nil, "bob was deleted with his post")
            try ctx.expectEqual(try related(ctx, "User", 2, "posts"), [], "bob's posts")
            try ctx.expectEqual(try related(ctx, "Tag", "swift", "posts"), ids(14), "swift's posts")
            try ctx.expectIDs(Query("Comment"), ids(100, 101, 102, 104), "comments (103 cascaded with its post)")
            try ctx.write { try $0.delete("Profile", id: .uuid(SocialFixture.profile1)) }
            try ctx.expect(try ctx.read { try $0.fetch("User", id: 1) } != nil, "ann was deleted with her profile")
            try ctx.expectEqual(try related(ctx, "User", 1, "profile"), [], "ann's profile")
        },
        seeded("denyRefusesAndKeepsEverything") { ctx in
            let before = try ctx.dump()
            try ctx.expectError(.constraintViolation, "deleting tag 'swift' (deny rule, two posts)") {
                try ctx.write { try $0.delete("Tag", id: "swift") }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused delete")
            // When the error propagates, the whole transaction rolls back.
            try ctx.expectError(.constraintViolation, "a transaction whose delete is denied") {
                try ctx.write { tx in
                    try tx.insert(try CRUDCases.newUser(ctx, 6, "frank"))
                    try tx.delete("Tag", id: "swift")
                }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the rolled-back transaction")
            // Once no post refers to it, the tag can go.
            try ctx.write { tx in
                try tx.unlink("Post", id: 12, "tags", from: "db")
                try tx.delete("Tag", id: "db")
            }
            try ctx.expect(try ctx.read { try $0.fetch("Tag", id: "db") } == nil, "tag 'db' still there")
        },
    ]
}
