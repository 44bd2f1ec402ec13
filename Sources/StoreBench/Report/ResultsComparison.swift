import Foundation

/// Compares two results files cell by cell and says whether anything regressed beyond noise.
///
/// A cell's change is NEW time per operation ÷ BASE time per operation (or, with
/// `.floorRatio`, the ratio of their floor ratios, which survives a change of machine). The
/// noise band is the larger of `threshold` and twice the combined coefficient of variation of
/// the cells compared; only a change outside the band counts.
///
/// ```swift
/// let c = ResultsComparison(base: old, new: new, threshold: 0.10, mode: .absolute)
/// print(c.markdown()); exit(c.exitCode)   // 0 no change, 2 regression, 4 only improvements
/// ```
public struct ResultsComparison {
    public enum Mode: String, CaseIterable, Sendable { case absolute, floorRatio = "floor-ratio" }
    public enum Verdict: String, Sendable { case regression, improvement, unchanged, failed, missing }

    public struct Row: Sendable {
        public let target: String
        public let workload: String
        public let scale: String
        public let base: Double?
        public let new: Double?
        /// new ÷ base.
        public let change: Double?
        public let band: Double
        public let verdict: Verdict
    }

    public let rows: [Row]
    public let threshold: Double
    public let mode: Mode

    public init(base: RunResults, new: RunResults, threshold: Double, mode: Mode) {
        self.threshold = threshold
        self.mode = mode
        var rows: [Row] = []
        for b in base.cells where b.isOK && b.category != .selftest {
            guard let n = new.cell(b.target, b.workload, b.scale) else {
                rows.append(Row(target: b.target, workload: b.workload, scale: b.scale, base: nil, new: nil, change: nil, band: threshold, verdict: .missing))
                continue
            }
            guard n.isOK else {
                rows.append(Row(target: b.target, workload: b.workload, scale: b.scale, base: nil, new: nil, change: nil, band: threshold, verdict: .failed))
                continue
            }
            let (bv, nv, spread) = Self.values(b, n, base: base, new: new, mode: mode)
            guard let bv, let nv, bv > 0 else { continue }
            let band = max(threshold, 2 * spread)
            let change = nv / bv
            let verdict: Verdict = change > 1 + band ? .regression : change < 1 / (1 + band) ? .improvement : .unchanged
            rows.append(Row(target: b.target, workload: b.workload, scale: b.scale, base: bv, new: nv, change: change, band: band, verdict: verdict))
        }
        self.rows = rows
    }

    /// The compared values and their combined spread (root of summed squared CVs).
    static func values(_ b: CellResult, _ n: CellResult, base: RunResults, new: RunResults, mode: Mode) -> (Double?, Double?, Double) {
        let cvs = [b.coefficientOfVariation ?? 0, n.coefficientOfVariation ?? 0]
        switch mode {
        case .absolute:
            return (b.nanosPerOperation, n.nanosPerOperation, cvs.map { $0 * $0 }.reduce(0, +).squareRoot())
        case .floorRatio:
            let floorCVs = [base, new].map { r -> Double in
                let f = r.cell(CellSpec.floorPrefix + b.engine, b.workload, b.scale)
                return f?.coefficientOfVariation ?? 0
            }
            return (b.floorRatio, n.floorRatio, (cvs + floorCVs).map { $0 * $0 }.reduce(0, +).squareRoot())
        }
    }

    public var regressions: [Row] { rows.filter { $0.verdict == .regression || $0.verdict == .failed } }
    public var improvements: [Row] { rows.filter { $0.verdict == .improvement } }

    /// 0: nothing beyond noise; 2: a regression (or a cell that now fails); 4: only improvements.
    public var exitCode: Int32 { !regressions.isEmpty ? 2 : !improvements.isEmpty ? 4 : 0 }

    /// A Markdown summary fit for a pull-request comment.
    public func markdown() -> String {
        let what = mode == .absolute ? "time per operation" : "ratio to the engine's floor"
        var md = "### StoreBench: \(regressions.count) regression(s), \(improvements.count) improvement(s)\n\n"
        md += "Compared \(rows.filter { $0.verdict != .missing }.count) cells by \(what); a change counts when it is beyond ±\(Format.percent(threshold)) "
        md += "or twice the repetitions' combined spread, whichever is larger.\n\n"
        let missing = rows.filter { $0.verdict == .missing }.count
        if missing > 0 {
            md += "\(missing) cell(s) of the baseline did not run this time (other scales, workloads or backends) and are not compared.\n\n"
        }
        let notable = rows.filter { $0.verdict != .unchanged && $0.verdict != .missing }
        if notable.isEmpty {
            md += "No change beyond noise.\n"
        } else {
            md += "| | target | workload | scale | base | new | change | noise band |\n|---|---|---|---|---:|---:|---:|---:|\n"
            for r in notable.sorted(by: { ($0.verdict.rawValue, $0.workload) < ($1.verdict.rawValue, $1.workload) }) {
                let mark = switch r.verdict {
                case .regression: "🔴 slower"
                case .improvement: "🟢 faster"
                case .failed: "🔴 now fails"
                case .missing: ""
                case .unchanged: ""
                }
                md += "| \(mark) | \(r.target) | \(r.workload) | \(r.scale) | \(show(r.base)) | \(show(r.new)) | "
                md += "\(r.change.map { String(format: "%+.1f%%", ($0 - 1) * 100) } ?? "–") | ±\(Format.percent(r.band)) |\n"
            }
        }
        return md
    }

    private func show(_ v: Double?) -> String { mode == .absolute ? Format.nanos(v) : Format.ratio(v) }
}
