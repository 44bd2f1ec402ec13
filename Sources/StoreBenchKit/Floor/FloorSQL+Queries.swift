import StoreCore

/// The query workloads as an SQLite user writes them against SQLiteStore's tables and indexes,
/// shared by the SQLite floor and the plain GRDB reference: a join or a subquery from the
/// selective side, the index that yields the order, a grouped count, a page's keys before its
/// rows. `sb_fold` is the folding function such a user registers (`TextFolding`).
extension FloorSQL {
    public static let userColumns = #""id", "username", "displayName", "email", "age", "score", "active", "joinedAt", "avatar", "externalID""#
    public static let commentColumns = #""id", "text", "createdAt""#

    /// What a statement's rows are.
    public enum Rows: Sendable {
        case posts, users, count
    }

    /// The statement of a query and the values to bind, in order. `query.traversal` runs two:
    /// this one (the user's posts), then `commentsOfPost` for each post.
    public static func statement(_ q: FloorQuery) -> (sql: String, arguments: [Value], rows: Rows) {
        let posts = #"SELECT \#(postColumns) FROM "Post""#, users = #"SELECT \#(userColumns) FROM "User""#
        switch q {
        case .publishedPostsScoring(let k):
            return (posts + #" WHERE "published" = 1 AND "score" = ? ORDER BY "id""#, [.int64(k)], .posts)
        case .usersNamed(let name):
            return (users + #" WHERE "displayName" = ? ORDER BY "id""#, [.string(name)], .users)
        case .postsCreated(let from, let through):
            return (posts + #" WHERE "createdAt" BETWEEN ? AND ? ORDER BY "id""#, [.double(from), .double(through)], .posts)
        case .usersWithNameContaining:
            return (users + #" WHERE instr(sb_fold("displayName", 3), ?) > 0 ORDER BY "id""#, [.string(q.foldedText!)], .users)
        case .usersWithUsernamePrefix:
            let prefix = q.foldedText!
            return (users + #" WHERE substr(sb_fold("username", 1), 1, ?) = ? ORDER BY "id""#,
                    [.int64(Int64(prefix.unicodeScalars.count)), .string(prefix)], .users)
        case .newestPosts(let limit, let offset):
            let page = #"SELECT "id" FROM "Post" ORDER BY "createdAt" DESC, "id" LIMIT ? OFFSET ?"#
            return (posts + #" WHERE "id" IN (\#(page)) ORDER BY "createdAt" DESC, "id""#, [.int64(Int64(limit)), .int64(Int64(offset))], .posts)
        case .countPublishedPostsScoringAbove(let k):
            return (#"SELECT COUNT(*) FROM "Post" WHERE "published" = 1 AND "score" > ?"#, [.int64(k)], .count)
        case .postsByAuthor(let username):
            return (posts + #" WHERE "author" = (SELECT "id" FROM "User" WHERE "username" = ?) ORDER BY "id""#, [.string(username)], .posts)
        case .postsTagged(let tag, let limit):
            let cols = postColumns.split(separator: ", ").map { "p.\($0)" }.joined(separator: ", ")
            return (#"SELECT \#(cols) FROM "sb_j_Post_tags" j JOIN "Post" p ON p."id" = j."src" WHERE j."dst" = ? ORDER BY j."src" LIMIT ?"#,
                    [.string(tag), .int64(Int64(limit))], .posts)
        case .usersWithMorePosts(let k):
            let owners = #"SELECT "author" FROM "Post" WHERE "author" IS NOT NULL GROUP BY "author" HAVING COUNT(*) > ?"#
            return (users + #" WHERE "id" IN (\#(owners)) ORDER BY "id""#, [.int64(k)], .users)
        case .postsAndComments(let user):
            return (posts + #" WHERE "author" = ? ORDER BY "id""#, [.int64(user)], .posts)
        }
    }

    /// A post's comments by key (`query.traversal`), bound with the post's key.
    public static let commentsOfPost = #"SELECT \#(commentColumns) FROM "Comment" WHERE "post" = ? ORDER BY "id""#
}
