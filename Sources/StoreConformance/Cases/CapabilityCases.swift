import Foundation
import StoreCore

/// Capabilities: a backend offers each one or declares it unsupported with a reason
/// (`Repository.unsupportedCapabilities`), and a declared one is refused with `unsupported`
/// where a call can ask for it, never half done.
enum CapabilityCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("capabilities", "eachOfferedOrDeclaredUnsupported") { ctx in
            let repo = try ctx.repository
            let problems = declarationProblems(offered: repo.capabilities, declared: repo.unsupportedCapabilities)
            try ctx.expect(problems.isEmpty, problems.joined(separator: "; "))
        },
        ConformanceCase("capabilities", "declaredUnsupportedIsRefused") { ctx in
            let declared = try ctx.repository.unsupportedCapabilities
            for (capability, name) in Capabilities.named where declared[capability] != nil {
                guard let probe = probes[name] else { continue }
                try ctx.expectError(.unsupported, "using \(name), which the backend declares unsupported") { try probe(ctx) }
                try ctx.startOver(with: SocialSchema.make())
            }
        },
    ]

    /// What is wrong with a backend's declaration: capabilities neither offered nor declared
    /// with a reason, both offered and declared, or keys that are not one capability.
    static func declarationProblems(offered: Capabilities, declared: [Capabilities: String]) -> [String] {
        var problems = declared.keys.filter { key in !Capabilities.named.contains { $0.0 == key } }
            .map { "unsupportedCapabilities has a key (raw value \($0.rawValue)) that is not one capability" }
        for (capability, name) in Capabilities.named {
            let reason = declared[capability]?.trimmingCharacters(in: .whitespacesAndNewlines)
            if offered.contains(capability), reason != nil {
                problems.append("\(name) is both offered and declared unsupported")
            } else if !offered.contains(capability), reason?.isEmpty ?? true {
                problems.append("\(name) is neither offered nor declared unsupported with a reason (Repository.unsupportedCapabilities)")
            }
        }
        return problems
    }

    /// A call that uses the capability, by name; capabilities without one (persistence,
    /// snapshots, the engine check) change how calls behave rather than which calls exist.
    static let probes: [String: @Sendable (ConformanceContext) throws -> Void] = [
        "observation": { ctx in
            guard let observing = try ctx.repository as? any ObservingRepository else {
                throw StoreError(.unsupported, "not an ObservingRepository")
            }
            _ = try observing.observeResults(Query("User"))
        },
        "migrations": { ctx in
            let next = SocialSchema.make(version: SocialSchema.version + 1)
            try ctx.migrate(to: next, MigrationPlan([Migration(from: ctx.schema, to: next)]))
        },
        "compaction": { ctx in try ctx.compact() },
        "readOnlyMode": { ctx in
            try ctx.seed()
            try ctx.reopenReadOnly()
        },
        "primitiveLists": { ctx in try ctx.startOver(with: try oneEntity(Attribute("names", .string, collection: .list))) },
        "primitiveMaps": { ctx in try ctx.startOver(with: try oneEntity(Attribute("prices", .double, collection: .map))) },
        "orderedRelationships": { ctx in try ctx.startOver(with: try OrderedSchema.make()) },
        "embeddedObjects": { ctx in try ctx.startOver(with: try EmbeddedSchema.make()) },
        // A second open of the directory while the store is open: what another process would
        // do. A store without files of its own (in memory) has nothing a second open could share.
        "multiProcess": { ctx in
            guard try ctx.repository.capabilities.contains(.persistence) else { throw StoreError(.unsupported, "nothing to share") }
            try ctx.harness.open(schema: ctx.schema, directory: ctx.directory).close()
        },
    ]

    private static func oneEntity(_ attribute: Attribute) throws -> Schema {
        try Schema(version: 1, entities: [EntityDescription("Item", primaryKey: "id", attributes: [Attribute("id", .int64), attribute])])
    }
}
