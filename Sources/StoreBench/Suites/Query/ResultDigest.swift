import StoreBenchKit
import StoreCore

/// The cross-check of query results between backends. Each query workload's cell records the
/// digest of what its first `checkedQueries` queries return (every field of every row, in
/// order; a count for counting workloads) as the parameter `results`, once, untimed and
/// outside the counted region (`Workload.define(results:)`). The runner then fails every
/// backend's cell whose digest differs from SQLite's on the same workload and scale
/// (`crossChecked`): a faster but wrong plan fails its cell instead of winning it.
enum ResultDigest {
    /// Read from query cells only: the concurrency suite's observation cells record a
    /// parameter of the same name (the number of records each observer watches).
    static let parameter = Parameter("results", "digest of the rows the workload's first queries return, compared with SQLite's")
    /// The queries of a workload whose results are compared.
    static let checkedQueries = 5
    /// How the reason of a cell failed by the cross-check starts.
    static let failurePrefix = "its query results differ from"
    /// The backend whose results the others must equal.
    static let reference = "sqlite"

    /// The cells with the failure of those whose results differ from SQLite's cell of the same
    /// workload and scale. Without a SQLite cell nothing is failed: the other backends share
    /// engines (two on LMDB's planner, two on the SQL translation), so a majority of them
    /// proves nothing.
    static func crossChecked(_ cells: [CellResult]) -> [CellResult] {
        var out = cells
        let checked = cells.indices.filter { isChecked(cells[$0]) && cells[$0].isOK }
        for group in Dictionary(grouping: checked, by: { cells[$0].workload + "\u{0}" + cells[$0].scale }).values {
            guard let expected = sqliteDigest(group.map { cells[$0] }) else { continue }
            for i in group {
                guard let got = cells[i].parameter(parameter), got != expected else { continue }
                out[i].status = .failed
                out[i].reason = "\(failurePrefix) SQLite's on the same data (digest \(got), expected \(expected)): "
                    + "a query plan returns wrong rows or a wrong order"
            }
        }
        return out
    }

    /// Whether a cell carries a digest: a query cell (a backend's, a floor's or a reference
    /// program's) that recorded one.
    static func isChecked(_ c: CellResult) -> Bool {
        c.category == .query && c.parameter(parameter) != nil
    }

    /// SQLite's digest, where SQLite's cell ran.
    private static func sqliteDigest(_ cells: [CellResult]) -> String? {
        cells.first { $0.target == .backend(reference) }?.parameter(parameter)
    }
}

extension ResultDigest {
    /// The digest of what `items.prefix(checkedQueries)` return, each folded in by `add`, read in
    /// one read transaction (the cell takes it outside its measured region).
    static func digest<Item>(_ repo: any Repository, _ items: [Item],
                             _ add: (any ReadTransaction, Item, inout DatasetChecksum) throws -> Void) throws -> String {
        var digest = DatasetChecksum()
        try repo.read { tx in
            for item in items.prefix(checkedQueries) {
                try add(tx, item, &digest)
                digest.add(.null)   // ends one item's results
            }
        }
        return digest.hex
    }
}
