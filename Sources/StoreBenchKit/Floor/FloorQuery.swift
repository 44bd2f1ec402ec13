import StoreCore

/// One operation of a query workload as the floors run it: what its query asks, in plain
/// values, so that each program writes it as its engine's expert would (the SQL an SQLite user
/// writes, a cursor walk over LMDB's databases), not through a query language. The backends run
/// the workload's `Query`; both must return the same rows in the same order (`QueryRowSink`).
public enum FloorQuery: Sendable, Hashable {
    /// `query.indexed-eq`: posts with `published == true AND score == k`, by key.
    case publishedPostsScoring(Int64)
    /// `query.unindexed-eq`: users whose `displayName` equals the text, by key.
    case usersNamed(String)
    /// `query.date-range`: posts whose `createdAt` lies between two instants (seconds since
    /// 1970, both included), by key.
    case postsCreated(from: Double, through: Double)
    /// `query.contains-cd`: users whose `displayName CONTAINS[cd]` the text, by key.
    case usersWithNameContaining(String)
    /// `query.beginswith-c`: users whose `username BEGINSWITH[c]` the text, by key.
    case usersWithUsernamePrefix(String)
    /// `query.sort-page`: a page of posts, newest first, ties by key.
    case newestPosts(limit: Int, offset: Int)
    /// `query.count`: how many posts are published and score above k.
    case countPublishedPostsScoringAbove(Int64)
    /// `query.keypath`: posts whose author's `username` is the text, by key.
    case postsByAuthor(username: String)
    /// `query.any-tag`: the first posts by key linked to the tag of that name.
    case postsTagged(String, limit: Int)
    /// `query.posts-count`: users with more than k posts, by key.
    case usersWithMorePosts(than: Int64)
    /// `query.traversal`: a user's posts by key, each followed by its comments by key.
    case postsAndComments(ofUser: Int64)
}

extension FloorQuery {
    /// The folded needle of the text queries, as `Schema.resolve` folds a query's operand.
    public var foldedText: String? {
        switch self {
        case .usersWithNameContaining(let s): TextFolding.fold(s, [.caseInsensitive, .diacriticInsensitive])
        case .usersWithUsernamePrefix(let s): TextFolding.fold(s, .caseInsensitive)
        default: nil
        }
    }
}
