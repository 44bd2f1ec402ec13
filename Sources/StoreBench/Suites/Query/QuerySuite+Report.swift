import StoreBenchKit

/// The report's note on the cross-check of query results (`ResultDigest`), after the query tables.
extension ResultsView {
    func queryResultsCheck() -> String {
        let checked = results.cells.filter(ResultDigest.isChecked)
        guard !checked.isEmpty else { return "" }
        var md = "### Query results, checked against SQLite\n\n"
        guard checked.contains(where: { $0.target == .backend(ResultDigest.reference) }) else {
            return md + "SQLite did not run, so the query results were not cross-checked: each backend's rows are its own.\n\n"
        }
        md += "Each query workload records a digest of what its first \(ResultDigest.checkedQueries) queries return on each backend, "
        md += "floor and reference program (every field of every row, in order; counts for counting workloads), and a cell whose digest "
        md += "differs from SQLite's on the same data fails: a faster but wrong plan cannot win, and a floor does its workload's work. "
        let failed = checked.filter { $0.reason?.hasPrefix(ResultDigest.failurePrefix) == true }
        if failed.isEmpty {
            md += "In this run all \(checked.count) cells of \(Set(checked.map(\.workload)).count) workloads return SQLite's rows, in SQLite's order.\n\n"
        } else {
            md += "In this run **\(failed.count) cells returned other rows**: "
                + failed.map { "`\($0.target.name)` `\($0.workload)` (\($0.scale))" }.joined(separator: ", ") + ".\n\n"
        }
        return md
    }
}
