import Foundation
import StoreCore

/// The schema the fuzz targets resolve predicates and decode records against: every attribute
/// type, optional and not, to-one and to-many relationships, one entity with no variable-width
/// attribute and one with more than eight attributes (a two-byte null bitmap).
package enum FuzzSchema {
    package static let schema: Schema = {
        // The declarations are fixed and valid; a failure here is a bug in this file.
        try! Schema(version: 1, entities: [
            EntityDescription(
                "User", primaryKey: "id",
                attributes: [
                    Attribute("id", .int64), Attribute("name", .string), Attribute("email", .string, optional: true),
                    Attribute("age", .int64, optional: true), Attribute("score", .double), Attribute("active", .bool),
                    Attribute("joinedAt", .date), Attribute("avatar", .bytes, optional: true),
                    Attribute("externalID", .uuid, optional: true), Attribute("bio", .string, optional: true),
                ],
                relationships: [
                    Relationship("posts", to: "Post", inverse: "author", .toMany),
                    Relationship("pinned", to: "Post", inverse: "pinnedBy", .toOne),
                ]),
            EntityDescription(
                "Post", primaryKey: "id",
                attributes: [Attribute("id", .int64), Attribute("title", .string), Attribute("rating", .double, optional: true)],
                relationships: [
                    Relationship("author", to: "User", inverse: "posts", .toOne),
                    Relationship("pinnedBy", to: "User", inverse: "pinned", .toOne),
                    Relationship("tags", to: "Tag", inverse: "posts", .toMany),
                ]),
            EntityDescription(
                "Tag", primaryKey: "name", attributes: [Attribute("name", .string)],
                relationships: [Relationship("posts", to: "Post", inverse: "tags", .toMany)]),
            EntityDescription(
                "Point", primaryKey: "id",
                attributes: [Attribute("id", .uuid), Attribute("x", .double), Attribute("seen", .date, optional: true),
                             Attribute("on", .bool, optional: true)]),
        ])
    }()

    /// The UUID the targets' sample values and seeds use.
    static let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
}
