// The seed Realm tutorial's users/posts/comments/tags app (models, repositories, queries,
// updates, deletes, observation), ported to declared models. Runs unchanged on the object graph
// over SQLite or LMDB: `seed-realm-social sqlite|lmdb`. Prints one line per check.
import Foundation
import LMDBStore
import ObjectGraphModels
import SQLiteStore

@Model final class User {
    var id: UUID
    @Attribute(.unique) var username: String
    var email: String
    var firstName: String? = nil
    var lastName: String? = nil
    var bio: String? = nil
    var createdAt: Date
    var updatedAt: Date
    var isActive: Bool = true
    @Relationship(inverse: \Post.author, deleteRule: .cascade) var posts: [Post] = []
    @Relationship(inverse: \Comment.author, deleteRule: .cascade) var comments: [Comment] = []
    @Relationship(inverse: \User.following) var followers: [User] = []
    var following: [User] = []

    init(username: String, email: String, at date: Date) {
        id = UUID()
        self.username = username
        self.email = email
        createdAt = date
        updatedAt = date
    }

    var fullName: String { firstName.flatMap { f in lastName.map { "\(f) \($0)" } } ?? username }
}

@Model final class Post {
    var id: UUID
    var title: String
    var content: String
    var viewCount: Int = 0
    var likeCount: Int = 0
    var createdAt: Date
    var isPublished: Bool = false
    var author: User? = nil
    @Relationship(inverse: \Comment.post, deleteRule: .cascade) var comments: [Comment] = []
    @Relationship(inverse: \Tag.posts) var tags: [Tag] = []

    init(title: String, content: String, at date: Date) {
        id = UUID()
        self.title = title
        self.content = content
        createdAt = date
    }
}

@Model final class Comment {
    var id: UUID
    var content: String
    var author: User? = nil
    var post: Post? = nil
    var parent: Comment? = nil
    @Relationship(inverse: \Comment.parent, deleteRule: .cascade) var replies: [Comment] = []

    init(_ content: String) {
        id = UUID()
        self.content = content
    }

    var depth: Int { parent.map { $0.depth + 1 } ?? 0 }
}

@Model final class Tag {
    var id: UUID
    @Attribute(.unique) var name: String
    var posts: [Post] = []

    init(name: String) {
        id = UUID()
        self.name = name
    }
}

func check(_ label: String, _ value: Any) { print("\(label): \(value)") }

let day0 = Date(timeIntervalSince1970: 1_700_000_000)
func day(_ n: Double) -> Date { day0.addingTimeInterval(n * 86_400) }

let engine = CommandLine.arguments.dropFirst().first ?? "sqlite"
let store = engine == "lmdb" ? LMDBStore.descriptor : SQLiteStore.descriptor
let graph = try ObjectGraph.inMemory(over: store, schema: try Schema(version: 1, User.self, Post.self, Comment.self, Tag.self))
let realm = graph.newContext()

// Create: one, several in one write, upsert by primary key.
let ann = User(username: "ann", email: "ann@example.com", at: day(0))
realm.insert(ann)
for (i, name) in ["bob", "chloe", "dave", "emma"].enumerated() {
    realm.insert(User(username: name, email: "\(name)@example.com", at: day(Double(i + 1))))
}
try realm.save()
@MainActor func upsertUser(id: UUID, username: String, email: String) throws -> User {
    let user = try realm.model(User.self, id: id) ?? User(username: username, email: email, at: day(9))
    user.username = username
    user.email = email
    realm.insert(user)
    try realm.save()
    return user
}
_ = try upsertUser(id: ann.id, username: "ann", email: "ann@mail.example")
_ = try upsertUser(id: UUID(), username: "fred", email: "fred@example.com")
check("users", try realm.count(User.self))

// Posts with tags, each tag found or created by name.
@MainActor func tag(_ name: String) throws -> Tag {
    try realm.fetch(Tag.self, where: StorePredicate(format: "name ==[cd] %@", .string(name))).first ?? Tag(name: name)
}
@MainActor func createPost(_ title: String, by author: User, tags: [String], on date: Date) throws -> Post {
    let post = Post(title: title, content: "About \(title.lowercased())", at: date)
    post.tags = try tags.map(tag)
    author.posts.append(post)
    try realm.save()
    return post
}
let bob = try realm.fetch(User.self, where: "username" == "bob")[0]
let swiftPost = try createPost("Swift concurrency", by: ann, tags: ["swift", "concurrency"], on: day(1))
let dbPost = try createPost("Realm or SQLite", by: ann, tags: ["Swift", "db"], on: day(2))
let lmdbPost = try createPost("Maps of memory", by: bob, tags: ["db"], on: day(3))
check("tags", try realm.fetch(Tag.self, sort: [.asc("name")]).map(\.name))

// Queries.
check("by email", try realm.fetch(User.self, where: "email" == "ann@mail.example").map(\.username))
check("search 'MM'", try realm.fetch(User.self, where: StorePredicate(format: "username CONTAINS[c] %@ OR email CONTAINS[c] %@", "MM", "MM"),
                                    sort: [.asc("username")]).map(\.username))
check("with 2+ posts", try realm.fetch(User.self, where: StorePredicate(format: "posts.@count >= %d", .int(2))).map(\.username))
check("page 2", try realm.fetch(User.self, sort: [.asc("createdAt")], limit: 2, offset: 2).map(\.username))
check("tagged db", try realm.fetch(Post.self, where: StorePredicate(format: "ANY tags.name == %@", "db"), sort: [.asc("title")]).map(\.title))
check("by bob", try realm.fetch(Post.self, where: StorePredicate(format: "author == %@", .object(bob))).map(\.title))
check("since day 2", try realm.fetch(Post.self, where: StorePredicate(format: "createdAt >= %@", .date(day(2))), sort: [.asc("createdAt")]).map(\.title))

// Observation: the published posts, with Realm's change sets.
let token = try realm.observe(Query("Post", where: "isPublished" == true, sort: [.asc("title")])) { change in
    switch change {
    case .initial(let posts): check("observed initial", posts.count)
    case .update(let posts, let c):
        check("observed update", "\(posts.count) posts, deletions \(c.deletions), insertions \(c.insertions), modifications \(c.modifications)")
    case .error(let error): check("observed error", error)
    }
}

// Updates.
ann.firstName = "Ann"
ann.lastName = "Lee"
ann.bio = "Writes about Swift"
for post in [swiftPost, dbPost] { post.isPublished = true }
try realm.save()
swiftPost.viewCount += 10
swiftPost.likeCount += 3
lmdbPost.isPublished = true
try realm.save()
check("full name", ann.fullName)
check("popular", try realm.fetch(Post.self, where: StorePredicate(format: "likeCount >= %lld", .int(1)), sort: [.desc("likeCount")], limit: 10).map(\.title))
let emma = try realm.fetch(User.self, where: "username" == "emma")[0]
emma.isActive = false
try realm.save()
check("active", try realm.count(User.self, where: "isActive" == true))

// Comments and replies; follows.
let first = Comment("Great post")
realm.insert(first)
first.author = bob
first.post = swiftPost
let reply = Comment("Thanks!")
realm.insert(reply)
reply.author = ann
reply.parent = first
reply.post = swiftPost
try realm.save()
check("reply depth", reply.depth)
check("comments on swift post", swiftPost.comments.count)
ann.following.append(bob)
bob.following.append(ann)
emma.following.append(ann)
try realm.save()
check("ann's followers", ann.followers.map(\.username).sorted())
bob.following.removeAll { $0 === ann }
try realm.save()
check("ann's followers after unfollow", ann.followers.map(\.username).sorted())

// Deletes: a post with its comments, inactive users, old posts.
realm.delete(swiftPost)
try realm.save()
check("comments left", try realm.count(Comment.self))
for user in try realm.fetch(User.self, where: "isActive" == false) { realm.delete(user) }
try realm.save()
check("users after deleting inactive", try realm.count(User.self))
for post in try realm.fetch(Post.self, where: StorePredicate(format: "createdAt < %@", .date(day(3)))) { realm.delete(post) }
try realm.save()
check("posts left", try realm.fetch(Post.self).map(\.title))
token.cancel()
try graph.close()
