import Foundation
import StoreCore

/// Chains of versions, the too-new store, a missing step, delete-and-recreate and progress.
extension MigrationCases {
    static func v2() throws -> Schema { try MigrationSupport.schema(2) { $0[0].attributes.append(Attribute("level", .int64, default: 1)) } }
    static func v3() throws -> Schema {
        try MigrationSupport.schema(3) {
            $0[0].attributes.append(Attribute("level", .int64, default: 1))
            $0[0].attributes.append(Attribute("badge", .string, optional: true))
        }
    }
    static func oneToTwo() throws -> Migration { Migration(from: SocialSchema.make(), to: try v2()) }
    static func twoToThree() throws -> Migration {
        Migration(from: try v2(), to: try v3()).transforming("User") { u in u["badge"] = .string("L\(u.old["level"].int64Value ?? -1)") }
    }

    static let versions: [ConformanceCase] = [
        ConformanceCase.seeded("migrations", "planRunsOnce", requires: MigrationSupport.needs) { ctx in
            // Opening a migrated store again with the same plan runs none of it.
            let v2 = try MigrationSupport.schema(2)
            let m = Migration(from: SocialSchema.make(), to: v2).then { tx in
                let age = try tx.fetch("User", id: 1)?["age"].int64Value ?? 0
                try tx.update("User", id: 1, set: ["age": .int64(age + 1)])
            }
            try ctx.migrate(to: v2, MigrationSupport.plan(m))
            try ctx.migrate(to: v2, MigrationSupport.plan(m))
            try ctx.reopen()
            try ctx.migrate(to: v2, MigrationSupport.plan(m))
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["age"] }, 31, "ann's age, raised by the plan's store step once, after three opens with the plan")
        },
        ConformanceCase.seeded("migrations", "chainInOneOpen", requires: MigrationSupport.needs) { ctx in
            let seen = Locked<[Int]>([])
            var plan = MigrationPlan([try twoToThree(), try oneToTwo()])
            plan.progress = { p in seen.withLock { if $0.last != p.toVersion { $0.append(p.toVersion) } } }
            try ctx.migrate(to: try v3(), plan)
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["badge"] }, Array(repeating: "L1", count: 5), "badge from the level v2 added")
            try ctx.expectEqual(seen.withLock { $0 }, [2, 3], "the steps run, in order")
            try MigrationSupport.expectFixtureLinks(ctx)
            try MigrationSupport.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "directStepPreferred", requires: MigrationSupport.needs) { ctx in
            let direct = Migration(from: SocialSchema.make(), to: try v3()).transforming("User") { u in u["badge"] = "direct" }
            try ctx.migrate(to: try v3(), MigrationPlan([try oneToTwo(), try twoToThree(), direct]))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["badge"] }, Array(repeating: "direct", count: 5), "v1 → v3 taken over v1 → v2 → v3")
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["level"] }, Array(repeating: 1, count: 5), "level's default")
        },
        ConformanceCase.seeded("migrations", "chainAcrossOpens", requires: MigrationSupport.needs) { ctx in
            try ctx.migrate(to: try v2(), MigrationPlan([try oneToTwo()]))
            try ctx.write { try $0.update("User", id: 2, set: ["level": 5]) }
            try ctx.migrate(to: try v3(), MigrationPlan([try oneToTwo(), try twoToThree()]))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["badge"] }, ["L1", "L5", "L1", "L1", "L1"], "only v2 → v3 ran on the v2 store")
            try ctx.reopen()
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 2)?["badge"] }, "L5", "after reopening at v3")
        },
        ConformanceCase.seeded("migrations", "newerStoreIsRefused", requires: MigrationSupport.needs) { ctx in
            try ctx.migrate(to: try v2(), MigrationPlan([try oneToTwo()]))
            let before = try ctx.dump()
            do {
                try ctx.migrate(to: SocialSchema.make(), MigrationPlan([try oneToTwo()]))
                throw ConformanceFailure("a version-2 store opened with version 1")
            } catch let e as StoreError {
                try ctx.expectEqual(e.category, .schemaMismatch, "the error's category (\(e))")
                try ctx.expect(e.message.contains("2") && e.message.contains("1"), "the error names both versions: \(e.message)")
            }
            try ctx.reopen(with: try v2())
            try ctx.expectEqual(try ctx.dump(), before, "the version-2 store after the refusal")
        },
        ConformanceCase.seeded("migrations", "missingStepIsRefused", requires: MigrationSupport.needs) { ctx in
            let before = try ctx.dump()
            try ctx.expectError(.schemaMismatch, "opening a v1 store with v3 and only the v2 → v3 step") {
                try ctx.migrate(to: try v3(), MigrationPlan([try twoToThree()]))
            }
            try ctx.expectError(.schemaMismatch, "opening a v1 store with v2 and no plan") { try ctx.reopen(with: try v2()) }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "deleteAndRecreate", requires: MigrationSupport.needs) { ctx in
            try ctx.migrate(to: try v3(), .deleteStoreIfMigrationNeeded)
            for e in ctx.schema.entities {
                try ctx.expectEqual(try ctx.read { try $0.count(Query(e.name)) }, 0, "\(e.name) records after delete-and-recreate")
            }
            try ctx.write { tx in try tx.insert(try ctx.record("User", ["id": 1, "username": "ann", "displayName": "A", "joinedAt": .date(SocialFixture.epoch)])) }
            try ctx.reopen(with: try v3())
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["level"] }, 1, "the recreated store at v3, reopened without a plan")
            try MigrationSupport.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "progressCountsRecords", requires: MigrationSupport.needs) { ctx in
            let seen = Locked<[MigrationProgress]>([])
            var plan = MigrationPlan([seedsMigration(to: try seedsV2())])
            plan.progress = { p in seen.withLock { $0.append(p) } }
            try ctx.migrate(to: try seedsV2(), plan)
            let users = seen.withLock { $0 }.filter { $0.entity == "User" }
            try ctx.expect(!users.isEmpty, "progress was reported for User")
            try ctx.expectEqual(users.last.map { [$0.done, $0.total] }, [5, 5], "the last report for User")
            try ctx.expect(zip(users, users.dropFirst()).allSatisfy { $0.done <= $1.done }, "done never goes back: \(users.map(\.done))")
            try ctx.expect(users.allSatisfy { $0.fromVersion == 1 && $0.toVersion == 2 && $0.total == 5 }, "versions and total in every report")
        },
        ConformanceCase.seeded("migrations", "migratedStoreSurvivesReopen", requires: MigrationSupport.needs) { ctx in
            let v2 = try seedsV2()
            try ctx.migrate(to: v2, MigrationSupport.plan(seedsMigration(to: v2)))
            let after = try ctx.dump()
            try ctx.reopen()
            try ctx.expectEqual(try ctx.dump(), after, "the migrated store after closing and reopening without a plan")
            try ctx.expectError(.schemaMismatch, "the migrated store opened with version 1 and no plan") { try ctx.reopen(with: SocialSchema.make()) }
        },
    ]
}
