import Foundation
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// The plans SQLite picks for the SQL the compiler writes (`EXPLAIN QUERY PLAN`, read through
/// `SQLiteStore.explain`): where a predicate has an indexed, selective path, the root table is
/// not scanned, no subquery runs once per root row, and an index that yields the order leaves
/// no sort. A compiler change that loses a plan fails here, not in a benchmark weeks later.
@Suite struct QueryPlanTests {
    /// One query and what its plan must hold.
    struct PlanCase: CustomStringConvertible, Sendable {
        var entity: String
        var predicate = "TRUEPREDICATE"
        var sort: [SortKey] = []
        var limit: Int?
        /// Indexes (or plan words) the plan names.
        var uses: [String] = []
        /// The root may be read whole (nothing selective to start from).
        var scansRoot = false
        /// A subquery may run per root row (the root is picked by key, or `NONE`).
        var correlated = false
        /// SQLite may sort the result in a temporary B-tree.
        var sorts = false

        var description: String {
            "\(entity) where \(predicate) sort \(sort.map { "\($0.keyPath)\($0.ascending ? "" : " desc")" }) limit \(limit.map(String.init) ?? "-")"
        }
    }

    static let cases: [PlanCase] = [
        PlanCase(entity: "Post", predicate: "author.username == 'ann'", uses: ["idx_User_username", "sb_fk_Post_author"]),
        PlanCase(entity: "Comment", predicate: "post.author.username == 'ann'", uses: ["idx_User_username", "sb_fk_Post_author", "sb_fk_Comment_post"], sorts: true),
        PlanCase(entity: "Post", predicate: "ANY tags.name == 'swift'", sort: [.asc("id")], limit: 10, uses: ["COVERING INDEX sb_j_Post_tags_dst"]),
        PlanCase(entity: "Post", predicate: "ANY tags.name == 'swift' AND published == true", uses: ["sb_j_Post_tags_dst"]),
        PlanCase(entity: "Tag", predicate: "ANY posts.id == 12", uses: ["PRIMARY KEY (src=?)"]),
        PlanCase(entity: "User", predicate: "ANY followers.username == 'emile'", uses: ["idx_User_username", "INTEGER PRIMARY KEY"]),
        PlanCase(entity: "User", predicate: "ANY posts.title == 'x'", uses: ["INTEGER PRIMARY KEY"]),
        PlanCase(entity: "User", predicate: "posts.@count >= 2", uses: ["COVERING INDEX sb_fk_Post_author"]),
        PlanCase(entity: "User", predicate: "id == 1 AND posts.@count >= 2 AND ANY posts.score > 3", uses: ["INTEGER PRIMARY KEY", "sb_fk_Post_author"], correlated: true),
        PlanCase(entity: "Comment", predicate: "replies.@count > 0", uses: ["COVERING INDEX sb_fk_Comment_parent"]),
        PlanCase(entity: "Post", predicate: "tags.@count >= 2", uses: ["INTEGER PRIMARY KEY"]),
        PlanCase(entity: "Post", predicate: "published == true AND score == 3", uses: ["idx_Post_published_score"]),
        PlanCase(entity: "Post", predicate: "createdAt BETWEEN %@", uses: ["idx_Post_createdAt"], sorts: true),
        PlanCase(entity: "Post", sort: [.asc("createdAt")], limit: 5, uses: ["idx_Post_createdAt"], scansRoot: true),
        PlanCase(entity: "Post", sort: [.desc("createdAt")], limit: 5, uses: ["COVERING INDEX idx_Post_createdAt", "INTEGER PRIMARY KEY"], sorts: true),
        PlanCase(entity: "Profile", predicate: "user.username == 'bob'", uses: ["idx_User_username", "sb_fk_Profile_user"]),
        PlanCase(entity: "User", predicate: "username == 'ann' AND NONE posts.published == true", uses: ["idx_User_username"], correlated: true),
        PlanCase(entity: "Post", predicate: "NONE tags.name == 'swift'", uses: ["PRIMARY KEY (src=? AND dst=?)"], scansRoot: true, correlated: true),
    ]

    @Test(arguments: cases)
    func planUsesTheIndexesTheStoreHas(_ c: PlanCase) throws {
        let steps = try Self.plan(c)
        if !c.scansRoot {
            // A page's keys (s0) may come from a covering index in its order; no row of the root is read whole.
            let readsRoot = steps.contains { ($0.hasPrefix("SCAN t0") || $0.hasPrefix("SCAN s0")) && !$0.contains("COVERING INDEX") }
            #expect(!readsRoot, "\(c): the root is scanned: \(steps)")
        }
        if !c.correlated { #expect(!steps.contains { $0.contains("CORRELATED") }, "\(c): a subquery per row: \(steps)") }
        if !c.sorts { #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(c): sorted in a temporary B-tree: \(steps)") }
        for index in c.uses { #expect(steps.contains { $0.contains(index) }, "\(c): \(index) not used: \(steps)") }
    }

    /// A page sorted against the index's direction sorts its keys alone, not whole rows: the
    /// sorter sees a covering index's entries and the rows are read by key after.
    @Test func aDescendingPageSortsKeysNotRows() throws {
        let steps = try Self.plan(PlanCase(entity: "Post", sort: [.desc("createdAt")], limit: 20))
        #expect(steps.first == "SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)", "\(steps)")
        #expect(steps.contains("SCAN s0 USING COVERING INDEX idx_Post_createdAt"), "\(steps)")
    }

    /// The plan's steps (without indentation), the SQL line dropped.
    static func plan(_ c: PlanCase) throws -> [String] {
        let dir = try TemporaryDirectory("plans")
        let store = try SQLiteStore(directory: dir.url, schema: SocialSchema.make())
        defer { try? store.close() }
        let date = PredicateArgument.list([.date(Date(timeIntervalSince1970: 1_700_000_000)), .date(Date(timeIntervalSince1970: 1_700_000_100))])
        let predicate = try c.predicate.contains("%@") ? StorePredicate(format: c.predicate, date) : StorePredicate(format: c.predicate)
        let text = try store.explain(Query(c.entity, where: predicate, sort: c.sort, limit: c.limit))
        return text.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
