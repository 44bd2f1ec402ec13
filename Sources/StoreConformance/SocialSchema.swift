import StoreCore

/// The schema the kit's cases run on: the seeds' social domain, chosen to cover every
/// attribute type, all three key types and every kind of relationship and delete rule.
///
/// | entity  | key    | relationships (rule)                                                  |
/// |---------|--------|------------------------------------------------------------------------|
/// | User    | int64  | posts→Post.author (cascade), comments (cascade), following↔followers (many-to-many, self), profile↔Profile.user (one-to-one, cascade) |
/// | Post    | int64  | author→User, comments→Comment.post (cascade), tags↔Tag.posts (many-to-many) |
/// | Comment | int64  | post, author, parent↔replies (self, replies cascade)                    |
/// | Tag     | string | posts (deny)                                                            |
/// | Profile | uuid   | user, badges↔Badge.holder (deny)                                        |
/// | Badge   | string | holder                                                                  |
///
/// `Badge` exists so that a cascade reaches a `deny` rule: deleting a user cascades to their
/// profile, which cannot go while it holds badges (User → profile → badges). It and
/// `Profile.badges` are the kit's alone (`kitDescriptions`); the benchmark's schema takes the
/// other five (`descriptions`). `SocialFixture` creates no badges; the cases that need them add
/// their own.
public enum SocialSchema {
    public static let version = 1

    public static func make(version: Int = version) -> Schema {
        // The declarations are fixed and valid; a failure here is a bug in the kit.
        try! Schema(version: version, entities: kitDescriptions)
    }

    /// The social domain's five entities, which the benchmark's schema (`BenchSchema`) shares.
    public static let descriptions: [EntityDescription] = [
        EntityDescription(
            "User", primaryKey: "id",
            attributes: [
                Attribute("id", .int64),
                Attribute("username", .string),
                Attribute("displayName", .string),
                Attribute("email", .string, optional: true),
                Attribute("age", .int64, optional: true),
                Attribute("score", .double, default: 0.0),
                Attribute("active", .bool, default: true),
                Attribute("joinedAt", .date),
                Attribute("avatar", .bytes, optional: true),
                Attribute("externalID", .uuid, optional: true),
            ],
            indexes: [IndexDescription(["username"], unique: true), IndexDescription(["age", "score"])],
            relationships: [
                Relationship("posts", to: "Post", inverse: "author", .toMany, deleteRule: .cascade),
                Relationship("comments", to: "Comment", inverse: "author", .toMany, deleteRule: .cascade),
                Relationship("following", to: "User", inverse: "followers", .toMany),
                Relationship("followers", to: "User", inverse: "following", .toMany),
                Relationship("profile", to: "Profile", inverse: "user", .toOne, deleteRule: .cascade),
            ]),
        EntityDescription(
            "Post", primaryKey: "id",
            attributes: [
                Attribute("id", .int64),
                Attribute("title", .string),
                Attribute("body", .string, default: ""),
                Attribute("score", .int64, default: 0),
                Attribute("createdAt", .date),
                Attribute("rating", .double, optional: true),
                Attribute("published", .bool, default: false),
            ],
            indexes: [IndexDescription(["createdAt"]), IndexDescription(["published", "score"])],
            relationships: [
                Relationship("author", to: "User", inverse: "posts", .toOne),
                Relationship("comments", to: "Comment", inverse: "post", .toMany, deleteRule: .cascade),
                Relationship("tags", to: "Tag", inverse: "posts", .toMany),
            ]),
        EntityDescription(
            "Comment", primaryKey: "id",
            attributes: [
                Attribute("id", .int64),
                Attribute("text", .string),
                Attribute("createdAt", .date),
            ],
            relationships: [
                Relationship("post", to: "Post", inverse: "comments", .toOne),
                Relationship("author", to: "User", inverse: "comments", .toOne),
                Relationship("parent", to: "Comment", inverse: "replies", .toOne),
                Relationship("replies", to: "Comment", inverse: "parent", .toMany, deleteRule: .cascade),
            ]),
        EntityDescription(
            "Tag", primaryKey: "name",
            attributes: [
                Attribute("name", .string),
                Attribute("color", .string, optional: true),
            ],
            relationships: [
                Relationship("posts", to: "Post", inverse: "tags", .toMany, deleteRule: .deny),
            ]),
        EntityDescription(
            "Profile", primaryKey: "id",
            attributes: [
                Attribute("id", .uuid),
                Attribute("bio", .string, optional: true),
            ],
            relationships: [
                Relationship("user", to: "User", inverse: "profile", .toOne),
            ]),
    ]

    /// The kit's schema: `descriptions` with `Profile.badges` (deny) and `Badge`, so that a
    /// cascade reaches a `deny` rule. Kept apart from `descriptions` so that the benchmark's
    /// schema, and the tables its floors write, stay the social domain alone.
    public static let kitDescriptions: [EntityDescription] = descriptions.map { d in
        guard d.name == "Profile" else { return d }
        var profile = d
        profile.relationships.append(Relationship("badges", to: "Badge", inverse: "holder", .toMany, deleteRule: .deny))
        return profile
    } + [
        EntityDescription(
            "Badge", primaryKey: "code",
            attributes: [
                Attribute("code", .string),
                Attribute("label", .string, default: ""),
            ],
            relationships: [
                Relationship("holder", to: "Profile", inverse: "badges", .toOne),
            ]),
    ]
}
