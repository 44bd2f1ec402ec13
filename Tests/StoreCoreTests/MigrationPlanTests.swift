import Foundation
import StoreCore
import Testing

/// What `MigrationPlan.decide` and `MigrationStage` refuse before any backend touches a store.
@Suite("Migration plans and stages")
struct MigrationPlanTests {
    static func schema(_ version: Int, _ attributes: [Attribute], entity: String = "User") throws -> Schema {
        try Schema(version: version, entities: [EntityDescription(entity, primaryKey: "id", attributes: [Attribute("id", .int64)] + attributes)])
    }

    static let v1 = try! schema(1, [Attribute("name", .string), Attribute("age", .int64, optional: true)])

    func decide(_ plan: MigrationPlan?, stored: Schema, opening: Schema) throws -> MigrationPlan.Decision {
        try MigrationPlan.decide(plan, storedVersion: String(stored.version), fingerprint: stored.fingerprint, schema: opening, path: "store")
    }

    @Test func theSameVersionNeedsNothingAndAnotherNeedsAPlan() throws {
        guard case .current = try decide(nil, stored: Self.v1, opening: Self.v1) else { Issue.record("expected current"); return }
        let v2 = try Self.schema(2, [Attribute("name", .string), Attribute("age", .int64, optional: true), Attribute("bio", .string, optional: true)])
        let noPlan = #expect(throws: StoreError.self) { try decide(nil, stored: Self.v1, opening: v2) }
        #expect(noPlan?.category == .schemaMismatch)
        guard case .migrate(let stages) = try decide(MigrationPlan([Migration(from: Self.v1, to: v2)]), stored: Self.v1, opening: v2) else {
            Issue.record("expected a migration"); return
        }
        #expect(stages.count == 1 && stages[0].entities[0].attributes[3].sourceOrdinal == nil)
        let tooNew = #expect(throws: StoreError.self) { try decide(MigrationPlan([Migration(from: Self.v1, to: v2)]), stored: v2, opening: Self.v1) }
        #expect(tooNew?.category == .schemaMismatch)
        #expect(tooNew?.message.contains("version 2") == true && tooNew?.message.contains("version 1") == true)
        guard case .recreate = try decide(.deleteStoreIfMigrationNeeded, stored: v2, opening: Self.v1) else { Issue.record("expected recreate"); return }
    }

    @Test func aStoredSchemaOtherThanTheStepsSourceIsRefused() throws {
        let other = try Self.schema(1, [Attribute("name", .string)])
        let v2 = try Self.schema(2, [Attribute("name", .string)])
        let e = #expect(throws: StoreError.self) { try decide(MigrationPlan([Migration(from: Self.v1, to: v2)]), stored: other, opening: v2) }
        #expect(e?.category == .schemaMismatch)
    }

    @Test("steps that cannot be applied are invalidSchema, naming what is wrong", arguments: [
        ("a new required attribute without a value", [Attribute("name", .string), Attribute("age", .int64, optional: true), Attribute("email", .string)], "email"),
        ("a lossy type change without a transform", [Attribute("name", .int64), Attribute("age", .int64, optional: true)], "name"),
        ("optional made required without a default", [Attribute("name", .string), Attribute("age", .int64)], "age"),
    ])
    func invalidSteps(_ what: String, _ attributes: [Attribute], _ named: String) throws {
        let v2 = try Self.schema(2, attributes)
        let e = #expect(throws: StoreError.self, "\(what)") { _ = try MigrationStage(Migration(from: Self.v1, to: v2)) }
        #expect(e?.category == .invalidSchema)
        #expect(e?.message.contains(named) == true, "\(e?.message ?? "")")
    }

    @Test func declarationsMustNameWhatExists() throws {
        let v2 = try Self.schema(2, [Attribute("name", .string), Attribute("age", .int64, optional: true)])
        for m in [Migration(from: Self.v1, to: v2).renamingAttribute("nope", to: "name", of: "User"),
                  Migration(from: Self.v1, to: v2).renamingEntity("Ghost", to: "User"),
                  Migration(from: Self.v1, to: v2).filling("missing", of: "User", with: 1),
                  Migration(from: Self.v1, to: v2).transforming("Post") { _ in }] {
            let e = #expect(throws: StoreError.self) { _ = try MigrationStage(m) }
            #expect(e?.category == .invalidSchema)
        }
    }

    @Test func recordsAreCopiedWidenedFilledAndTransformed() throws {
        let v2 = try Self.schema(2, [Attribute("name", .string), Attribute("age", .double, default: 0.0), Attribute("level", .int64, default: 3)])
        let stage = try MigrationStage(Migration(from: Self.v1, to: v2).transforming("User") { u in
            u["name"] = .string((u.old["name"].stringValue ?? "").uppercased())
        })
        let old = try Self.v1.entity("User").record(["id": 7, "name": "ann", "age": 41])
        let new = try stage.migrate(old, stage.entities[0])
        #expect(new.values == [7, "ANN", .double(41), 3])
        let huge = try Self.v1.entity("User").record(["id": 8, "name": "b", "age": .int64(1 << 60 + 1)])
        #expect(throws: StoreError.self) { _ = try stage.migrate(huge, stage.entities[0]) }
    }
}
