import Foundation
import StoreCore
import StoreBenchKit

/// Upgrading a loaded store to a new schema version: what an app's launch waits for. Each
/// repetition starts from a fresh copy of the version-1 store, closes it, and times opening it
/// with version 2 and the migration (the open returns once the store is at version 2). One
/// operation is one user record migrated, so the time per operation is the time per migrated
/// record; the other entities' records are migrated too where the backend rewrites them. No
/// floor: the bare C-API loops have no schema to migrate, so backends are compared with one
/// another.
enum MigrationWorkloads {
    static var all: [Workload] { [addAttribute, renameAttribute, addIndex, transform] }

    /// The seeds' full-name transform, whose time is what a launch that upgrades blocks for.
    static let transformName = "migrate.transform"

    static var addAttribute: Workload {
        migration("migrate.add-attribute", "Open the v1 store with v2, which adds User.level (int64, default 0)") { d in
            d[0].attributes.append(Attribute("level", .int64, default: 0))
        }
    }

    static var renameAttribute: Workload {
        migration("migrate.rename-attribute", "Open the v1 store with v2, which renames User.email to emailAddress",
                  step: { $0.renamingAttribute("email", to: "emailAddress", of: "User") }) { d in
            d[0].attributes[3].name = "emailAddress"
        }
    }

    static var addIndex: Workload {
        migration("migrate.add-index", "Open the v1 store with v2, which adds an index on User.displayName") { d in
            d[0].indexes.append(IndexDescription(["displayName"]))
        }
    }

    /// The seeds' example: a full name made from two old attributes in a transform of every user.
    static var transform: Workload {
        migration(transformName, "Open the v1 store with v2, whose transform sets User.fullName from displayName and username for every user",
                  step: { m in
                      m.transforming("User") { user in
                          user["fullName"] = .string("\(user.old["displayName"].stringValue ?? "") @\(user.old["username"].stringValue ?? "")")
                      }
                  }) { d in
            d[0].attributes.append(Attribute("fullName", .string))
        }
    }

    /// Version 2 of the benchmark schema: its entities edited by `edit` (User is first).
    static func version2(_ edit: (inout [EntityDescription]) -> Void) throws -> Schema {
        var d = BenchSchema.schema.descriptions
        edit(&d)
        return try Schema(version: BenchSchema.version + 1, entities: d)
    }

    private struct State: @unchecked Sendable {
        // @unchecked: used by the thread running the cell only.
        let reopen: (Schema, MigrationPlan) throws -> any Repository
        let schema: Schema
        let plan: MigrationPlan
        let users: Int
    }

    private static func migration(_ name: String, _ summary: String,
                                  step: @escaping @Sendable (Migration) -> Migration = { $0 },
                                  _ edit: @escaping @Sendable (inout [EntityDescription]) -> Void) -> Workload {
        .define(name, .migrate, summary, mutatesStore: true,
                setup: { ctx in
                    guard let reopen = ctx.reopen else { throw BenchError("\(name) runs on backends only") }
                    let v2 = try version2(edit)
                    return State(reopen: reopen, schema: v2, plan: MigrationPlan([step(Migration(from: BenchSchema.schema, to: v2))]),
                                 users: ctx.generator.users)
                },
                body: { repo, s, timer in
                    try repo.close()
                    let migrated = try timer.unit(operations: s.users) { try s.reopen(s.schema, s.plan) }
                    try migrated.close()
                    return s.users
                })
    }
}
