import Foundation
import StoreConformance

/// Runs the conformance kit against each mutation and scores it: a mutation is caught when
/// a case fails (the run stops at the first, unless `everyCatcher`).
public enum KitScore {
    public struct Outcome: Sendable {
        public let mutation: HeldBackFault
        /// The ids of the cases that failed (the first one only unless `everyCatcher`).
        public let catchers: [String]
        public let seconds: Double
        public var caught: Bool { !catchers.isEmpty }
    }

    /// The kit run on one mutation.
    public static func score(_ mutation: HeldBackFault, everyCatcher: Bool = false) -> Outcome {
        let start = Date()
        let harness = HeldBackHarness(mutation)
        var catchers: [String] = []
        for c in ConformanceKit.cases {
            if ConformanceKit.run(c, harness: harness).status == .failed {
                catchers.append(c.id)
                if !everyCatcher { break }
            }
        }
        return Outcome(mutation: mutation, catchers: catchers, seconds: Date().timeIntervalSince(start))
    }

    /// The line `kit-score` prints for an outcome.
    public static func line(_ o: Outcome) -> String {
        let time = String(format: "%.1f s", o.seconds)
        if o.caught { return "caught      \(o.mutation.rawValue): \(o.catchers.joined(separator: ", ")) [\(time)]" }
        return "NOT CAUGHT  \(o.mutation.rawValue) [\(time)]" + (o.mutation.unrevealable.map { ": unrevealable, \($0)" } ?? "")
    }
}
