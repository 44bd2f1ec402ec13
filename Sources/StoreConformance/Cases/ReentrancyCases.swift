import StoreCore

/// Reentrancy: reads nested inside an iteration of the same transaction, writes inside an
/// iteration, and `close()` called inside a transaction.
///
/// Semantics every backend honours:
/// - Inside `forEach`, the same transaction may run any read (the same query again, another
///   query, `fetch`, `count`, `related`); the outer iteration goes on where it was and visits
///   each row once.
/// - A write inside `forEach` in a write transaction either works (the iteration still visits
///   each row that existed when it began exactly once, and the write is applied) or throws
///   `busy`; it never hangs and never restarts the iteration.
/// - `close()` inside a transaction throws `busy` at once and changes nothing: the store stays
///   open and usable, and closes normally afterwards.
enum ReentrancyCases {
    /// Guards a nested iteration: more than `limit` outer rows means the iteration restarted.
    struct Restarted: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "the outer iteration passed \(limit) rows over a fixture of fewer: it restarted" }
    }

    static let all: [ConformanceCase] = [
        .seeded("reentrancy", "forEachInsideForEachOfTheSameQuery") { ctx in
            let (outer, inner) = try ctx.read { tx -> ([Value], Int) in
                var outer: [Value] = [], inner = 0
                try tx.forEach(Query("User", sort: [.asc("id")])) { row in
                    outer.append(row.id)
                    if outer.count > 50 { throw Restarted(limit: 50) }
                    try tx.forEach(Query("User", sort: [.asc("id")])) { _ in inner += 1 }
                }
                return (outer, inner)
            }
            try ctx.expectEqual(outer, ids(1, 2, 3, 4, 5), "users visited by the outer iteration")
            try ctx.expectEqual(inner, 25, "users visited by the five inner iterations")
        },
        .seeded("reentrancy", "readsInsideForEach") { ctx in
            let seen = try ctx.read { tx -> [String] in
                var seen: [String] = []
                try tx.forEach(Query("Post", sort: [.asc("id")])) { row in
                    if seen.count > 50 { throw Restarted(limit: 50) }
                    let id = row.id
                    let title = try tx.fetch("Post", id: id)?["title"].stringValue ?? "?"
                    let tags = try tx.related("Post", id: id, via: "tags").count
                    let comments = try tx.count(try Query("Comment", format: "post.id == %@", .value(id)))
                    let authors = try tx.fetch(try Query("User", format: "ANY posts.id == %@", .value(id))).map(\.id)
                    seen.append("\(id.int64Value ?? -1) \(title) tags:\(tags) comments:\(comments) authors:\(authors.compactMap(\.int64Value))")
                }
                return seen
            }
            let expected = try ctx.read { tx in
                try tx.fetch(Query("Post", sort: [.asc("id")])).map { p in
                    let id = p.id
                    return "\(id.int64Value ?? -1) \(p["title"].stringValue ?? "?") tags:\(try tx.related("Post", id: id, via: "tags").count) "
                        + "comments:\(try tx.count(try Query("Comment", format: "post.id == %@", .value(id)))) "
                        + "authors:\(try tx.fetch(try Query("User", format: "ANY posts.id == %@", .value(id))).map(\.id).compactMap(\.int64Value))"
                }
            }
            try ctx.expectEqual(seen.count, 6, "posts visited by the iteration")
            try ctx.expectEqual(seen, expected, "what the nested reads saw, against the same reads run one after another")
        },
        .seeded("reentrancy", "writeInsideForEachWorksOrIsBusy") { ctx in
            var visited: [Value] = []
            var refused = false
            try ctx.write { tx in
                visited = []   // a store may run the closure again (LMDB after growing its map)
                refused = false
                do {
                    try tx.forEach(Query("User", sort: [.asc("id")])) { row in
                        visited.append(row.id)
                        if visited.count > 50 { throw Restarted(limit: 50) }
                        try tx.update("User", id: row.id, set: ["score": 9.5])
                    }
                } catch let e as StoreError where e.category == .busy {
                    refused = true
                }
            }
            if refused {
                try ctx.expect(visited.count <= 1, "the write was refused with busy after \(visited.count) rows; refuse the first")
                try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: "score" == 9.5)) }, 0,
                                    "no update may remain from a write that was refused")
            } else {
                try ctx.expectEqual(visited, ids(1, 2, 3, 4, 5), "users visited while each was updated")
                try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: "score" == 9.5)) }, 5, "users updated inside the iteration")
            }
        },
        .seeded("reentrancy", "closeInsideATransactionIsBusyAndChangesNothing") { ctx in
            let repo = try ctx.repository
            let fromRead: StoreError.Category? = try ctx.read { _ in
                do { try repo.close(); return nil } catch let e as StoreError { return e.category }
            }
            try ctx.expectEqual(fromRead, .busy, "close() inside a read transaction")
            let fromWrite: StoreError.Category? = try ctx.write { tx in
                try tx.update("User", id: 1, set: ["age": 31])
                do { try repo.close(); return nil } catch let e as StoreError { return e.category }
            }
            try ctx.expectEqual(fromWrite, .busy, "close() inside a write transaction")
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["age"] }, 31,
                                "the write around the refused close() committed, and the store still reads")
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 6, "frank")) }
            try ctx.reopen()
            try ctx.expect(try ctx.read { try $0.fetch("User", id: 6) } != nil, "the store closed and reopened after the refused close()")
        },
    ]
}
