import StoreBenchKit

extension WorkloadCategory {
    /// Schema migrations of a loaded store (`migrate.*`).
    public static let migrate = WorkloadCategory("migrate")
}

extension UseCase {
    public static let schemaUpgrades = UseCase("schema-upgrades", "Schema upgrades (migrate.*: time per migrated user)", rank: 40)
}

/// Opening a loaded store with a new schema version: what an app's launch waits for.
struct MigrateSuite: WorkloadSuite {
    var category: WorkloadCategory { .migrate }
    var title: String { "Schema migrations" }
    var workloads: [Workload] { MigrationWorkloads.all.map { $0.with { $0.chartedAcrossScales = true } } }
    func useCases(of workload: String) -> [UseCase] { [.overall, .schemaUpgrades] }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .advice ? view.launchBlocking() : ""
    }
}

extension ResultsView {
    /// How long opening the store with a new version blocks (a launch, in an app), per
    /// backend: the time of `migrate.transform`, the seeds' full-name example, at each scale.
    func launchBlocking() -> String {
        let scaled = results.datasets.filter { scales.contains($0.scale) }.sorted { $0.users < $1.users }
        var parts: [String] = []
        for b in backends {
            let times = scaled.compactMap { d -> String? in
                guard let c = results.cell(b, MigrationWorkloads.transformName, d.scale), c.isOK, let perUser = c.nanosPerOperation else { return nil }
                return "\(Format.nanos(perUser * Double(d.users))) at \(d.scale) (\(d.users.formatted()) users)"
            }
            if !times.isEmpty { parts.append("`\(b)` " + times.joined(separator: ", ")) }
        }
        guard !parts.isEmpty else { return "" }
        return "- **A launch that upgrades the store** (`migrate.transform`: opening it with version 2 runs a transform of every user) blocks for: "
            + parts.joined(separator: "; ") + ".\n"
    }
}
