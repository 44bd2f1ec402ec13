import ArgumentParser
import Foundation
import StoreBench

extension ResultsComparison.Mode: ExpressibleByArgument {}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Diff two results files; print Markdown for a pull request; exit 0, 2 or 4.",
        discussion: """
            Exit status: 0 no change beyond noise, 2 a regression (or a cell that now fails), \
            4 only improvements; 1 for unreadable input. A change counts when it is beyond \
            --threshold or twice the repetitions' combined coefficient of variation, whichever is larger. \
            Use --mode floor-ratio to compare each backend's ratio to its engine's floor, for runs on different machines.
            """
    )

    @Argument(help: "The baseline results (JSON from `storebench run`).")
    var base: String

    @Argument(help: "The new results.")
    var new: String

    @Option(help: "Smallest change in percent that can count as a regression or improvement.")
    var threshold: Double = 10

    @Option(help: "What to compare: absolute (time per operation) or floor-ratio (time ÷ the engine's floor, same run).")
    var mode: ResultsComparison.Mode = .absolute

    func validate() throws {
        guard threshold >= 0 && threshold < 1_000 else { throw ValidationError("--threshold must be 0…1000 (percent), got \(threshold)") }
    }

    func run() throws {
        let b: RunResults, n: RunResults
        do {
            b = try RunResults.read(base)
            n = try RunResults.read(new)
        } catch {
            StandardError.write("storebench compare: \(error)\n")
            throw ExitCode(1)
        }
        let comparison = ResultsComparison(base: b, new: n, threshold: threshold / 100, mode: mode)
        print(comparison.markdown(), terminator: "")
        throw ExitCode(comparison.exitCode)
    }
}
