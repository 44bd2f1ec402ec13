import StoreBenchKit
import StoreCore

/// The cross-check of query results between backends. Each query workload's cell records the
/// digest of what its first `checkedQueries` queries return (every field of every row, in
/// order; a count for counting workloads) as the parameter `results`, untimed. The runner then
/// fails every backend's cell whose digest differs from SQLite's on the same workload and
/// scale (`crossChecked`): a faster but wrong plan fails its cell instead of winning it.
enum ResultDigest {
    static let parameter = Parameter("results", "digest of the rows the workload's first queries return, compared with SQLite's")
    /// The queries of a workload whose results are compared.
    static let checkedQueries = 5
    /// How the reason of a cell failed by the cross-check starts.
    static let failurePrefix = "its query results differ from"
    /// The backend whose results the others must equal.
    static let reference = "sqlite"

    /// The cells with the failure of those whose results differ from the reference's (SQLite's
    /// cell of the same workload and scale; without one, the digest most cells agree on).
    static func crossChecked(_ cells: [CellResult]) -> [CellResult] {
        var out = cells
        let checked = cells.indices.filter { cells[$0].isOK && cells[$0].isBackend && cells[$0].parameter(parameter) != nil }
        for group in Dictionary(grouping: checked, by: { cells[$0].workload + "\u{0}" + cells[$0].scale }).values {
            guard let (expected, source) = expectedDigest(group.map { cells[$0] }) else { continue }
            for i in group {
                guard let got = cells[i].parameter(parameter), got != expected else { continue }
                out[i].status = .failed
                out[i].reason = "\(failurePrefix) \(source) on the same data (digest \(got), expected \(expected)): "
                    + "a query plan returns wrong rows or a wrong order"
            }
        }
        return out
    }

    /// SQLite's digest, or the most common one when SQLite did not run; with where it came from.
    private static func expectedDigest(_ cells: [CellResult]) -> (String, String)? {
        if let sqlite = cells.first(where: { $0.target == .backend(reference) }), let d = sqlite.parameter(parameter) {
            return (d, "SQLite's")
        }
        let counts = Dictionary(grouping: cells.compactMap { $0.parameter(parameter) }, by: { $0 }).mapValues(\.count)
        guard let top = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else { return nil }
        return (top.key, "most backends'")
    }
}

extension QueryWorkloads {
    /// A workload's operations (queries, or users to traverse from) with its context, so that
    /// the body can record the digest of the first ones' results.
    final class Checked<Item>: @unchecked Sendable {
        // @unchecked: used by the thread running the cell only.
        let context: WorkloadContext
        let items: [Item]

        init(_ context: WorkloadContext, _ items: [Item]) {
            self.context = context
            self.items = items
        }

        /// Records the digest of the first queries' results, each folded in by `add`, in a
        /// measured repetition (untimed, before the timed loop).
        func recordDigest(_ repo: any Repository,
                          _ add: (any ReadTransaction, Item, inout DatasetChecksum) throws -> Void) throws {
            guard !context.isWarmUp else { return }
            var digest = DatasetChecksum()
            try repo.read { tx in
                for item in items.prefix(ResultDigest.checkedQueries) {
                    try add(tx, item, &digest)
                    digest.add(.null)   // ends one query's results
                }
            }
            context.record(ResultDigest.parameter, digest.hex)
        }
    }
}
