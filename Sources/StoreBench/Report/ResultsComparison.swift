import Foundation
import StoreBenchKit

/// Compares two results files cell by cell and says whether anything regressed beyond noise.
///
/// A cell's change is NEW ÷ BASE of the chosen metric:
/// - `allocations`: allocation calls per operation — deterministic for a build (up to a few
///   in ten thousand on large queries), so the gate is tight: a change of `tolerance` calls per
///   operation (default ½) and of `threshold` (default 0.1%) counts;
/// - `instructions`: callgrind's instructions per operation (`run --measure instructions`),
///   deterministic too: a change beyond `threshold` (default 1%) counts;
/// - `time`: time per operation; a change counts when its interval (Welch's t on the logs of the
///   two cells' rounds, or of their per-interval times, at a Bonferroni confidence over all the
///   compared cells) lies wholly beyond `threshold` (default 10%): two runs of one build on a
///   noisy machine then agree;
/// - `floor-ratio`: each backend's time ÷ its engine's floor, same run, which survives a change
///   of machine; same band as time, with the floors' spread added.
///
/// ```swift
/// let c = ResultsComparison(base: old, new: new, metric: .allocations)
/// print(c.markdown()); exit(c.exitCode)   // 0 no change, 2 regression, 4 only improvements, 5 nothing compared
/// ```
public struct ResultsComparison {
    public enum Metric: String, CaseIterable, Sendable {
        case allocations, instructions, time
        case floorRatio = "floor-ratio"

        /// Percent of change that can count, unless given.
        public var defaultThreshold: Double {
            switch self {
            case .allocations: 0.1
            case .instructions: 1
            case .time, .floorRatio: 10
            }
        }

        var isDeterministic: Bool { self == .allocations || self == .instructions }
    }

    public enum Verdict: String, Sendable { case regression, improvement, unchanged, failed, missing }

    public struct Row: Sendable {
        public let key: CellKey
        public let base: Double?
        public let new: Double?
        /// new ÷ base.
        public let change: Double?
        /// The relative change inside which a difference is noise.
        public let band: Double
        public let verdict: Verdict
        /// Time per operation new ÷ base, beside a deterministic metric (informative).
        public let timeChange: Double?
        /// For `time`: new ÷ base with its interval.
        public var interval: Estimate? = nil
    }

    public let rows: [Row]
    public let threshold: Double
    public let metric: Metric
    /// Allocation calls per operation below which a change is not counted (`allocations`).
    public let tolerance: Double
    /// Cells whose metric neither run has (e.g. allocations in a schema-1 file).
    public let unmeasured: Int
    public let verdicts: VerdictAgreement
    /// For `time`: the spread between the two runs every cell shares (a standard deviation of log(new ÷ base)).
    public let runSpread: Double

    /// `threshold` is a fraction (0.10 = 10%); nil takes the metric's default.
    public init(base: RunResults, new: RunResults, metric: Metric, threshold: Double? = nil, tolerance: Double = 0.5) {
        let threshold = threshold ?? metric.defaultThreshold / 100
        self.threshold = threshold
        self.metric = metric
        self.tolerance = tolerance
        var rows: [Row] = []
        var unmeasured = 0
        let changes = metric == .time ? Self.logChanges(base, new) : []
        let runSpread = Self.runSpread(changes)
        self.runSpread = runSpread
        for b in base.cells where b.isOK && Suites.suite(of: b.category)?.inProfiles != false {
            guard let n = new.cell(b.key) else {
                rows.append(Row(key: b.key, base: nil, new: nil, change: nil, band: threshold, verdict: .missing, timeChange: nil))
                continue
            }
            guard n.isOK else {
                rows.append(Row(key: b.key, base: nil, new: nil, change: nil, band: threshold, verdict: .failed, timeChange: nil))
                continue
            }
            let (bv, nv, spread) = Self.values(b, n, base: base, new: new, metric: metric)
            guard let bv, let nv else { unmeasured += 1; continue }
            let timeChange = b.nanosPerOperation.flatMap { bt in n.nanosPerOperation.map { $0 / bt } }
            let band: Double
            let verdict: Verdict
            if metric == .allocations {
                band = max(threshold, bv > 0 ? tolerance / bv : 0)
                verdict = nv - bv >= max(tolerance, threshold * bv) ? .regression
                    : bv - nv >= max(tolerance, threshold * bv) ? .improvement : .unchanged
            } else if metric == .time {
                rows.append(Self.timeRow(b, n, threshold: threshold, comparisons: max(1, changes.count), runSpread: runSpread,
                                         timeChange: timeChange))
                continue
            } else {
                guard bv > 0 else { unmeasured += 1; continue }
                band = max(threshold, 2 * spread)
                let change = nv / bv
                verdict = change > 1 + band ? .regression : change < 1 / (1 + band) ? .improvement : .unchanged
            }
            rows.append(Row(key: b.key, base: bv, new: nv, change: bv > 0 ? nv / bv : nil, band: band, verdict: verdict,
                            timeChange: timeChange))
        }
        self.rows = rows
        self.unmeasured = unmeasured
        verdicts = VerdictAgreement(base: base, new: new)
    }

    /// A time row: new ÷ base decided on its interval, not on the point values.
    static func timeRow(_ b: CellResult, _ n: CellResult, threshold: Double, comparisons: Int, runSpread: Double,
                        timeChange: Double?) -> Row {
        let rule = DecisionRule(margin: threshold, comparisons: comparisons)
        let decided = LogRatio(unpaired: n.intervalNanos ?? n.perRoundNanos ?? [], over: b.intervalNanos ?? b.perRoundNanos ?? [])
            .map { r -> Comparison in rule.decide(Self.widened(r, by: runSpread, cells: comparisons)) }
        let verdict: Verdict = switch decided?.outcome {
        case .slower?: .regression
        case .faster?: .improvement
        default: .unchanged
        }
        var row = Row(key: b.key, base: b.nanosPerOperation, new: n.nanosPerOperation, change: timeChange, band: threshold,
                      verdict: verdict, timeChange: timeChange)
        row.interval = decided?.ratio
        return row
    }

    /// `r` with the runs' shared spread added to its variance; degrees of freedom by
    /// Welch–Satterthwaite, the spread's from the cells it was estimated on (a median absolute
    /// deviation is worth about 37% of them).
    static func widened(_ r: LogRatio, by spread: Double, cells: Int) -> LogRatio {
        guard spread > 0 else { return r }
        var out = r
        let sharedDF = max(1, 0.37 * Double(cells))
        // One measurement on each side (a load): the shared spread is all the noise there is to go by.
        if r.degreesOfFreedom <= 0 {
            out.standardError = (r.standardError * r.standardError + spread * spread).squareRoot()
            out.degreesOfFreedom = sharedDF
            return out
        }
        let within = r.standardError * r.standardError, shared = spread * spread
        out.standardError = (within + shared).squareRoot()
        let parts = (r.degreesOfFreedom > 0 ? within * within / r.degreesOfFreedom : 0) + shared * shared / sharedDF
        out.degreesOfFreedom = r.degreesOfFreedom > 0 ? (within + shared) * (within + shared) / parts : 0
        return out
    }

    /// The spread every cell's time shares between two runs (another moment on a shared
    /// machine): 1.4826 × the median absolute deviation of all common cells' log(new ÷ base),
    /// an estimate of their standard deviation that a few real changes do not move. Each time
    /// row adds it to its own standard error.
    static func runSpread(_ changes: [Double]) -> Double {
        guard changes.count >= 5 else { return 0 }
        let median = SampleStatistics(changes).median
        return 1.4826 * SampleStatistics(changes.map { abs($0 - median) }).median
    }

    /// log(new ÷ base) of every cell both runs measured.
    static func logChanges(_ base: RunResults, _ new: RunResults) -> [Double] {
        base.cells.compactMap { b -> Double? in
            guard b.isOK, Suites.suite(of: b.category)?.inProfiles != false, let bt = b.nanosPerOperation, bt > 0,
                  let n = new.cell(b.key), n.isOK, let nt = n.nanosPerOperation, nt > 0 else { return nil }
            return log(nt / bt)
        }
    }

    /// The compared values and their combined spread (root of summed squared CVs; 0 for counts).
    static func values(_ b: CellResult, _ n: CellResult, base: RunResults, new: RunResults, metric: Metric) -> (Double?, Double?, Double) {
        let cvs = [b.coefficientOfVariation ?? 0, n.coefficientOfVariation ?? 0]
        switch metric {
        case .allocations:
            return (b.allocations?.callsPerOperation, n.allocations?.callsPerOperation, 0)
        case .instructions:
            return (b.instructionsPerOperation, n.instructionsPerOperation, 0)
        case .time:
            return (b.nanosPerOperation, n.nanosPerOperation, cvs.map { $0 * $0 }.reduce(0, +).squareRoot())
        case .floorRatio:
            let floorCVs = [base, new].map { r in r.cell(.floor(b.engine), b.workload, b.scale)?.coefficientOfVariation ?? 0 }
            return (b.floorRatio?.value, n.floorRatio?.value, (cvs + floorCVs).map { $0 * $0 }.reduce(0, +).squareRoot())
        }
    }

    public var regressions: [Row] { rows.filter { $0.verdict == .regression || $0.verdict == .failed } }
    public var improvements: [Row] { rows.filter { $0.verdict == .improvement } }

    /// 0: nothing beyond noise; 2: a regression (or a cell that now fails); 4: only improvements;
    /// 5: nothing compared (`nothingCompared`).
    public var exitCode: Int32 {
        nothingCompared != nil ? Self.nothingComparedExitCode : !regressions.isEmpty ? 2 : !improvements.isEmpty ? 4 : 0
    }

    /// A Markdown summary fit for a pull-request comment.
    public func markdown() -> String {
        let what = switch metric {
        case .allocations: "allocation calls per operation"
        case .instructions: "instructions per operation (callgrind)"
        case .time: "time per operation"
        case .floorRatio: "ratio to the engine's floor"
        }
        if let nothing = nothingCompared { return "### StoreBench: nothing compared\n\n\(nothing.prefix(1).uppercased() + nothing.dropFirst()).\n" }
        var md = "### StoreBench: \(regressions.count) regression(s), \(improvements.count) improvement(s)\n\n"
        let compared = rows.filter { $0.verdict != .missing }.count
        md += "Compared \(compared) cells by \(what); "
        let rule: String = switch metric {
        case .allocations: "a change counts when it is at least \(Format.perOperation(tolerance)) calls per operation"
            + (threshold > 0 ? " and \(String(format: "%.2g%%", threshold * 100))" : "") + " (counts are deterministic for a build).\n\n"
        case .instructions: "a change counts when it is beyond ±\(Format.percent(threshold)).\n\n"
        case .time: "a change counts when its interval (Welch's t on the logs of both cells' rounds, widened by the spread every cell shares between the two runs, ±\(Format.percent(exp(runSpread) - 1)) here, at a confidence that keeps all \(rows.count) comparisons together right with 95% probability) lies wholly beyond ±\(Format.percent(threshold)).\n\n"
        case .floorRatio: "a change counts when it is beyond ±\(Format.percent(threshold)) or twice the repetitions' combined spread, whichever is larger.\n\n"
        }
        md += rule
        let missing = rows.filter { $0.verdict == .missing }.count
        if missing > 0 {
            md += "\(missing) cell(s) of the baseline did not run this time (other scales, workloads or backends) and are not compared.\n\n"
        }
        if unmeasured > 0 {
            md += "\(unmeasured) cell(s) lack this metric in one of the files (not counted, or an older results schema) and are not compared.\n\n"
        }
        let notable = rows.filter { $0.verdict != .unchanged && $0.verdict != .missing }
        if notable.isEmpty {
            md += "No change beyond noise.\n"
        } else {
            md += "| | target | workload | scale | base | new | change | noise band |" + (metric.isDeterministic ? " time change |" : "")
            md += "\n|---|---|---|---|---:|---:|---:|---:|" + (metric.isDeterministic ? "---:|" : "") + "\n"
            for r in notable.sorted(by: { ($0.verdict.rawValue, $0.key.workload) < ($1.verdict.rawValue, $1.key.workload) }) {
                let mark = switch r.verdict {
                case .regression: "🔴 worse"
                case .improvement: "🟢 better"
                case .failed: "🔴 now fails"
                case .missing, .unchanged: ""
                }
                md += "| \(mark) | \(r.key.target) | \(r.key.workload) | \(r.key.scale) | \(show(r.base)) | \(show(r.new)) | "
                md += "\(percentChange(r.change))\(r.interval.map { " \(Format.ratio($0))" } ?? "") | ±\(Format.percent(r.band)) |"
                md += metric.isDeterministic ? " \(percentChange(r.timeChange)) |\n" : "\n"
            }
        }
        return md + "\n" + verdicts.markdown()
    }

    private func percentChange(_ c: Double?) -> String { c.map { String(format: "%+.1f%%", ($0 - 1) * 100) } ?? "–" }

    private func show(_ v: Double?) -> String {
        switch metric {
        case .time: Format.nanos(v)
        case .floorRatio: Format.ratio(v)
        case .allocations, .instructions: Format.perOperation(v)
        }
    }
}
