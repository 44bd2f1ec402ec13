import ArgumentParser
import Foundation
import StoreBench

struct ChooseCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "choose",
            abstract: "Rank the backends of a results file for your operation mix, with intervals, and say which cells decide it.",
            usage: """
                \(Registry.programName) choose --mix reads=80,writes=15,scans=5 [RESULTS.json]
                \(Registry.programName) choose --properties Fixtures/ycsb/workloadb [RESULTS.json]
                """,
            discussion: """
                Each class of the mix stands for the compared workloads of the results that count in it (by their use cases \
                and categories). A backend's score is the geometric mean over the classes, weighted by the mix, of its geometric \
                mean over each class's workloads of time ÷ the fastest backend's. Every backend is decided against the best-scoring \
                one as the report decides (its margin, its Bonferroni count plus this ranking's comparisons): ▼ slower, \
                ≈ equivalent or ? undecided with the rounds that would decide it. Then, per class, the workloads used and the three \
                that add most to the gap between the two best.

                Classes: \(MixClass.all.map { "\($0.id): \($0.title)" }.joined(separator: "; ")).

                A YCSB property file maps readproportion to reads, updateproportion to updates, insertproportion to inserts, \
                scanproportion to scans, and readmodifywriteproportion to reads and updates, half each; a proportion it does not \
                set takes YCSB's default, and every other key is ignored with a note.

                Example: \(Registry.programName) choose --mix reads=80,writes=15,scans=5 Reports/reference.json

                Exit status: 0 printed; 1 when the results file cannot be read, lacks the scale, or holds no workload of \
                any class of the mix; 64 for a bad mix or property file (one line says what and where).
                """
        )
    }

    @Argument(help: "Results file written by `storebench run`.")
    var results: String = "Reports/latest.json"

    @Option(help: ArgumentHelp("The mix as CLASS=SHARE,… (shares ≥ 0 in any unit; they are normalized).", valueName: "mix"))
    var mix: String?

    @Option(help: ArgumentHelp("A YCSB workload property file whose proportions give the mix (instead of --mix).", valueName: "file"))
    var properties: String?

    @Option(help: "The scale to rank at (default: the results' largest).")
    var scale: String?

    @Option(help: "Equivalence margin in percent (default: the run's, else 5).")
    var margin: Double?

    func validate() throws {
        guard (mix == nil) != (properties == nil) else { throw ValidationError("give either --mix or --properties (one of them)") }
        if let margin, !(margin > 0 && margin < 100) { throw ValidationError("--margin must be a percentage between 0 and 100, not \(margin)") }
        _ = try workloadMix()
    }

    /// The mix from `--mix` or `--properties`; a usage error when it is bad.
    func workloadMix() throws -> WorkloadMix {
        do {
            if let mix { return try WorkloadMix(mix) }
            let file = properties ?? ""
            return try WorkloadMix(properties: String(decoding: FileAccess.read(file), as: UTF8.self), source: file)
        } catch {
            throw ValidationError(properties == nil ? "--mix: \(error)" : "--properties: \(error)")
        }
    }

    func run() throws {
        let mix = try workloadMix()
        do {
            var r = try RunResults.read(results)
            if let margin { r.margin = margin / 100 }
            print(try BackendChoice(r, mix: mix, scale: scale).markdown(source: results), terminator: "")
        } catch {
            StandardError.write("\(Registry.programName) choose: \(error)\n")
            throw ExitCode(1)
        }
    }
}
