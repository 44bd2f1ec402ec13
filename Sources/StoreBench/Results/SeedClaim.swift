/// A claim the seeds (the tutorials StoreBench grew from) make, and the measurement that tests
/// it here: one or more comparisons, each the mean over pairs of cells of numerator ÷
/// denominator (time per operation, or a figure), that must all come out as `expected`.
///
/// Suites declare claims (`WorkloadSuite.claims`); the run records them in the results, and
/// the report's first page gives each a verdict: holds, does not hold, undecided, or not
/// measurable here (a cell it needs did not run).
public struct SeedClaim: Codable, Sendable, Hashable {
    /// One side of a pair: a target's cell of a workload, and what of it is compared.
    public struct Term: Codable, Sendable, Hashable {
        public let target: TargetID
        public let workload: String
        /// A figure's name; nil compares time per operation.
        public let figure: String?

        /// A backend's cell.
        public init(_ backend: String, _ workload: String, figure: String? = nil) {
            self.init(target: .backend(backend), workload, figure: figure)
        }

        public init(target: TargetID, _ workload: String, figure: String? = nil) {
            self.target = target
            self.workload = workload
            self.figure = figure
        }
    }

    /// One decided comparison of the claim: the mean over `pairs` of numerator ÷ denominator.
    public struct Check: Codable, Sendable, Hashable {
        /// What this check compares, in words (`objectgraph+lmdb ÷ objectgraph+sqlite over 16 reads`).
        public let label: String
        public let pairs: [Pair]

        public init(_ label: String, _ pairs: [Pair]) {
            self.label = label
            self.pairs = pairs
        }

        /// `numerator` ÷ `denominator`, workload by workload.
        public static func each(_ label: String, _ numerator: String, over denominator: String, _ workloads: [String]) -> Check {
            Check(label, workloads.map { Pair(Term(numerator, $0), over: Term(denominator, $0)) })
        }
    }

    public struct Pair: Codable, Sendable, Hashable {
        public let numerator: Term
        public let denominator: Term

        public init(_ numerator: Term, over denominator: Term) {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    /// What the claim says the numerator is against the denominator.
    public enum Expected: String, Codable, Sendable { case lower, equivalent }

    public let id: String
    /// The claim, in the seeds' words (paraphrased).
    public let claim: String
    /// What stands in for it here, in words.
    public let standIn: String
    public let checks: [Check]
    public let expected: Expected

    public init(id: String, claim: String, standIn: String, expected: Expected = .lower, checks: [Check]) {
        self.id = id
        self.claim = claim
        self.standIn = standIn
        self.expected = expected
        self.checks = checks
    }
}
