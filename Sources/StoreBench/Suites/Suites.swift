import StoreCore
import StoreBenchKit

/// The one list of workload families: the runner, `list`, the profiles and the report iterate
/// it. A new family is a folder with its suite and one line here.
public enum Suites {
    /// The built-in suites, in run order.
    public static let all: [any WorkloadSuite] = [
        MemorySuite(), CRUDSuite(), BatchSuite(), QuerySuite(), RowsSuite(), MigrateSuite(),
        ConcurrencySuite(), MultiProcessSuite(), YCSBSuite(), LifecycleSuite(), DurabilitySuite(), GrowthSuite(), SelfTestSuite(),
    ]

    private static let added = Locked<[any WorkloadSuite]>([])

    /// Adds a suite for this process (an outside package's, a test's): it runs, lands in results
    /// and gets its report parts like a built-in one. Register before `StoreBenchCLI.main` runs
    /// (it passes `suites:` on), so that the cell processes, which run the same executable, know
    /// it too. A category or a workload name already taken is refused, and nothing is added.
    public static func register(_ suite: any WorkloadSuite) throws {
        try added.withLock { list in
            let known = all + list
            if known.contains(where: { $0.category == suite.category }) {
                throw BenchError("a suite of category '\(suite.category)' is registered already")
            }
            let names = Set(known.flatMap(\.workloads).map(\.name))
            if let taken = suite.workloads.first(where: { names.contains($0.name) }) {
                throw BenchError("workload '\(taken.name)' of suite '\(suite.category)' has the name of one registered already")
            }
            list.append(suite)
        }
    }

    /// The built-in suites and those registered at run time.
    public static var registered: [any WorkloadSuite] { all + added.withLock { $0 } }

    /// The suite of `category`, if this build knows it.
    public static func suite(of category: WorkloadCategory) -> (any WorkloadSuite)? {
        registered.first { $0.category == category }
    }

    /// Every figure the registered suites declare, by name (suites that share a name declare it alike: a test checks).
    public static var figuresByName: [String: Figure] {
        Dictionary(registered.flatMap(\.figures).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The figures the suites of `categories` declare, each name once, in suite order.
    public static func figures(of categories: Set<WorkloadCategory>) -> [Figure] {
        var seen = Set<String>()
        return registered.filter { categories.contains($0.category) }.flatMap(\.figures).filter { seen.insert($0.name).inserted }
    }
}
