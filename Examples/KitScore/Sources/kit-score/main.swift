import Foundation
import KitMutants
import StoreConformance

// kit-score [--every-catcher] [MUTATION ...]: the conformance kit against each mutation of
// KitMutants (all by default); prints one line per mutation and the score. Exit 0 when the
// wrapper without a mutation passes the kit and the score reaches 95 %, 1 otherwise, 64 on
// bad arguments.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print("USAGE: kit-score [--every-catcher] [MUTATION ...]\n\nMutations (\(HeldBackFault.allCases.count)):")
    for m in HeldBackFault.allCases { print("  \(m.rawValue)") }
    exit(0)
}
let everyCatcher = arguments.contains("--every-catcher")
let names = arguments.filter { !$0.hasPrefix("--") }
let unknown = names.filter { HeldBackFault(rawValue: $0) == nil }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("kit-score: no mutation named \(unknown.joined(separator: ", ")); --help lists them\n".utf8))
    exit(64)
}
let mutations = names.isEmpty ? HeldBackFault.allCases : names.compactMap(HeldBackFault.init(rawValue:))

let clean = ConformanceKit.run(HeldBackHarness(nil))
guard clean.failures.isEmpty else {
    for f in clean.failures { print("the wrapper without a mutation fails \(f.id): \(f.reason ?? "")") }
    exit(1)
}
print("the wrapper without a mutation passes the kit (\(clean.passed) cases passed, \(clean.skipped) skipped)")
var caught = 0
for m in mutations {
    let o = KitScore.score(m, everyCatcher: everyCatcher)
    if o.caught { caught += 1 }
    print(KitScore.line(o))
}
let percent = 100 * Double(caught) / Double(max(1, mutations.count))
print(String(format: "kit-score: %d of %d mutations caught (%.1f %%) by %d kit cases", caught, mutations.count, percent, ConformanceKit.cases.count))
exit(percent >= 95 ? 0 : 1)
