import ArgumentParser
import Foundation
import StoreBench

extension ResultsComparison.Metric: ExpressibleByArgument {}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Diff two results files; print Markdown for a pull request; the exit status says what changed.",
        discussion: """
            Exit status:
              0  no change beyond noise
              1  a results file cannot be read, or is not one (one line says why)
              2  a regression, or a cell that now fails
              3  the runs had different settings (see --allow-different-settings)
              4  only improvements
              5  nothing compared: no cell ran in both, or none has the --metric
              64 bad arguments
            Different settings are durability, key distribution, datasets, or a cell's parameters such as \
            threads or a YCSB mix. Nothing compared is a failure, not a pass: the files have no cell in common \
            (other workloads, backends or scales), or no common cell has the metric (allocations from a run with \
            --no-allocations, instructions without `run --measure instructions`); one line on standard error says which.

            The default gate, allocations, compares allocation calls per operation: deterministic for a build, so \
            it does not flake on a shared runner, and a change of --tolerance calls per operation and --threshold \
            (default 0.1%) counts. \
            instructions compares callgrind counts from `run --measure instructions` (deterministic too; \
            --threshold defaults to 1%). time compares time per operation: a change counts when it is beyond \
            --threshold (default 10%) or twice the repetitions' combined coefficient of variation, whichever is larger. \
            floor-ratio compares each backend's time ÷ its engine's floor, for runs on different machines.

            Below the table, the verdicts of both runs are compared: how many workloads had a significant winner \
            in each, and any winner of one run shown slower in the other.
            """
    )

    @Argument(help: "The baseline results (JSON from `storebench run`).")
    var base: String

    @Argument(help: "The new results.")
    var new: String

    @Option(help: "What to gate on: allocations (default), instructions, time or floor-ratio.")
    var metric: ResultsComparison.Metric = .allocations

    @Option(help: "Smallest change in percent that can count (default: 0.1 for allocations, 1 for instructions, 10 for time and floor-ratio).")
    var threshold: Double?

    @Option(help: "With allocations: the smallest change in allocation calls per operation that counts.")
    var tolerance: Double = 0.5

    @Flag(help: "Compare files whose runs had different settings (durability, distribution, datasets, parameters); the differences are printed first.")
    var allowDifferentSettings = false

    func validate() throws {
        if let t = threshold, !(0..<1_000).contains(t) { throw ValidationError("--threshold must be 0…1000 (percent), got \(t)") }
        guard tolerance >= 0 else { throw ValidationError("--tolerance must be 0 or more, got \(tolerance)") }
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
        let settings = SettingsDifference(base: b, new: n)
        if !settings.isEmpty {
            let list = settings.lines.map { "- \($0)" }.joined(separator: "\n")
            guard allowDifferentSettings else {
                StandardError.write("storebench compare: the two runs had different settings, so their numbers do not compare:\n\(list)\n"
                    + "Run both with the same settings, or pass --allow-different-settings to compare them anyway.\n")
                throw ExitCode(3)
            }
            print("> **Different settings** (compared anyway, --allow-different-settings):\n" + settings.lines.map { "> - \($0)" }.joined(separator: "\n") + "\n")
        }
        let comparison = ResultsComparison(base: b, new: n, metric: metric, threshold: threshold.map { $0 / 100 }, tolerance: tolerance)
        print(comparison.markdown(), terminator: "")
        if let nothing = comparison.nothingCompared { StandardError.write("\(Registry.programName) compare: \(nothing)\n") }
        throw ExitCode(comparison.exitCode)
    }
}
