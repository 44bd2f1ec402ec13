import StoreBenchKit

/// Whether two runs' decisions agree: for every workload and scale both ran, each run's
/// decided pairs (the fastest backend decidedly faster than another) and any pair one run
/// decided one way and the other run the other way: a claim that did not survive the rerun.
public struct VerdictAgreement: Sendable {
    public struct Contradiction: Sendable, Hashable {
        public let workload: String
        public let scale: String
        /// The backend decided faster in one run and decidedly slower in the other.
        public let backend: String
        /// The backend it traded places with.
        public let other: String
        /// True when the base run decided `backend` faster than `other`.
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
            let vb = b.verdicts(scale)
            for x in a.verdicts(scale) {
                guard let y = vb.first(where: { $0.workload == x.workload }) else { continue }
                compared += 1
                if x.isSignificant { sigA += 1 }
                if y.isSignificant { sigB += 1 }
                if x.isSignificant && y.isSignificant && x.winner.target == y.winner.target { agreeing += 1 }
                let fasterInB = Set(Self.decidedPairs(y).map { "\($0.faster)>\($0.slower)" })
                for p in Self.decidedPairs(x) where fasterInB.contains("\(p.slower)>\(p.faster)") {
                    contradictions.append(.init(workload: x.workload, scale: scale, backend: p.faster, other: p.slower, wonInBase: true))
                }
            }
        }
        self.compared = compared
        significantInBase = sigA
        significantInNew = sigB
        self.agreeing = agreeing
        self.contradictions = contradictions
    }

    /// The pairs a verdict decides: the fastest decidedly faster than each backend decidedly slower.
    static func decidedPairs(_ v: WorkloadVerdict) -> [(faster: String, slower: String)] {
        v.versusFastest.filter { $0.value.outcome == .slower }.keys.sorted().map { (v.winner.target.name, $0) }
    }

    public func markdown() -> String {
        var md = "#### Verdicts\n\n"
        md += "\(compared) workload × scale pairs in both runs: \(significantInBase) decided winners in the base run, "
        md += "\(significantInNew) in the new one, \(agreeing) the same in both; \(contradictions.count) contradiction(s)"
        md += contradictions.isEmpty ? ".\n" : ":\n\n" + contradictions.map { c in
            "- `\(c.workload)` \(c.scale): `\(c.backend)` decidedly faster than `\(c.other)` in the base run, decidedly slower in the new one\n"
        }.joined()
        return md
    }
}
