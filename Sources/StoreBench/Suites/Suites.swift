import Synchronization
import StoreBenchKit

/// The one list of workload families: the runner, `list`, the profiles and the report iterate
/// it. A new family is a folder with its suite and one line here.
public enum Suites {
    /// The built-in suites, in run order.
    public static let all: [any WorkloadSuite] = [
        MemorySuite(), CRUDSuite(), BatchSuite(), QuerySuite(), RowsSuite(), MigrateSuite(),
        ConcurrencySuite(), YCSBSuite(), LifecycleSuite(), SelfTestSuite(),
    ]

    private static let added = Mutex<[any WorkloadSuite]>([])

    /// Adds a suite for this process (an outside package's, a test's): it runs, lands in results
    /// and gets its report parts like a built-in one. A suite of a category already known replaces nothing.
    public static func register(_ suite: any WorkloadSuite) {
        added.withLock { list in
            guard !(all + list).contains(where: { $0.category == suite.category }) else { return }
            list.append(suite)
        }
    }

    /// The built-in suites and those registered at run time.
    public static var registered: [any WorkloadSuite] { all + added.withLock { $0 } }

    /// The suite of `category`, if this build knows it.
    public static func suite(of category: WorkloadCategory) -> (any WorkloadSuite)? {
        registered.first { $0.category == category }
    }

    /// Every figure the registered suites declare, by name.
    public static var figuresByName: [String: Figure] {
        var out: [String: Figure] = [:]
        for f in registered.flatMap(\.figures) { out[f.name] = f }
        return out
    }
}
