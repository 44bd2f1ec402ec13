import Foundation
import StoreCore

/// Unique indexes: values compare by their exact characters (case, accents and canonically
/// equivalent spellings are different values), nulls never collide, a value is free again
/// once its holder is deleted or changed, and batches are checked as a whole.
enum UniquenessCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("uniqueness", "caseAndSpellingSensitive") { ctx in
            try ctx.startOver(with: try schema())
            let distinct: [String] = ["ann", "Ann", "ANN", "stra\u{DF}e", "STRASSE", "strasse", "\u{E9}", "e\u{301}",
                                      "\u{FF41}nn", "\u{1F600}", "a\u{0}b", "a", "\u{130}", "i\u{307}"]
            try ctx.write { tx in
                for (i, name) in distinct.enumerated() { try tx.insert(try account(ctx, i + 1, handle: name)) }
            }
            for (i, name) in distinct.enumerated() {
                try ctx.expectError(.conflict, "a second account with handle \(CaseSupport.scalars(.string(name)) ?? [])") {
                    try ctx.write { try $0.insert(try account(ctx, 100 + i, handle: name)) }
                }
                let holders = try ctx.read { tx in try tx.fetch(Query("Account", where: "handle" == Value.string(name))).map(\.id) }
                try ctx.expectEqual(holders, [.int64(Int64(i + 1))], "accounts whose handle is exactly \(CaseSupport.scalars(.string(name)) ?? [])")
            }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Account")) }, distinct.count, "accounts")
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() of unique values differing in case or spelling found: \(report.problems.prefix(3).map(\.description))")
        },
        ConformanceCase("uniqueness", "updatesBetweenEquivalentSpellings") { ctx in
            // "é" and "e\u{301}" are canonically equivalent (Swift's == holds them equal) but two values.
            try ctx.startOver(with: try schema())
            try ctx.write { try $0.insert(try account(ctx, 1, handle: "e\u{301}")) }
            try ctx.write { try $0.update("Account", id: 1, set: ["handle": "\u{E9}"]) }
            try ctx.expectEqual(CaseSupport.scalars(try ctx.read { try $0.fetch("Account", id: 1)?["handle"] } ?? .null), [0xE9], "account 1's handle after the update")
            try ctx.expectIDs("Account", "handle == %@", "\u{E9}", are: [1])
            try ctx.expectIDs("Account", "handle == %@", "e\u{301}", are: [])
            try ctx.write { try $0.insert(try account(ctx, 2, handle: "e\u{301}")) }           // freed by the update
            try ctx.expectError(.conflict, "updating account 2 to the precomposed handle account 1 holds") {
                try ctx.write { try $0.update("Account", id: 2, set: ["handle": "\u{E9}"]) }
            }
            try ctx.expectIDs("Account", "handle == %@", "e\u{301}", are: [2])
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() after updates between spellings found: \(report.problems.prefix(3).map(\.description))")
        },
        ConformanceCase("uniqueness", "nullsNeverCollide") { ctx in
            try ctx.startOver(with: try schema())
            try ctx.write { tx in
                for i in 1...3 { try tx.insert(try account(ctx, i, handle: "h\(i)", email: nil)) }
                for i in 4...6 { try tx.insert(try account(ctx, i, handle: "same", region: nil)) }
            }
            try ctx.write { tx in
                try tx.insert(contentsOf: [try account(ctx, 7, handle: "h7", email: nil), try account(ctx, 8, handle: "same", region: nil)])
                try tx.update("Account", id: 1, set: ["email": .string("x@y")])
                try tx.update("Account", id: 1, set: ["email": .null])
            }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Account", where: "email" == Value.null)) }, 8, "accounts without an email")
            try ctx.expectError(.conflict, "two accounts with handle 'same' in region 'eu'") {
                try ctx.write { tx in
                    try tx.insert(try account(ctx, 9, handle: "same", region: "eu"))
                    try tx.insert(try account(ctx, 10, handle: "same", region: "eu"))
                }
            }
        },
        ConformanceCase("uniqueness", "compoundValuesCollideOnlyWhole") { ctx in
            try ctx.startOver(with: try schema())
            try ctx.write { tx in
                try tx.insert(try account(ctx, 1, handle: "kim", region: "eu"))
                try tx.insert(try account(ctx, 2, handle: "kim", region: "us"))
                try tx.insert(try account(ctx, 3, handle: "Kim", region: "eu"))
                try tx.insert(try account(ctx, 4, handle: "lee", region: "eu"))
            }
            try ctx.expectError(.conflict, "a second ('kim', 'eu')") {
                try ctx.write { try $0.insert(try account(ctx, 5, handle: "kim", region: "eu")) }
            }
            try ctx.expectError(.conflict, "updating ('lee', 'eu') to ('kim', 'eu')") {
                try ctx.write { try $0.update("Account", id: 4, set: ["handle": "kim"]) }
            }
            try ctx.write { try $0.update("Account", id: 4, set: ["region": "us", "handle": "lee"]) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("Account", id: 4)?["region"] }, "us", "account 4's region")
        },
        ConformanceCase("uniqueness", "freedValuesAreReusable") { ctx in
            try ctx.seed()
            try ctx.write { tx in
                try tx.delete("User", id: 2)                                     // frees 'bob'
                try tx.insert(try CRUDCases.newUser(ctx, 20, "bob"))
                try tx.update("User", id: 4, set: ["username": "zed"])           // frees 'zoe'
                try tx.insert(try CRUDCases.newUser(ctx, 21, "zoe"))
            }
            try ctx.write { tx in
                _ = try tx.delete("User", where: "username" == "emile" || "username" == "chloe")
                try tx.insert(contentsOf: [try CRUDCases.newUser(ctx, 22, "emile"), try CRUDCases.newUser(ctx, 23, "chloe")])
                try tx.update("User", id: 1, set: ["username": "tmp"])       // swap ann and bob through a free value
                try tx.update("User", id: 20, set: ["username": "ann"])
                try tx.update("User", id: 1, set: ["username": "bob"])
            }
            try ctx.write { tx in
                try tx.delete("User", id: 21)
            }
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 24, "zoe")) }
            let names = try ctx.read { tx in try tx.fetch(Query("User", sort: [.asc("id")])).map { [$0.id, $0["username"]] } }
            let expected: [[Value]] = [[1, "bob"], [4, "zed"], [20, "ann"], [22, "emile"], [23, "chloe"], [24, "zoe"]]
            try ctx.expectEqual(names, expected, "users (id, username) after reusing freed usernames")
        },
        ConformanceCase("uniqueness", "updateTakingAValueIsConflict") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            try ctx.expectError(.conflict, "renaming bob to 'ann'") { try ctx.write { try $0.update("User", id: 2, set: ["username": "ann"]) } }
            try ctx.expectError(.conflict, "update-where giving two users one username") {
                try ctx.write { tx in _ = try tx.update("User", where: "age" == 30, set: ["username": "twins"]) }
            }
            try ctx.expectError(.conflict, "an upsert of bob with ann's username") {
                try ctx.write { try $0.upsert(try CRUDCases.newUser(ctx, 2, "ann")) }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused writes")
            try ctx.write { tx in
                try tx.update("User", id: 2, set: ["username": "bob", "age": 26])      // keeping its own value
                try tx.upsert(try CRUDCases.newUser(ctx, 1, "ann"))
            }
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 2)?["age"] }, 26, "bob's age after an update keeping his username")
        },
        ConformanceCase("uniqueness", "batchesAreCheckedWhole") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            for size in [2, 257, 1_001, 10_001] {
                let batch = try (0..<size).map { try CRUDCases.newUser(ctx, 1000 + $0, $0 == size - 1 ? "fresh0" : "fresh\($0)") }
                try ctx.expectError(.conflict, "a batch of \(size) whose first and last users share a username") {
                    try ctx.write { try $0.insert(contentsOf: batch) }
                }
                try ctx.expectError(.conflict, "a batch of \(size) whose last user takes a stored username") {
                    try ctx.write { try $0.insert(contentsOf: Array(batch.dropLast()) + [try CRUDCases.newUser(ctx, 999, "ann")]) }
                }
                try ctx.expectEqual(try ctx.dump(), before, "store after the refused batches of \(size)")
            }
            try ctx.write { tx in
                try tx.delete("User", id: 2)
                try tx.insert(contentsOf: try (0..<300).map { try CRUDCases.newUser(ctx, 1000 + $0, $0 == 299 ? "bob" : "n\($0)") })
            }
            try ctx.expectIDs("User", "username == %@", "bob", are: [.int64(1299)])
        },
        ConformanceCase("uniqueness", "survivesReopen", requires: .persistence) { ctx in
            try ctx.seed()
            try ctx.write { try $0.update("User", id: 2, set: ["username": "Bob"]) }
            try ctx.reopen()
            try ctx.expectError(.conflict, "a new user 'ann' after reopening") { try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 9, "ann")) } }
            try ctx.expectError(.conflict, "a new user 'Bob' after reopening") { try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 9, "Bob")) } }
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 9, "bob")) }
            try ctx.expectIDs("User", "username == %@", "bob", are: [9])
        },
    ]

    /// `Account`: a unique optional `email` and a unique compound (`handle`, `region`).
    static func schema() throws -> Schema {
        try Schema(version: 1, entities: [
            EntityDescription("Account", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("handle", .string), Attribute("email", .string, optional: true),
                                           Attribute("region", .string, optional: true)],
                              indexes: [IndexDescription(["email"], unique: true), IndexDescription(["handle", "region"], unique: true)]),
        ])
    }

    static func account(_ ctx: ConformanceContext, _ id: Int, handle: String, email: String? = nil, region: String? = "eu") throws -> Record {
        try ctx.record("Account", ["id": .int64(Int64(id)), "handle": .string(handle), "email": email.map(Value.string) ?? .null,
                                   "region": region.map(Value.string) ?? .null])
    }
}
