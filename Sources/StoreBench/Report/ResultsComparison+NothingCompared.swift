import StoreBenchKit

extension ResultsComparison {
    /// The exit status when no cell could be compared (`nothingCompared`).
    public static let nothingComparedExitCode: Int32 = 5

    /// Why nothing could be compared, as one line, or nil when at least one cell was: no cell
    /// measured in the base ran in the new file (other workloads, backends or scales), or none
    /// of the cells both ran has the metric in both files. A gate that compared nothing must not
    /// pass as "no change".
    public var nothingCompared: String? {
        guard !rows.contains(where: { $0.verdict != .missing }) else { return nil }
        let what = switch metric {
        case .allocations: "allocation calls per operation (a run with --no-allocations or --measure instructions has none)"
        case .instructions: "instructions per operation (only `run --measure instructions` records them)"
        case .time: "a time per operation"
        case .floorRatio: "a ratio to its engine's floor (a run with --no-floors has none)"
        }
        if unmeasured > 0 {
            return "nothing compared: none of the \(unmeasured) cell(s) both files ran has \(what) in both files"
        }
        return "nothing compared: no cell measured in the base ran in the new file (the base has \(rows.count) measured cell(s); "
            + "other workloads, backends or scales?)"
    }
}
