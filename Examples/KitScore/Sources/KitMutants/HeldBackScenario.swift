import Foundation
import StoreConformance
import StoreCore

// MARK: - Scenarios: one small situation per fault, observed on the correct and faulty store

/// A small schema of its own (not the kit's), a seed, and per fault the observations of the
/// situation the fault is about.
public enum HeldBackScenario {
    static func makeSchema(version: Int = 1) throws -> Schema {
        try Schema(version: version, entities: [
            EntityDescription("User", primaryKey: "id",
                attributes: [
                    Attribute("id", .int64), Attribute("username", .string), Attribute("age", .int64, optional: true),
                    Attribute("score", .double, optional: true), Attribute("bio", .string, optional: true),
                    Attribute("avatar", .bytes, optional: true), Attribute("joinedAt", .date, optional: true),
                    Attribute("big", .int64, optional: true),
                ],
                indexes: [IndexDescription(["username"], unique: true)],
                relationships: [
                    Relationship("posts", to: "Post", inverse: "author", .toMany, deleteRule: .cascade),
                    Relationship("profile", to: "Profile", inverse: "user", .toOne),
                ]),
            EntityDescription("Post", primaryKey: "id",
                attributes: [Attribute("id", .int64), Attribute("title", .string)],
                relationships: [
                    Relationship("author", to: "User", inverse: "posts", .toOne),
                    Relationship("tags", to: "Tag", inverse: "posts", .toMany),
                    Relationship("comments", to: "Comment", inverse: "post", .toMany, deleteRule: .cascade),
                ]),
            EntityDescription("Tag", primaryKey: "id",
                attributes: [Attribute("id", .string), Attribute("name", .string)],
                relationships: [Relationship("posts", to: "Post", inverse: "tags", .toMany)]),
            EntityDescription("Comment", primaryKey: "id",
                attributes: [Attribute("id", .int64), Attribute("body", .string)],
                relationships: [
                    Relationship("post", to: "Post", inverse: "comments", .toOne),
                    Relationship("parent", to: "Comment", inverse: "replies", .toOne),
                    Relationship("replies", to: "Comment", inverse: "parent", .toMany, deleteRule: .cascade),
                    Relationship("locks", to: "Lock", inverse: "comment", .toMany, deleteRule: .deny),
                ]),
            EntityDescription("Lock", primaryKey: "id",
                attributes: [Attribute("id", .int64)],
                relationships: [Relationship("comment", to: "Comment", inverse: "locks", .toOne)]),
            EntityDescription("Profile", primaryKey: "id",
                attributes: [Attribute("id", .int64), Attribute("nick", .string, optional: true)],
                indexes: [IndexDescription(["nick"], unique: true)],
                relationships: [Relationship("user", to: "User", inverse: "profile", .toOne)]),
        ])
    }

    static func user(_ s: Schema, _ values: [String: Value]) throws -> Record { try s["User"]!.record(values) }

    static func seed(_ repo: any Repository) throws {
        let s = repo.schema
        try repo.write { tx in
            try tx.insert(contentsOf: [
                try user(s, ["id": 1, "username": "ann", "age": 30, "score": 1.5, "bio": "Café crème", "joinedAt": .date(Date(timeIntervalSince1970: 1000))]),
                try user(s, ["id": 2, "username": "bob", "score": -1.0, "joinedAt": .date(Date(timeIntervalSince1970: -5))]),
                try user(s, ["id": 3, "username": "Émile", "age": -4, "score": -5.0, "bio": "Straße", "joinedAt": .date(Date(timeIntervalSince1970: -1))]),
                try user(s, ["id": 4, "username": "zoë", "age": 30, "bio": "100% pure_x"]),
                try user(s, ["id": 5, "username": "😀x", "age": 26, "score": 2.0]),
                try user(s, ["id": 6, "username": "Ｚ", "age": 40, "score": 3.0]),
                try user(s, ["id": 7, "username": "Carl", "score": 0.5]),
            ])
            for (id, title, author) in [(10, "Hello", 1), (11, "World", 1), (12, "Zebra", 3), (13, "Apple", 6), (14, "Mango", 2)] as [(Int64, String, Int64)] {
                try tx.insert(try s["Post"]!.record(["id": .int64(id), "title": .string(title)]))
                try tx.link("Post", id: .int64(id), "author", to: .int64(author))
            }
            try tx.insert(try s["Post"]!.record(["id": 15, "title": "Orphan"]))
            for (id, name) in [("swift", "Swift"), ("sql", "SQL"), ("lmdb", "LMDB")] {
                try tx.insert(try s["Tag"]!.record(["id": .string(id), "name": .string(name)]))
            }
            try tx.link("Post", id: 10, "tags", to: "swift")
            try tx.link("Post", id: 10, "tags", to: "sql")
            for (id, post) in [(99, 10), (100, 10), (102, 11)] as [(Int64, Int64)] {
                try tx.insert(try s["Comment"]!.record(["id": .int64(id), "body": .string("c\(id)")]))
                try tx.link("Comment", id: .int64(id), "post", to: .int64(post))
            }
            try tx.insert(try s["Comment"]!.record(["id": 101, "body": "reply"]))
            try tx.link("Comment", id: 101, "parent", to: 100)
            try tx.insert(try s["Lock"]!.record(["id": 1]))
            try tx.link("Lock", id: 1, "comment", to: 101)
            try tx.insert(try s["Comment"]!.record(["id": 103, "body": "reply to 102"]))
            try tx.link("Comment", id: 103, "parent", to: 102)
            try tx.insert(try s["Profile"]!.record(["id": 1, "nick": "a"]))
            try tx.link("User", id: 1, "profile", to: 1)
        }
    }

    /// What happens, as text: the value or the error's category.
    static func show<T>(_ f: () throws -> T) -> String {
        do { return "\(try f())" } catch let e as StoreError { return "error(\(e.category))" } catch { return "error(\(error))" }
    }

    static func ids(_ rs: [Record]) -> String { rs.map { "\($0.id)" }.joined(separator: ",") }

    /// Runs the fault's situation on a fresh store wrapped with `fault` (nil: the correct store).
    public static func observe(_ scenario: HeldBackFault, under fault: HeldBackFault?) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("heldback-observe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let harness = HeldBackHarness(fault, observing: scenario.needsObservation)
        var repo = try harness.open(schema: try makeSchema(), directory: dir)
        defer { try? repo.close() }
        try seed(repo)
        let s = repo.schema
        func users(_ p: StorePredicate = .all, sort: [SortKey] = [], limit: Int? = nil, offset: Int = 0) -> String {
            show { ids(try repo.read { try $0.fetch(Query("User", where: p, sort: sort, limit: limit, offset: offset)) }) }
        }
        func fetchUser(_ id: Int64, _ attr: String) -> String {
            show { try repo.read { try $0.fetch("User", id: .int64(id)) }?[attr] ?? "missing" }
        }
        func related(_ e: String, _ id: Value, _ r: String) -> String {
            show { ids(try repo.read { try $0.related(e, id: id, via: r) }) }
        }
        func write<T>(_ f: @escaping (any WriteTransaction) throws -> T) -> String { show { try repo.write(f) } }
        func count(_ e: String) -> String { show { try repo.read { try $0.count(Query(e)) } } }
        /// What `f` shows inside a write that is then rolled back.
        func rolledBack(_ f: @escaping (any WriteTransaction) throws -> String) -> String {
            struct Rollback: Error {}
            let seen = HeldBackBox()
            _ = try? repo.write { tx -> Void in
                seen.set(try f(tx))
                throw Rollback()
            }
            return seen.get()
        }

        switch scenario {
        case .nullsSortLastAscending: return users(sort: [.asc("age")])
        case .tieBreakFollowsLastSortDirection: return users(sort: [.desc("age")])
        case .stringsSortByUTF16: return users(sort: [.asc("username")])
        case .secondarySortKeysIgnored: return users(sort: [.asc("age"), .desc("username")])
        case .sortIgnoresFoldingOptions: return users(sort: [SortKey("username", options: [.caseInsensitive])])
        case .negativeIntegersSortAfterPositives: return users("age" != .null, sort: [.asc("age")])
        case .negativeDoublesSortReversed: return users(sort: [.asc("score")])
        case .descendingIgnoredThroughKeyPath:
            return show { ids(try repo.read { try $0.fetch(Query("Post", sort: [.desc("author.username")])) }) }
        case .notOverNullIsUnknown: return users(!("age" > 26))
        case .notEqualSkipsNull: return users("age" != 30)
        case .betweenExcludesUpperBound: return users("age" ~= .between(26, 30))
        case .inListNullNeverMatches: return users("age" ~= .in([.null, 30]))
        case .inListTruncatedAfter1000: return users("age" ~= .in((1000..<2100).map { .int64($0) } + [26]))
        case .caseFoldingASCIIOnly: return users("username" ~= .equal("émile", [.caseInsensitive]))
        case .diacriticOnlyOptionIgnored: return users("bio" ~= .contains("Cafe", [.diacriticInsensitive]))
        case .emptyNeedleMatchesNothing: return users("bio" ~= .contains(""))
        case .likeTreatsPercentAndUnderscoreAsWildcards: return users("bio" ~= .like("1%"))
        case .likeQuestionMarkMatchesUTF16Unit: return users("username" ~= .like("?x"))
        case .beginsWithIgnoresOptions: return users("username" ~= .beginsWith("AN", [.caseInsensitive]))
        case .noneFalseForEmptyToMany: return users(.none("posts.title", .equal("Hello")))
        case .countZeroNeverMatches: return users("posts.@count" == 0)
        case .keyPathMissingLinkDropsRecord:
            return show { ids(try repo.read { try $0.fetch(Query("Post", where: "author.username" != "ann")) }) }
        case .fractionalOperandTruncatedOnIntegerAttribute: return users("age" >= 26.5)
        case .unknownSortKeyIgnored: return users(sort: [.asc("nope")])
        case .offsetIgnoredWithoutLimit: return users(offset: 5)
        case .countAppliesLimitToAggregate: return show { try repo.read { try $0.count(Query("User", limit: 2)) } }
        case .limitZeroMeansUnlimited: return users(limit: 0)
        case .keysetPaginationSkipsTies: return users(sort: [.asc("age")], limit: 2, offset: 5)
        case .upsertDropsRelationships:
            _ = write { try $0.upsert(try user(s, ["id": 1, "username": "ann", "age": 31])) }
            return related("User", 1, "posts")
        case .updateIgnoresNullAssignments:
            _ = write { try $0.update("User", id: 1, set: ["age": .null]) }
            return fetchUser(1, "age")
        case .deleteLeavesManyToManyRowsForReinsert:
            _ = write { try $0.link("Post", id: 13, "tags", to: "lmdb") }
            _ = write { try $0.delete("Post", id: 13) }
            _ = write { try $0.insert(try s["Post"]!.record(["id": 13, "title": "Again"])) }
            return related("Post", 13, "tags")
        case .fetchCacheNotInvalidated:
            return write { tx in
                _ = try tx.fetch("User", id: 1)
                try tx.update("User", id: 1, set: ["age": 99])
                return try tx.fetch("User", id: 1)?["age"] ?? "missing"
            }
        case .datesTruncatedToMilliseconds:
            _ = write { try $0.update("User", id: 1, set: ["joinedAt": .date(Date(timeIntervalSince1970: 1.0005))]) }
            return fetchUser(1, "joinedAt")
        case .largeIntegersRoundTripThroughDouble:
            _ = write { try $0.update("User", id: 1, set: ["big": .int64((1 << 53) + 1)]) }
            return fetchUser(1, "big")
        case .emptyBytesStoredAsNull:
            _ = write { try $0.update("User", id: 1, set: ["avatar": .bytes([])]) }
            return fetchUser(1, "avatar")
        case .stringsTruncatedAtNul:
            _ = write { try $0.update("User", id: 1, set: ["bio": "a\0b"]) }
            return show { try repo.read { try $0.fetch("User", id: 1) }?["bio"].stringValue?.unicodeScalars.count ?? -1 }
        case .longValuesTruncatedAt64KiB:
            _ = write { try $0.update("User", id: 1, set: ["bio": .string(String(repeating: "é", count: 35_000)), "avatar": .bytes(Array(repeating: 7, count: 70_000))]) }
            return show {
                let r = try repo.read { try $0.fetch("User", id: 1) }
                return "\(r?["bio"].stringValue?.utf8.count ?? -1) \(r?["avatar"].bytesValue?.count ?? -1)"
            }
        case .nanStoredAsNull:
            return write { try $0.update("User", id: 1, set: ["score": .double(.nan)]) }
        case .valueOfExactlyMaxBytesRefused:
            return write { try $0.update("User", id: 1, set: ["bio": .string(String(repeating: "y", count: Limits.maxValueBytes))]) }
        case .keyOfExactlyMaxBytesRefused:
            return write { try $0.insert(try s["Tag"]!.record(["id": .string(String(repeating: "k", count: Limits.maxKeyBytes)), "name": "k"])) }
        case .numericStringCoercedToInteger:
            return write { try $0.update("User", id: 1, set: ["age": "42"]) }
        case .batchDuplicateKeysLastWins:
            return write { try $0.insert(contentsOf: [try user(s, ["id": 20, "username": "u20"]), try user(s, ["id": 20, "username": "v20"])]) }
                + fetchUser(20, "username")
        case .batchUniqueConflictNotAtomic:
            return write { tx in
                let e = show { try tx.insert(contentsOf: [try user(s, ["id": 21, "username": "u21"]), try user(s, ["id": 22, "username": "ann"])]) }
                return e + " " + (try tx.fetch("User", id: 21) == nil ? "none" : "kept")
            }
        case .batchReportsLastError:
            return write { try $0.insert(contentsOf: [try user(s, ["id": 23, "username": "u23", "age": "x"]), try user(s, ["id": 24, "username": .null])]) }
        case .batchNullInheritsPreviousRow:
            _ = write { try $0.insert(contentsOf: [try user(s, ["id": 25, "username": "u25", "age": 50]), try user(s, ["id": 26, "username": "u26"])]) }
            return fetchUser(26, "age")
        case .updateWhereCountsChangedRowsOnly:
            return write { try $0.update("User", where: "age" == 30, set: ["age": 30]) }
        case .updateWhereChunkedByOffset:
            _ = write { tx in try tx.insert(contentsOf: try (0..<40).map { try s["Tag"]!.record(["id": .string("t\($0)"), "name": "t"]) }) }
            return write { try $0.update("Tag", where: "name" == "t", set: ["name": "u"]) } + " left "
                + show { try repo.read { try $0.count(Query("Tag", where: "name" == "t")) } }
        case .deleteWhereCountIncludesCascade:
            return write { try $0.delete("User", where: "id" == 3) }
        case .deleteWhereNotAtomicOnDeny:
            return write { tx in
                let e = show { try tx.delete("Comment", where: "id" ~= .in([99, 101])) }
                return e + " " + (try tx.fetch("Comment", id: 99) == nil ? "gone" : "kept")
            }
        case .relinkToOneLeavesOldInverse:
            _ = write { try $0.link("Post", id: 10, "author", to: 2) }
            return related("User", 1, "posts")
        case .oneToOneNotExclusive:
            _ = write { try $0.link("User", id: 2, "profile", to: 1) }
            return related("User", 1, "profile")
        case .manyToManyDoubleLinkDuplicates:
            _ = write { try $0.link("Post", id: 10, "tags", to: "swift") }
            return related("Post", 10, "tags")
        case .unlinkManyToManyRemovesAll:
            _ = write { try $0.unlink("Post", id: 10, "tags", from: "swift") }
            return related("Post", 10, "tags")
        case .relatedInLinkOrder:
            _ = write { tx in
                for t in ["swift", "sql", "lmdb"] { try tx.link("Post", id: 11, "tags", to: .string(t)) }
            }
            return related("Post", 11, "tags")
        case .cascadeOneLevelOnly:
            let whereVariant = rolledBack { tx in
                _ = try tx.delete("Post", where: "id" == 11)
                return "\(try tx.count(Query("Comment"))) "
            }
            _ = write { try $0.delete("Post", id: 11) }
            return whereVariant + count("Comment")
        case .denyIgnoredThroughCascade:
            let whereVariant = rolledBack { tx in show { try tx.delete("Post", where: "id" == 10) } + " " }
            return whereVariant + write { try $0.delete("Post", id: 10) } + count("Comment")
        case .cascadeDenyNotAtomic:
            let whereVariant = rolledBack { tx in
                show { try tx.delete("Post", where: "id" == 10) } + " \(try tx.count(Query("Comment"))) "
            }
            return whereVariant + write { tx in
                let e = show { try tx.delete("Post", id: 10) }
                return e + " " + (try tx.count(Query("Comment"))).description
            }
        case .relatedOfMissingRecordIsEmpty: return related("User", 999, "posts")
        case .linkToMissingTargetIgnored: return write { try $0.link("Post", id: 10, "author", to: 999) }
        case .unlinkFromMissingSourceIgnored: return write { try $0.unlink("Post", id: 999, "tags", from: "swift") }
        case .uniqueConflictIsConstraintViolation: return write { try $0.insert(try user(s, ["id": 30, "username": "ann"])) }
        case .unknownAttributeInUpdateIsInvalidQuery: return write { try $0.update("User", id: 1, set: ["nope": 1]) }
        case .unknownEntityInWriteIsNotFound: return write { try $0.delete("Nope", id: 1) }
        case .updateNotAtomicAcrossAttributes:
            return write { tx in
                let e = show { try tx.update("User", id: 1, set: ["age": 31, "username": 5]) }
                return e + " " + (try tx.fetch("User", id: 1)?["age"] ?? "missing").description
            }
        case .caughtErrorAbortsTransaction:
            return write { tx in
                _ = show { try tx.insert(try user(s, ["id": 1, "username": "again"])) }
                return show { try tx.insert(try user(s, ["id": 31, "username": "u31"])) }
            }
        case .writeRethrowsRecordedError:
            struct Mine: Error {}
            return write { tx in
                _ = show { try tx.insert(try user(s, ["id": 1, "username": "again"])) }
                throw Mine()
            }
        case .readsNotSnapshotted:
            let r = repo
            return show {
                try repo.read { tx in
                    let before = try tx.count(Query("User"))
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        _ = try? r.write { try $0.insert(try user(r.schema, ["id": 40, "username": "u40"])) }
                        done.signal()
                    }
                    done.wait()
                    return "\(before) \(try tx.count(Query("User")))"
                }
            }
        case .dirtyReadsFromActiveWriter:
            let r = repo
            let seen = HeldBackBox()
            _ = write { tx in
                try tx.insert(try user(s, ["id": 41, "username": "u41"]))
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    seen.set(show { try r.read { try $0.fetch("User", id: 41) == nil ? "invisible" : "visible" } })
                    done.signal()
                }
                done.wait()
            }
            return seen.get()
        case .batchInsertSurvivesRollback:
            struct Mine: Error {}
            _ = write { tx -> Void in
                try tx.insert(contentsOf: [try user(s, ["id": 42, "username": "u42"])])
                throw Mine()
            }
            return fetchUser(42, "username")
        case .closeInsideTransactionDeferred:
            let inside = write { _ in try repo.close() }
            return inside + " then " + count("User")
        case .nestedSameQueryEndsOuterIteration:
            return show {
                try repo.read { tx in
                    var n = 0
                    try tx.forEach(Query("User")) { _ in
                        n += 1
                        if n == 1 { _ = try tx.fetch(Query("User")) }
                    }
                    return n
                }
            }
        case .deleteWhereReappearsAfterReopen:
            _ = write { try $0.delete("User", where: "age" == 26) }
            try repo.close()
            repo = try harness.open(schema: s, directory: dir)
            return fetchUser(5, "username")
        case .schemaMismatchReportedCorrupted:
            try repo.close()
            return show { try harness.open(schema: try makeSchema(version: 2), directory: dir).close(); return "opened" }
        case .verifyFlagsManyToManyLinks:
            return show { try repo.verify().isClean }
        default:
            return try observeReported(scenario, repo: &repo, harness: harness, directory: dir)
        }
    }
}

extension HeldBackScenario {
    /// The situations of the mutations an outside test reported (issue 36).
    static func observeReported(_ m: HeldBackFault, repo: inout any Repository, harness: HeldBackHarness, directory: URL) throws -> String {
        let s = repo.schema, r = repo
        func reopened(_ open: () throws -> any Repository) throws -> any Repository { try repo.close(); repo = try open(); return repo }
        func packed(_ q: Query, _ attribute: String) -> String {
            show { try r.read { tx in var out: [String] = []; try tx.forEachPacked(q) { out.append("\(Record($0)[attribute])") }; return out } }
        }
        switch m {
        case .observationModificationsAsInsertions, .observationMissesModifications, .observationDeliversEmptyChanges:
            guard let o = r as? any ObservingRepository else { return "not observing" }
            let watched = try o.observeResults(Query("User", sort: [.asc("id")]))
            if m != .observationDeliversEmptyChanges { try r.write { try $0.update("User", id: 1, set: ["age": 31]) } }
            return show { "\(String(describing: try watched.waitForChange(timeout: m == .observationDeliversEmptyChanges ? 0.2 : 5)))" }
        case .compactionDropsLinks:
            let again = try reopened { try harness.compact(schema: s, directory: directory); return try harness.open(schema: s, directory: directory) }
            return show { ids(try again.read { try $0.related("Post", id: 10, via: "tags") }) }
        case .migrationPlanRerunOnEveryOpen:
            let v2 = try makeSchema(version: 2)
            let plan = MigrationPlan([Migration(from: s, to: v2).then { tx in
                try tx.update("User", id: 1, set: ["age": .int64((try tx.fetch("User", id: 1)?["age"].int64Value ?? 0) + 1)])
            }])
            _ = try reopened { try harness.open(schema: v2, directory: directory, migrations: plan) }
            let again = try reopened { try harness.open(schema: v2, directory: directory, migrations: plan) }
            return show { try again.read { try $0.fetch("User", id: 1)?["age"] } ?? "missing" }
        case .verifySkipsEngineCheck: return show { try r.verify().checks.joined(separator: "; ") }
        case .packedReadsIgnorePaging: return packed(Query("User", sort: [.asc("id")], limit: 2, offset: 1), "id")
        case .packedReadsEmptyStringAsNull:
            try r.write { try $0.update("User", id: 2, set: ["bio": ""]) }
            return packed(Query("User", where: "id" == 2), "bio")
        case .packedReadsDatesToMilliseconds:
            try r.write { try $0.update("User", id: 1, set: ["joinedAt": .date(Date(timeIntervalSince1970: 1000.0004))]) }
            return packed(Query("User", where: "id" == 1), "joinedAt")
        case .batchInsertCommittedInChunks:
            let batch = try (0..<300).map { try user(s, ["id": .int64(1000 + Int64($0)), "username": .string("b\($0)")]) }
            _ = show { try r.write { try $0.insert(contentsOf: batch + [batch[0]]) } }
            return show { try r.read { try $0.count(Query("User")) } }
        case .deleteWherePagedWithOffset:
            try r.write { tx in try tx.insert(contentsOf: try (0..<250).map { try user(s, ["id": .int64(1000 + Int64($0)), "username": .string("d\($0)"), "age": 77]) }) }
            return show { try r.write { try $0.delete("User", where: "age" == 77) } }
        case .uniqueComparedCaseInsensitively: return show { try r.write { try $0.insert(try user(s, ["id": 50, "username": "ANN"])) } }
        case .uniqueNullsConflict:
            return show { try r.write { tx in for id in [50, 51] as [Int64] { try tx.insert(try s["Profile"]!.record(["id": .int64(id)])) } } }
        case .relatedOrdersIdsAsText:
            try r.write { tx in for id in [9, 10] as [Int64] { try tx.insert(try s["Post"]!.record(["id": .int64(id * 100), "title": "p"])); try tx.link("Post", id: .int64(id * 100), "tags", to: "lmdb") } }
            try r.write { tx in try tx.insert(try s["Post"]!.record(["id": 9, "title": "p"])); try tx.link("Post", id: 9, "tags", to: "lmdb") }
            return show { ids(try r.read { try $0.related("Tag", id: "lmdb", via: "posts") }) }
        default: return "no situation for \(m.rawValue)"
        }
    }
}

final class HeldBackBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func set(_ v: String) { lock.lock(); value = v; lock.unlock() }
    func get() -> String { lock.lock(); defer { lock.unlock() }; return value }
}
