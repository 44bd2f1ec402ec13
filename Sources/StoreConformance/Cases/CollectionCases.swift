import Foundation
import StoreCore

/// Collections: lists and maps of every primitive type round-trip exactly (order, duplicates,
/// empty ones), are queried with ANY/NONE, @count and by key with the shared semantics, and
/// wrong elements or unquantified list conditions are refused.
enum CollectionCases {
    static func seeded(_ name: String, _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        ConformanceCase("collections", name, requires: CollectionSchema.needs) { ctx in
            try CollectionSchema.seed(ctx)
            try body(ctx)
        }
    }

    static func ids(_ xs: Int64...) -> [Value] { xs.map(Value.int64) }

    static let all: [ConformanceCase] = [
        ConformanceCase("collections", "everyElementTypeRoundTrips", requires: CollectionSchema.needs.union(.persistence)) { ctx in
            try CollectionSchema.open(ctx)
            let full = try CollectionSchema.edgeNote(ctx, id: 1), empty = try ctx.record("Note", ["id": 2])
            try ctx.write { tx in try tx.insert(full); try tx.insert(empty) }
            try expectStored([full, empty], ctx, "")
            try ctx.reopen()
            try expectStored([full, empty], ctx, " after reopening")
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() on a store of lists and maps found: \(report.problems.prefix(3).map(\.description))")
        },
        ConformanceCase("collections", "listKeepsOrderAndDuplicates", requires: CollectionSchema.needs) { ctx in
            try CollectionSchema.open(ctx)
            let order: Value = .list(["b", "a", "b", "C", "a"])
            try ctx.write { tx in try tx.insert(try ctx.record("Note", ["id": 1, "tags": order, "scores": .list([3, 1, 3])])) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("Note", id: 1) }?["tags"], order, "tags as inserted")
            try ctx.write { tx in try tx.update("Note", id: 1, set: ["tags": .list(["z", "y", "z"])]) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("Note", id: 1) }?["tags"], .list(["z", "y", "z"]), "tags as updated")
            try ctx.expectEqual(try ctx.read { try $0.fetch("Note", id: 1) }?["scores"], .list([3, 1, 3]), "scores")
            try ctx.write { tx in try tx.upsert(try ctx.record("Note", ["id": 1, "tags": .list(["q", "p"])])) }
            let got = try ctx.read { try $0.fetch("Note", id: 1) }
            try ctx.expectEqual(got?["tags"], .list(["q", "p"]), "tags as upserted")
            try ctx.expectEqual(got?["scores"], .list([]), "scores after an upsert without them")
        },
        seeded("anyElementComparisons") { ctx in
            try ctx.expectIDs("Note", "ANY tags == 'swift'", are: ids(1))
            try ctx.expectIDs("Note", "ANY tags ==[c] 'SWIFT'", are: ids(1))
            try ctx.expectIDs("Note", "ANY tags == 'cafe'", are: ids(4))
            try ctx.expectIDs("Note", "ANY tags ==[cd] 'CAFE'", are: ids(1, 4))
            try ctx.expectIDs("Note", "ANY tags CONTAINS[c] 'AF'", are: ids(1, 4))
            try ctx.expectIDs("Note", "ANY tags BEGINSWITH 'k'", are: ids(4))
            try ctx.expectIDs("Note", "ANY tags LIKE[c] '?UST'", are: ids(2))
            try ctx.expectIDs("Note", "ANY tags IN {'rust', 'go'}", are: ids(2, 4))
            try ctx.expectIDs("Note", "NONE tags == 'swift'", are: ids(2, 3, 4))
            try ctx.expectIDs("Note", "NOT (ANY tags == 'swift')", are: ids(2, 3, 4))
            try ctx.expectIDs("Note", "ANY scores > 8", are: ids(1, 3))
            try ctx.expectIDs("Note", "ANY scores BETWEEN {2, 5}", are: ids(1, 4))
            try ctx.expectIDs("Note", "ANY scores == 2.0", are: ids(4))
            try ctx.expectIDs("Note", "ANY owner.nicknames ==[c] 'bob'", are: ids(1, 2))
            try ctx.expectIDs("Note", "ANY tags == 'swift' OR NONE scores > 0", are: ids(1, 2))
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Note", where: try StorePredicate(format: "ANY tags ==[cd] 'cafe'"))) },
                                2, "count of ANY tags ==[cd] 'cafe'")
        },
        ConformanceCase("collections", "anyOverEveryElementType", requires: CollectionSchema.needs) { ctx in
            try CollectionSchema.open(ctx)
            try ctx.write { tx in
                try tx.insert(try CollectionSchema.edgeNote(ctx, id: 1))
                try tx.insert(try ctx.record("Note", ["id": 2]))
            }
            let zero = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
            try ctx.expectIDs("Note", "ANY refs == %@", .value(.uuid(zero)), are: ids(1))
            try ctx.expectIDs("Note", "ANY refs > %@", .value(.uuid(zero)), are: ids(1))
            try ctx.expectIDs("Note", "ANY blobs == %@", .value(.bytes([0, 255, 0, 1])), are: ids(1))
            try ctx.expectIDs("Note", "ANY blobs == %@", .value(.bytes([0, 255])), are: [])
            try ctx.expectIDs("Note", "ANY stamps < %@", .value(.date(Date(timeIntervalSince1970: 0))), are: ids(1))
            try ctx.expectIDs("Note", "ANY flags == FALSE", are: ids(1))
            try ctx.expectIDs("Note", "ANY ratios == 0.1", are: ids(1))
            try ctx.expectIDs("Note", "ANY ratios > %@", .double(1e299), are: ids(1))
            try ctx.expectIDs("Note", "ANY tags == %@", "e\u{301}", are: ids(1))
            try ctx.expectIDs("Note", "ANY tags == %@", "\u{E9}", are: [])
            try ctx.expectIDs("Note", "ANY tags == ''", are: ids(1))
            try ctx.expectIDs("Note", "NONE flags == TRUE", are: ids(2))
        },
        seeded("countOfListsAndMaps") { ctx in
            try ctx.expectIDs("Note", "tags.@count == 0", are: ids(3))
            try ctx.expectIDs("Note", "tags.@count >= 3", are: ids(1, 4))
            try ctx.expectIDs("Note", "scores.@count < 1", are: ids(2))
            try ctx.expectIDs("Note", "labels.@count == 2", are: ids(3))
            try ctx.expectIDs("Note", "prices.@count > 0", are: ids(1, 2, 4))
            try ctx.expectIDs("Note", "NOT tags.@count BETWEEN {1, 2}", are: ids(1, 3, 4))
            try ctx.expectIDs("Owner", "nicknames.@count == 2", are: ids(1))
        },
        seeded("mapValuesByKey") { ctx in
            try ctx.expectIDs("Note", "prices.small > 2", are: ids(2))
            try ctx.expectIDs("Note", "prices['small'] > 2", are: ids(2))
            try ctx.expectIDs("Note", "labels[%@] == 'L'", "size", are: ids(3))
            try ctx.expectIDs("Note", "prices.small == nil", are: ids(3, 4))
            try ctx.expectIDs("Note", "prices.small != 1.5", are: ids(2, 3, 4))
            try ctx.expectIDs("Note", "prices.large <= 3", are: ids(1, 4))
            try ctx.expectIDs("Note", "labels.color ==[c] 'RED'", are: ids(1, 4))
            try ctx.expectIDs("Note", "labels.color == 'red'", are: ids(4))
            try ctx.expectIDs("Note", "NOT labels.color == 'Red'", are: ids(2, 3, 4))
            try ctx.expectIDs("Note", "labels.size IN {'L', 'M'}", are: ids(3))
            try ctx.expectIDs("Note", "labels.missing != nil", are: [])
            try ctx.expectIDs(Query("Note", where: .condition(Condition(KeyPathExpression(["labels", "color"]), .beginsWith("b")))), ids(3))
        },
        ConformanceCase("collections", "wrongElementTypesAreInvalidValue", requires: CollectionSchema.needs) { ctx in
            try CollectionSchema.open(ctx)
            try ctx.write { tx in try tx.insert(try ctx.record("Note", ["id": 1, "tags": .list(["kept"])])) }
            let before = try ctx.dump()
            let wrong: [(String, Value)] = [
                ("tags", .list(["a", 5])), ("tags", .list(["a", nil])), ("tags", "a"), ("tags", .map(["a": "b"])),
                ("ratios", .list([.double(.nan)])), ("ratios", .list([.double(.infinity)])), ("refs", .list(["not-a-uuid"])),
                ("prices", .list([1.0])), ("prices", .map(["a": "x"])), ("labels", .map(["a": nil])), ("flags", .list([1])),
            ]
            for (name, v) in wrong {
                let e = try ctx.expectError(.invalidValue, "Note.\(name) = \(v) on insert") {
                    try ctx.write { tx in try tx.insert(try ctx.record("Note", ["id": 2, name: v])) }
                }
                try ctx.expect(e.message.contains("Note.\(name)"), "the error for Note.\(name) = \(v) names it: \(e.message)")
                try ctx.expectError(.invalidValue, "Note.\(name) = \(v) on update") {
                    try ctx.write { tx in try tx.update("Note", id: 1, set: [name: v]) }
                }
            }
            try ctx.expectEqual(try ctx.dump(), before, "the store after the refused writes")
        },
        ConformanceCase("collections", "randomQueriesMatchReference", requires: CollectionSchema.needs) { ctx in
            // Seeded random notes and predicates; each result must equal QueryEvaluator's over
            // the backend's own full scan. STOREBENCH_KIT_SEED and STOREBENCH_KIT_QUERIES widen it.
            let env = ProcessInfo.processInfo.environment
            let seed = env["STOREBENCH_KIT_SEED"].flatMap { UInt64($0) } ?? 20_261_127
            let n = env["STOREBENCH_KIT_QUERIES"].flatMap { Int($0) } ?? 200
            try CollectionSchema.open(ctx)
            var gen = CollectionQueryGenerator(seed: seed)
            let e = try ctx.entity("Note")
            let notes = try (1...30).map { try gen.note(Int64($0), of: e) }
            try ctx.write { tx in try tx.insert(contentsOf: notes) }
            try ctx.read { tx in
                for i in 0..<n {
                    let q = Query("Note", where: gen.predicate())
                    let label = "random query \(i) (seed \(seed)): Note where \(q.predicate)"
                    let want = try QueryEvaluator().fetch(q, from: tx).map(\.id)
                    try ctx.expectEqual(try tx.fetch(q).map(\.id), want, label)
                    try ctx.expectEqual(try tx.count(q), want.count, "count of \(label)")
                }
            }
        },
        ConformanceCase("collections", "addCollectionsByMigration", requires: CollectionSchema.needs.union(.migrations)) { ctx in
            try CollectionSchema.open(ctx)
            try ctx.write { tx in
                try tx.insert(try ctx.record("Owner", ["id": 1, "name": "ann", "nicknames": .list(["al"])]))
                try tx.insert(try ctx.record("Owner", ["id": 2, "name": "ben"]))
            }
            let v2 = try CollectionSchema.make(version: 2) {
                $0[0].attributes += [Attribute("badges", .string, collection: .list), Attribute("ratings", .int64, collection: .map)]
            }
            try ctx.migrate(to: v2, MigrationPlan([Migration(from: ctx.schema, to: v2).filling("badges", of: "Owner", with: .list(["x", "y"]))]))
            let owners = try ctx.read { try $0.fetch(Query("Owner")) }
            try ctx.expectEqual(owners.map { $0["badges"] }, [.list(["x", "y"]), .list(["x", "y"])], "badges filled by the migration")
            try ctx.expectEqual(owners.map { $0["ratings"] }, [.map([:]), .map([:])], "ratings defaulted to empty")
            try ctx.expectEqual(owners.map { $0["nicknames"] }, [.list(["al"]), .list([])], "nicknames kept")
            try ctx.expectIDs("Owner", "ANY badges == 'y' AND ratings.@count == 0", are: ids(1, 2))
            try ctx.write { try $0.update("Owner", id: 2, set: ["ratings": .map(["q": 4])]) }
            try ctx.expectIDs("Owner", "ratings.q == 4", are: ids(2))
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() after the migration found: \(report.problems.prefix(3).map(\.description))")
        },
        seeded("listConditionsNeedAnyOrNone") { ctx in
            for format in ["tags == 'swift'", "prices == 1", "ANY tags > 1", "ANY prices.small == 1", "title.@count == 1",
                           "tags.x == 'a'", "ANY owner.notes.tags == 'a'"] {
                try ctx.expectError(.invalidQuery, "Note where \(format)") {
                    _ = try ctx.ids("Note", format)
                }
            }
            try ctx.expectError(.invalidQuery, "Note sorted by tags") {
                _ = try ctx.ids(Query("Note", sort: [SortKey("tags")]))
            }
        },
    ]

    /// Each record reads back equal by key, by query, and as a packed row.
    private static func expectStored(_ records: [Record], _ ctx: ConformanceContext, _ when: String) throws {
        for r in records {
            try ctx.expectEqual(try ctx.read { try $0.fetch("Note", id: r.id) }, r, "Note \(r.id) by key\(when)")
        }
        try ctx.expectEqual(try ctx.read { try $0.fetch(Query("Note")) }, records, "every Note by query\(when)")
        var packed: [Record] = []
        try ctx.read { tx in try tx.forEachPacked(Query("Note")) { packed.append(Record($0)) } }
        try ctx.expectEqual(packed, records, "every Note as packed rows\(when)")
        try ctx.expectEqual(CaseSupport.scalars(try ctx.read { try $0.fetch("Note", id: records[0].id) }?["tags"].listValue ?? []),
                            CaseSupport.scalars(records[0]["tags"].listValue ?? []), "tags' exact scalars\(when)")
    }
}
