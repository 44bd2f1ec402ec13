import Foundation
import StoreCore

/// Queries that a backend answers from another side than the one they name: key paths over
/// missing links, `ANY`/`NONE` from either side of a relationship, `@count` including zero,
/// pages of sorted results, counts of pages, and text operators on empty strings. A query
/// planner rewrites each of these (a join, a semi-join, a grouped count, a page's keys first);
/// every result here is written out and also checked against `QueryEvaluator`.
enum QueryPathCases {
    static func seeded(_ name: String, _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        .seeded("queries", name, body)
    }

    /// Comment 105 on post 15 (which has no author), comment 106 on no post, tag `empty` on no post.
    static func addUnlinked(_ ctx: ConformanceContext) throws {
        try ctx.write { tx in
            try tx.insert(try ctx.record("Comment", ["id": 105, "text": "Orphan", "createdAt": .date(SocialFixture.epoch.addingTimeInterval(105))]))
            try tx.insert(try ctx.record("Comment", ["id": 106, "text": "Alone", "createdAt": .date(SocialFixture.epoch.addingTimeInterval(106))]))
            try tx.insert(try ctx.record("Tag", ["name": "empty"]))
            try tx.link("Comment", id: 105, "post", to: 15)
        }
    }

    static let all: [ConformanceCase] = [
        seeded("keyPathsOverMissingLinks") { ctx in
            try addUnlinked(ctx)
            let expected: [(String, String, [Value])] = [
                ("Post", "author.username == 'ann'", ids(10, 11)), ("Post", "author.username != 'ann'", ids(12, 13, 14, 15)),
                ("Post", "author.username == nil", ids(15)), ("Post", "NOT author.username == 'ann'", ids(12, 13, 14, 15)),
                ("Post", "author.username == 'ann' OR score == 5", ids(10, 11, 15)), ("Post", "author.age == nil", ids(13, 15)),
                ("Post", "author.age >= 30 AND published == true", ids(10, 11)), ("Comment", "post.author.username == 'bob'", ids(103)),
                ("Comment", "post.author.username == nil", ids(105, 106)), ("Comment", "post.author.username != 'ann'", ids(103, 104, 105, 106)),
                ("Comment", "post.author.age >= 25 AND author.username == 'ann'", ids(103)),
                ("Comment", "post.author.username == 'ann' AND post.title BEGINSWITH 'Caf'", ids(100, 101, 102)),
            ]
            for (entity, format, want) in expected { try ctx.expectIDs(entity, format, are: want) }
            try ctx.expectIDs(Query("Post", sort: [.asc("author.username")], limit: 3, offset: 1), ids(10, 11, 12), "sorted by author.username, nulls first")
            try ctx.expectIDs(Query("Post", sort: [.desc("author.username")], limit: 2), ids(14, 13), "sorted by author.username descending")
            try ctx.expectIDs(Query("Post", sort: [.desc("author.age")], limit: 4), ids(10, 11, 14, 12), "sorted by author.age descending, nulls last")
            for (entity, format, _) in expected { try ctx.expectMatchesReference(Query(entity, where: try StorePredicate(format: format))) }
        },
        seeded("anyAndNoneFromEitherSide") { ctx in
            try addUnlinked(ctx)
            let expected: [(String, String, [Value])] = [
                ("Post", "ANY tags.name == 'swift'", ids(12, 14)), ("Post", "ANY tags.name == 'swift' AND id == 14", ids(14)),
                ("Post", "ANY tags.name == 'nope'", []), ("Post", "NONE tags.name == 'Unicode'", ids(12, 14, 15)),
                ("Tag", "ANY posts.id == 12", ["db", "swift"]), ("Tag", "ANY posts.id == 99", []), ("Tag", "NONE posts.id == 12", ["Unicode", "cafe", "empty"]),
                ("User", "ANY posts.title == 'naïve résumé'", []), ("User", "NONE posts.title == 'naïve résumé'", ids(1, 2, 3, 4, 5)),
                ("User", "ANY posts.score == 5", ids(1)), ("User", "NONE posts.score > 4", ids(3, 4, 5)),
                ("User", "id == 1 AND ANY posts.score > 4", ids(1)), ("User", "id IN {3, 4} AND NONE posts.score > 2", ids(4)),
                ("User", "ANY followers.username == 'emile'", ids(1)), ("Comment", "ANY post.tags.name == 'swift'", ids(103)),
                ("Comment", "NONE post.tags.name == 'swift'", ids(100, 101, 102, 104, 105, 106)),
                ("Post", "ANY tags.name == 'Unicode' AND ANY comments.author.username == 'chloe'", ids(10)),
            ]
            for (entity, format, want) in expected { try ctx.expectIDs(entity, format, are: want) }
            let unicode = try StorePredicate(format: "ANY tags.name == 'Unicode'")
            try ctx.expectIDs(Query("Post", where: unicode, sort: [.desc("id")], limit: 2), ids(13, 11), "tagged Unicode, newest 2 by key")
            try ctx.expectIDs(Query("Post", where: unicode, sort: [.asc("title")], limit: 2, offset: 1), ids(13, 11), "tagged Unicode by title, second page")
            try ctx.expectIDs(Query("Post", where: unicode, limit: 2, offset: 2), ids(13), "tagged Unicode, third and fourth")
            for (entity, format, _) in expected { try ctx.expectMatchesReference(Query(entity, where: try StorePredicate(format: format))) }
        },
        seeded("countsIncludingZero") { ctx in
            try addUnlinked(ctx)
            let expected: [(String, String, [Value])] = [
                ("User", "posts.@count == 0", ids(5)), ("User", "posts.@count < 2", ids(2, 3, 4, 5)), ("User", "NOT posts.@count >= 1", ids(5)),
                ("User", "posts.@count != 1", ids(1, 5)), ("User", "posts.@count BETWEEN {0, 1}", ids(2, 3, 4, 5)),
                ("User", "posts.@count IN {0, 2}", ids(1, 5)), ("User", "NOT posts.@count IN {0, 2}", ids(2, 3, 4)),
                ("User", "posts.@count > 0", ids(1, 2, 3, 4)), ("User", "id == 5 AND posts.@count == 0", ids(5)),
                ("User", "id IN {1, 5} AND posts.@count < 1", ids(5)), ("User", "posts.@count == 0 OR username == 'ann'", ids(1, 5)),
                ("Post", "tags.@count == 0", ids(15)), ("Post", "tags.@count >= 2", ids(10, 12)), ("Tag", "posts.@count == 0", ["empty"]),
                ("Comment", "replies.@count == 0", ids(102, 103, 104, 105, 106)), ("Comment", "post.tags.@count == 0", ids(105, 106)),
                ("Comment", "NOT post.tags.@count == 0", ids(100, 101, 102, 103, 104)),
            ]
            for (entity, format, want) in expected { try ctx.expectIDs(entity, format, are: want) }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: try StorePredicate(format: "posts.@count == 0"))) }, 1, "count of users without posts")
            for (entity, format, _) in expected { try ctx.expectMatchesReference(Query(entity, where: try StorePredicate(format: format))) }
        },
        seeded("pagesOfSortedResults") { ctx in
            try addUnlinked(ctx)
            let sorts: [(String, [SortKey])] = [
                ("Post", [.desc("createdAt")]), ("Post", [.asc("createdAt")]), ("Post", [.desc("score")]), ("Post", [.asc("rating")]),
                ("Post", [SortKey("title", ascending: true, options: .caseInsensitive)]), ("Post", [.desc("author.username"), .asc("score")]),
                ("Post", [.desc("published"), .desc("score")]), ("Comment", [.desc("post.createdAt")]), ("User", [.desc("age"), .asc("score")]),
                ("Tag", [.desc("color")]),
            ]
            for (entity, sort) in sorts {
                let all = try ctx.ids(Query(entity, sort: sort))
                var pages: [Value] = []
                for offset in stride(from: 0, to: all.count + 2, by: 2) {
                    let q = Query(entity, sort: sort, limit: 2, offset: offset)
                    try ctx.expectMatchesReference(q)
                    pages += try ctx.ids(q)
                }
                try ctx.expectEqual(pages, all, "\(entity) sorted by \(sort.map(\.keyPath)), pages of 2 joined")
            }
            try ctx.expectIDs(Query("Post", sort: [.desc("createdAt")], limit: 3, offset: 1), ids(14, 13, 12), "newest posts, second to fourth")
            try ctx.expectIDs(Query("Post", sort: [.desc("score")], limit: 3, offset: 1), ids(10, 15, 11), "by score descending, ties by key")
        },
        seeded("countOfAPageIgnoresItsOrder") { ctx in
            try ctx.read { tx in
                for (limit, offset, want) in [(2, 1, 2), (3, 5, 1), (4, 9, 0), (10, 0, 6)] as [(Int, Int, Int)] {
                    let q = Query("Post", sort: [.desc("createdAt"), .asc("title")], limit: limit, offset: offset)
                    try ctx.expectEqual(try tx.count(q), want, "count of a page of \(limit) from \(offset)")
                    let tagged = Query("Post", where: try StorePredicate(format: "ANY tags.name == 'Unicode'"), sort: [.desc("author.username")], limit: limit, offset: offset)
                    try ctx.expectEqual(try tx.count(tagged), min(limit, max(0, 3 - offset)), "count of a page of Unicode posts of \(limit) from \(offset)")
                }
            }
        },
        seeded("textOperatorsOnEmptyStrings") { ctx in
            try ctx.write { tx in
                try tx.insert(try CaseSupport.user(ctx, 40, ["displayName": "", "email": ""]))
                try tx.insert(try CaseSupport.user(ctx, 41, ["displayName": "Abc"]))
            }
            let expected: [(String, [Value])] = [
                ("id >= 40 AND NOT displayName BEGINSWITH 'A'", ids(40)), ("id >= 40 AND NOT displayName ENDSWITH 'c'", ids(40)),
                ("id >= 40 AND displayName BEGINSWITH 'A'", ids(41)), ("id >= 40 AND NOT email BEGINSWITH[cd] 'E'", ids(40, 41)),
                ("id >= 40 AND NOT (displayName BEGINSWITH 'A' OR email ENDSWITH 'x')", ids(40)),
                ("id >= 40 AND NOT displayName BEGINSWITH[c] 'é'", ids(40, 41)), ("id >= 40 AND displayName ENDSWITH ''", ids(40, 41)),
            ]
            for (format, want) in expected {
                try ctx.expectIDs("User", format, are: want)
                try ctx.expectMatchesReference(Query("User", where: try StorePredicate(format: format)))
            }
        },
    ]
}

extension ConformanceContext {
    /// Expects a query's records, their count and the rows `forEach` streams to be those of
    /// `QueryEvaluator` over the same store, in the same order.
    func expectMatchesReference(_ q: Query, _ what: @autoclosure () -> String = "") throws {
        try read { tx in
            let want = try QueryEvaluator().fetch(q, from: tx).map(\.id)
            let label = what().isEmpty ? "\(q.entity) where \(q.predicate) sort \(q.sort.map(\.keyPath)) limit \(q.limit.map(String.init) ?? "-") offset \(q.offset)" : what()
            try expectEqual(try tx.fetch(q).map(\.id), want, "\(label), against the reference evaluator")
            try expectEqual(try tx.count(q), want.count, "count of \(label)")
            var streamed: [Value] = []
            try tx.forEach(q) { streamed.append($0.id) }
            try expectEqual(streamed, want, "forEach of \(label)")
        }
    }
}
