import StoreBenchKit

/// Whether two runs' verdicts agree: for every workload and scale both ran, the significant
/// winner of each run, and whether one run's significant winner is a significant loser (shown
/// slower than another backend) in the other — a claim that did not survive the rerun.
public struct VerdictAgreement: Sendable {
    public struct Contradiction: Sendable, Hashable {
        public let workload: String
        public let scale: String
        /// The winner in one run that loses significantly in the other.
        public let backend: String
        /// True when the base run named it the winner (and the new run shows it slower).
        public let wonInBase: Bool
    }

    /// (workload, scale) pairs compared.
    public let compared: Int
    public let significantInBase: Int
    public let significantInNew: Int
    /// Pairs significant in both runs with the same winner.
    public let agreeing: Int
    public let contradictions: [Contradiction]

    public init(base: RunResults, new: RunResults) {
        let a = ResultsView(Suites.completing(base)), b = ResultsView(Suites.completing(new))
        var compared = 0, sigA = 0, sigB = 0, agreeing = 0
        var contradictions: [Contradiction] = []
        for scale in a.scales where b.scales.contains(scale) {
            let va = a.verdicts(scale), vb = b.verdicts(scale)
            for x in va {
                guard let y = vb.first(where: { $0.workload == x.workload }) else { continue }
                compared += 1
                if x.isSignificant { sigA += 1 }
                if y.isSignificant { sigB += 1 }
                if x.isSignificant && y.isSignificant && x.winner.target == y.winner.target { agreeing += 1 }
                if x.isSignificant && y.isSignificantLoser(x.winner.target.name) {
                    contradictions.append(.init(workload: x.workload, scale: scale, backend: x.winner.target.name, wonInBase: true))
                }
                if y.isSignificant && x.isSignificantLoser(y.winner.target.name) {
                    contradictions.append(.init(workload: x.workload, scale: scale, backend: y.winner.target.name, wonInBase: false))
                }
            }
        }
        self.compared = compared
        significantInBase = sigA
        significantInNew = sigB
        self.agreeing = agreeing
        self.contradictions = contradictions
    }

    public func markdown() -> String {
        var md = "#### Verdicts\n\n"
        md += "\(compared) workload × scale pairs in both runs: \(significantInBase) significant winners in the base run, "
        md += "\(significantInNew) in the new one, \(agreeing) the same in both; \(contradictions.count) contradiction(s)"
        md += contradictions.isEmpty ? ".\n" : ":\n\n" + contradictions.map { c in
            "- `\(c.workload)` \(c.scale): `\(c.backend)` won in the \(c.wonInBase ? "base" : "new") run and is shown slower in the \(c.wonInBase ? "new" : "base") one\n"
        }.joined()
        return md
    }
}
