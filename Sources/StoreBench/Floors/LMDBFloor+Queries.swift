import CLMDB
import StoreBenchKit
import StoreCore

/// The query workloads as cursor walks over the floor's databases, each on the access path an
/// LMDB user picks, with no planner: the `(published, score)` index's duplicates for one key,
/// the `createdAt` index by range (keys sorted after) or from its end, a relationship's
/// dupsort database from either side (counted with `mdb_cursor_count`), a scan that decodes only
/// the field it tests before the rest. Records are read where they lie in the map.
extension LMDBFloor {
    func runQueries(_ queries: [FloorQuery], timer: OperationTimer) throws -> Int {
        var rows = TouchRows()
        try timer.each(queries.count) { i in
            try read { txn in try run(queries[i], txn, into: &rows) }
        }
        return rows.sum
    }

    func queryDigest(_ queries: [FloorQuery]) throws -> String {
        var rows = DigestRows()
        try read { txn in
            for q in queries {
                try run(q, txn, into: &rows)
                rows.endQuery()
            }
        }
        return rows.digest.hex
    }

    private func run<S: QueryRowSink>(_ q: FloorQuery, _ txn: OpaquePointer, into sink: inout S) throws {
        switch q {
        case .publishedPostsScoring(let k):
            try withPublishedScoreKey(k) { key in try forEachDup(txn, postByPublishedScore, key) { try emitPost(txn, $0, &sink) } }
        case .usersNamed(let name):
            var name = name
            try name.withUTF8 { wanted in
                try scanUsers(txn, &sink) { d in
                    _ = d.raw()
                    return d.raw().elementsEqual(UnsafeRawBufferPointer(wanted))
                }
            }
        case .postsCreated(let from, let through): try postsCreated(txn, from, through, &sink)
        case .usersWithNameContaining:
            let needle = q.foldedText!
            try scanUsers(txn, &sink) { d in
                _ = d.raw()
                return TextFolding.contains(d.string(), foldedNeedle: needle, [.caseInsensitive, .diacriticInsensitive])
            }
        case .usersWithUsernamePrefix:
            let needle = q.foldedText!
            try scanUsers(txn, &sink) { d in TextFolding.hasPrefix(d.string(), foldedNeedle: needle, .caseInsensitive) }
        case .newestPosts(let limit, let offset): try newestPosts(txn, limit: limit, offset: offset, &sink)
        case .countPublishedPostsScoringAbove(let k): sink.count(try countPublished(txn, above: k))
        case .postsByAuthor(let username): try postsByAuthor(txn, username, &sink)
        case .postsTagged(let tag, let limit):
            var tag = tag
            try tag.withUTF8 { name in
                try forEachDup(txn, dbis["Tag.posts"]!, UnsafeRawBufferPointer(name), limit: limit) { try emitPost(txn, $0, &sink) }
            }
        case .usersWithMorePosts(let k): try usersWithMorePosts(txn, than: k, &sink)
        case .postsAndComments(let user):
            try withKey(user) { key in
                try forEachDup(txn, dbis["User.posts"]!, key) { post in
                    try emitPost(txn, post, &sink)
                    try forEachDup(txn, dbis["Post.comments"]!, Self.bytes(post)) { try emitComment(txn, $0, &sink) }
                }
            }
        }
    }

    /// The `(published, score)` index's key of a published post scoring `score`, on the stack:
    /// a 1, then the score's order-preserving bits.
    func withPublishedScoreKey<T>(_ score: Int64, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var key = (UInt64(0), UInt64(0))
        return try withUnsafeMutableBytes(of: &key) { k in
            k[0] = 1
            k.storeBytes(of: Self.orderedBits(score).bigEndian, toByteOffset: 1, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(rebasing: k[0..<9]))
        }
    }
}
