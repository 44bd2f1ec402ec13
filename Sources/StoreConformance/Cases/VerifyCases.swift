import Foundation
import StoreCore

/// `verify()`: a sound store is clean and counted, a damaged one is reported (never clean
/// while reads see the damage), verifying writes nothing, and a backend that declares
/// `integrityCheck` checks its engine's structure as well as the logical rules.
enum VerifyCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("verify", "cleanAfterEveryKindOfWrite") { ctx in
            try ctx.seed()
            try ctx.write { tx in
                try tx.insert(contentsOf: try (0..<600).map { try CRUDCases.newUser(ctx, 1000 + $0, "bulk\($0)") })
                _ = try tx.delete("User", where: KeyPathExpression("id") >= 1300)
                _ = try tx.update("User", where: KeyPathExpression("id") >= 1000, set: ["age": 50, "email": "bulk@example.com"])
                try tx.upsert(try CRUDCases.newUser(ctx, 2, "bob"))
                try tx.delete("Post", id: 12)
                try tx.link("User", id: 1000, "following", to: 1)
                try tx.unlink("User", id: 1, "following", from: 2)
                try tx.update("User", id: 1001, set: ["username": "renamed"])
            }
            try expectCleanAndCounted(ctx, "after writes of every kind")
            if try ctx.repository.capabilities.contains(.persistence) {
                try ctx.reopen()
                try expectCleanAndCounted(ctx, "after reopening")
            }
        },
        ConformanceCase("verify", "writesNothing", requires: .persistence) { ctx in
            try ctx.seed()
            try ctx.reopen()
            _ = try ctx.dump()                                   // what a read alone does to the files
            let files = try StoreFiles(ctx.directory)
            _ = try ctx.repository.verify()
            try files.expectUnchanged(ctx, "while verify() ran on the open store")
            try ctx.close()
            let closed = try StoreFiles(ctx.directory)
            _ = try ctx.harness.verify(schema: ctx.schema, directory: ctx.directory)
            try closed.expectUnchanged(ctx, "while the harness verified the closed store")
        },
        ConformanceCase("verify", "engineStructureIsChecked", requires: .integrityCheck) { ctx in
            try ctx.seed()
            let checks = try ctx.repository.verify().checks
            let logical = Set(LogicalVerifier.checkNames)
            let engine = checks.filter { !logical.contains($0) && !$0.hasPrefix("engine structure: not checked") }
            try ctx.expect(!engine.isEmpty, "a backend declaring integrityCheck ran only the logical checks: \(checks)")
        },
        ConformanceCase("verify", "damageIsReportedOrHarmless", requires: .persistence) { ctx in
            try DamageTrials.run(ctx, trials: 24)
        },
        ConformanceCase("verify", "noiseIsReported", requires: .persistence) { ctx in
            try ctx.seed()
            try ctx.close()
            try DamageTrials.overwriteWithNoise(ctx.directory, seed: 0x5EED)
            let report = try ctx.harness.verify(schema: ctx.schema, directory: ctx.directory)
            try ctx.expect(!report.isClean, "verify of a store whose files are noise was clean")
        },
    ]

    /// `verify()` is clean and counts every record.
    static func expectCleanAndCounted(_ ctx: ConformanceContext, _ when: String) throws {
        let report = try ctx.repository.verify()
        try ctx.expect(report.isClean, "verify() \(when) found: \(report.problems.prefix(3).map(\.description))")
        let records = try ctx.read { tx in try tx.schema.entities.reduce(0) { $0 + (try tx.count(Query($1.name))) } }
        try ctx.expectEqual(report.records, records, "records verify() read \(when)")
    }
}
