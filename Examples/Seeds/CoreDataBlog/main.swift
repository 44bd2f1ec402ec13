// The seed Core Data tutorial's blog (entities, repositories, services, a fetched-results
// controller with sections, background contexts, batch updates and deletes), ported to
// declared models: `seed-coredata-blog sqlite|lmdb`. Prints one line per check.
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
    var updatedAt: Date
    var isActive: Bool = true
    @Relationship(inverse: \Post.author, deleteRule: .cascade) var posts: [Post] = []
    @Relationship(inverse: \Comment.author, deleteRule: .cascade) var comments: [Comment] = []
    @Relationship(inverse: \User.following) var followers: [User] = []
    var following: [User] = []

    init(_ username: String, at date: Date) {
        id = UUID()
        self.username = username
        email = "\(username)@example.com"
        updatedAt = date
    }
}

@Model final class Post {
    var id: UUID
    var title: String
    var month: String
    var likeCount: Int64 = 0
    var createdAt: Date
    var isPublished: Bool = false
    var author: User? = nil
    @Relationship(inverse: \Comment.post, deleteRule: .cascade) var comments: [Comment] = []
    @Relationship(inverse: \Tag.posts) var tags: [Tag] = []

    init(_ title: String, month: String, at date: Date) {
        id = UUID()
        self.title = title
        self.month = month
        createdAt = date
    }
}

@Model final class Comment {
    var id: UUID
    var content: String
    var author: User? = nil
    var post: Post? = nil

    init(_ content: String) {
        id = UUID()
        self.content = content
    }
}

@Model final class Tag {
    @Attribute(.primaryKey) var name: String
    var posts: [Post] = []

    init(_ name: String) { self.name = name }
}

func check(_ label: String, _ value: Any) { print("\(label): \(value)") }
func day(_ n: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + n * 86_400) }

let store = CommandLine.arguments.dropFirst().first == "lmdb" ? LMDBStore.descriptor : SQLiteStore.descriptor
let graph = try ObjectGraph.inMemory(over: store, schema: try Schema(version: 1, User.self, Post.self, Comment.self, Tag.self))
let viewContext = graph.newContext()

// A background context creates the users; the view context sees them.
let created = try await graph.newBackgroundContext().perform { c in
    for (i, name) in ["ann", "bob", "chloe", "dave"].enumerated() { c.insert(User(name, at: day(Double(i)))) }
    try c.save()
    return try c.count(User.self)
}
check("users created in the background", created)
let users = try viewContext.fetch(User.self, sort: [.asc("username")])
let (ann, bob, chloe) = (users[0], users[1], users[2])
check("by email", try viewContext.fetch(User.self, where: StorePredicate(format: "email == %@", "bob@example.com")).map(\.username))
check("search 'AN'", try viewContext.fetch(User.self, where: StorePredicate(format: "username CONTAINS[cd] %@ OR email CONTAINS[cd] %@", "AN", "AN"),
                                          sort: [.asc("username")]).map(\.username))
check("page 2", try viewContext.fetch(User.self, sort: [.asc("username")], limit: 2, offset: 2).map(\.username))

// Posts, tags and comments through the services.
@MainActor func createPost(_ title: String, by author: User, tags: [String], month: String, on date: Date) throws -> Post {
    let post = Post(title, month: month, at: date)
    viewContext.insert(post)
    post.tags = try tags.map { try viewContext.model(Tag.self, id: $0) ?? Tag($0) }
    post.author = author
    try viewContext.save()
    return post
}
let first = try createPost("Faults and batches", by: ann, tags: ["coredata"], month: "2023-11", on: day(0))
_ = try createPost("Merge policies", by: ann, tags: ["coredata", "swift"], month: "2023-11", on: day(1))
let third = try createPost("Actors", by: bob, tags: ["swift"], month: "2023-12", on: day(30))
let comment = Comment("Nice")
viewContext.insert(comment)
comment.author = chloe
comment.post = first
first.likeCount += 5
third.isPublished = true
ann.following.append(bob)
try viewContext.save()
check("by ann", try viewContext.fetch(Post.self, where: StorePredicate(format: "author == %@", .object(ann)), sort: [.asc("title")]).map(\.title))
check("tagged swift", try viewContext.fetch(Post.self, where: StorePredicate(format: "%@ IN tags", "swift"), sort: [.asc("title")]).map(\.title))
check("popular", try viewContext.fetch(Post.self, where: StorePredicate(format: "likeCount >= %lld", .int(1))).map(\.title))
check("recent", try viewContext.count(Post.self, where: StorePredicate(format: "createdAt >= %@", .date(day(7)))))
check("bob's followers", bob.followers.map(\.username))

// A fetched-results controller with a section per month.
let controller = try FetchedResultsController(viewContext, query: Query("Post", sort: [.asc("createdAt")]), sectionKey: "month")
try controller.performFetch { change in
    switch change {
    case .initial(let sections): check("sections", sections.map { "\($0.name.stringValue ?? "?"): \($0.objects.count)" })
    case .update(let sections, let c):
        check("sections now", sections.map { "\($0.name.stringValue ?? "?"): \($0.objects.count)" })
        check("inserted sections", c.insertedSections)
    case .error(let error): check("error", error)
    }
}
_ = try createPost("Lists", by: chloe, tags: [], month: "2024-01", on: day(60))

// Core Data's default merge policy: a concurrent edit of one attribute is reported.
let other = graph.newContext()
try other.model(Post.self, id: third.id)?.title = "Actors and executors"
try other.save()
third.title = "Actors in depth"
do { try viewContext.save() } catch let error as StoreError { check("conflict", error.category) }
viewContext.mergePolicy = .storeWins
try viewContext.save()
check("title after storeWins", third.title)

// Batch update and delete, merged into the registered objects.
check("deactivated", try viewContext.batchUpdate("User", where: StorePredicate(format: "updatedAt < %@", .date(day(2))), set: ["isActive": false]))
check("ann active", ann.isActive)
check("deleted", try viewContext.batchDelete("Post", where: "isPublished" == false && "likeCount" == 0))
check("posts left", try viewContext.fetch(Post.self, sort: [.asc("title")]).map(\.title))
controller.cancel()
try graph.close()
