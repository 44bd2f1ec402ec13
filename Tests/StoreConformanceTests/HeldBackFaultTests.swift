import Foundation
import StoreConformance
import StoreCore
import Testing

/// Measures the conformance kit against faults it was not designed against (`HeldBackFault`).
/// It does not require every fault to be caught: it prints the score. It does require the
/// wrapper without a fault to pass the whole kit, and every fault to change what a backend
/// observably does in its data shape (a fault nothing can see measures nothing).
@Suite("HeldBack", .serialized)
struct HeldBackFaultTests {
    /// `HELDBACK_FAULTS=a,b` limits the score run to some faults (while developing).
    static var selectedFaults: [HeldBackFault] {
        guard let list = ProcessInfo.processInfo.environment["HELDBACK_FAULTS"], !list.isEmpty else { return HeldBackFault.allCases }
        let names = Set(list.split(separator: ",").map(String.init))
        return HeldBackFault.allCases.filter { names.contains($0.rawValue) }
    }

    @Test("HeldBack: the wrapper without a fault passes every kit case")
    func heldBackWrapperWithoutFaultPassesTheKit() {
        let report = ConformanceKit.run(HeldBackHarness(nil))
        for f in report.failures { print("held-back no-fault wrapper failed \(f)") }
        #expect(report.failures.isEmpty, "\(report.failures.map(\.description).joined(separator: "\n"))")
        #expect(report.passed + report.skipped == ConformanceKit.cases.count)
    }

    @Test("HeldBack: every held-back fault changes observable behaviour in its data shape")
    func heldBackFaultsAreObservable() throws {
        for fault in Self.selectedFaults {
            let correct = try HeldBackScenario.observe(fault, under: nil)
            let faulty = try HeldBackScenario.observe(fault, under: fault)
            #expect(correct != faulty, "\(fault.rawValue) changes nothing: \(correct)")
            if correct == faulty { print("held-back \(fault.rawValue): NOT OBSERVABLE (\(correct))") }
            if ProcessInfo.processInfo.environment["HELDBACK_VERBOSE"] != nil {
                print("held-back \(fault.rawValue): correct \(correct.prefix(120)) | faulty \(faulty.prefix(120))")
            }
        }
    }

    /// Runs the whole kit once per fault (minutes), so only on demand: `make kit-score`.
    @Test("HeldBack: mutation score of the kit on held-back faults",
          .enabled(if: ProcessInfo.processInfo.environment["STOREBENCH_KIT_SCORE"] != nil, "set STOREBENCH_KIT_SCORE=1 (make kit-score)"))
    func heldBackMutationScore() {
        let start = Date()
        let faults = Self.selectedFaults
        var caught = 0
        for fault in faults {
            let t0 = Date()
            let report = ConformanceKit.run(HeldBackHarness(fault))
            let failed = report.failures
            let seconds = String(format: "%.1fs", Date().timeIntervalSince(t0))
            if failed.isEmpty {
                print("held-back \(fault.rawValue): NOT CAUGHT [\(seconds)]")
            } else {
                caught += 1
                let ids = failed.map(\.id)
                print("held-back \(fault.rawValue): caught by \(failed.count) case(s), e.g. \(ids.joined(separator: ", ")) [\(seconds)]")
            }
        }
        print("held-back mutation score: \(caught)/\(faults.count)")
        print(String(format: "held-back run time: %.0fs", Date().timeIntervalSince(start)))
    }
}

// MARK: - Scenarios: one small situation per fault, observed on the correct and faulty store

/// A small schema of its own (not the kit's), a seed, and per fault the observations of the
/// situation the fault is about.
enum HeldBackScenario {
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
    static func observe(_ scenario: HeldBackFault, under fault: HeldBackFault?) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("heldback-observe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let harness = HeldBackHarness(fault)
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
        }
    }
}

final class HeldBackBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func set(_ v: String) { lock.lock(); value = v; lock.unlock() }
    func get() -> String { lock.lock(); defer { lock.unlock() }; return value }
}
