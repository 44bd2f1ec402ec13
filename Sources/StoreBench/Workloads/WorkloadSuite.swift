import StoreBenchKit

/// Where a suite's part of the report goes.
public enum ReportPlacement: Sendable, CaseIterable {
    /// Lines in "Which backend?", after the use-case groups.
    case advice
    /// A chart in "Charts", after the per-category charts.
    case charts
    /// A section of its own, before the per-workload tables.
    case section
    /// A section after the per-workload tables.
    case afterWorkloads
}

/// One workload family in its own folder: its workloads, the figures and parameters they
/// record, the "Which backend?" groups they count in, and its parts of the report.
/// `Suites.all` lists the built-in ones; `Suites.register` adds one at run time.
///
/// ```swift
/// struct ToySuite: WorkloadSuite {
///     var category: WorkloadCategory { WorkloadCategory("toy") }
///     var workloads: [Workload] { [.define("toy.nothing", category, "Does nothing", setup: { _ in () },
///                                          body: { _, _, _ in 0 })] }
///     func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
///         placement == .section ? "## Toy\n\nNothing measured.\n\n" : ""
///     }
/// }
/// Suites.register(ToySuite())
/// ```
public protocol WorkloadSuite: Sendable {
    /// The family; every workload of the suite has it.
    var category: WorkloadCategory { get }
    /// The family in words, for chart titles (`Create, read, update, delete`); the category's
    /// name by default.
    var title: String { get }
    /// The workloads, in report order.
    var workloads: [Workload] { get }
    /// The figures its workloads report beside their times.
    var figures: [Figure] { get }
    /// The parameters its workloads record.
    var parameters: [Parameter] { get }
    /// Whether profiles run it (false for the runner's self-tests).
    var inProfiles: Bool { get }
    /// Whether "Charts" shows its category's geometric mean (false where times are not comparable per operation).
    var chartedByCategory: Bool { get }
    /// The seeds' claims its workloads test (the report's first page gives each a verdict).
    var claims: [SeedClaim] { get }
    /// The "Which backend?" groups `workload` counts in.
    func useCases(of workload: String) -> [UseCase]
    /// Its part of the report at `placement`, from the results alone ("" for none).
    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String
    /// The workload a definition file describes (a YCSB property file), for a suite whose
    /// workloads can come from files; nil when its workloads cannot.
    func workload(definedBy file: String) throws -> Workload?
}

extension WorkloadSuite {
    public var title: String { category.rawValue }
    public var figures: [Figure] { [] }
    public var parameters: [Parameter] { [] }
    public var inProfiles: Bool { true }
    public var chartedByCategory: Bool { true }
    public var claims: [SeedClaim] { [] }
    public func useCases(of workload: String) -> [UseCase] { [.overall] }
    public func report(_ placement: ReportPlacement, _ view: ResultsView) -> String { "" }
    public func workload(definedBy file: String) throws -> Workload? { nil }
}
