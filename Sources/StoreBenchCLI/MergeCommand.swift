import ArgumentParser
import Foundation
import StoreBench

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the results of a run's shards (run --shard i/n) into one report.",
        discussion: """
            Each shard of `storebench run --shard i/n` measures whole workloads (every target, floor and scale of a \
            workload in one shard), so every ratio and decision compares cells of one machine. merge checks that the \
            files are the shards 1…n of one plan (same options, profile and fingerprint), dealt the same way, from one \
            build (configuration, Swift, SQLite, LMDB and source revision), and that every planned cell appears exactly \
            once; it lists each problem (a missing, doubled or foreign shard, a missing or doubled cell) and exits 2. \
            Otherwise it writes <out>/latest.json and <out>/latest.md: cells whole from the shard that ran them (their \
            latency percentiles, rounds and ratios as measured there), the kit's results from shard 1, and a Shards \
            section naming each shard's machine; when machines differ the report says so beside every absolute time.

            Examples:
              storebench run --profile quick --shard 1/2 --out Reports/shards/1   # on one machine
              storebench run --profile quick --shard 2/2 --out Reports/shards/2   # on another
              storebench merge Reports/shards/*/latest.json --out Reports/merged
            Exit status: 0 merged, 1 a file cannot be read or is not results, 2 the files are not one plan's shards, \
            73 when the report cannot be written.
            """
    )

    @Argument(help: ArgumentHelp("The shards' results files (latest.json of each --out).", valueName: "shard.json"))
    var files: [String] = []

    @Option(help: "Directory for the merged latest.md and latest.json.")
    var out: String = "Reports/merged"

    func validate() throws {
        if files.isEmpty { throw ValidationError("give the results files of the shards, e.g. Reports/shards/*/latest.json") }
    }

    func run() throws {
        let (jsonPath, mdPath) = ((out as NSString).appendingPathComponent("latest.json"), (out as NSString).appendingPathComponent("latest.md"))
        try FileAccess.checkWritable([mdPath, jsonPath])
        var parts: [ShardMerge.Part] = []
        for f in files {
            do { parts.append((f, try RunResults.read(f))) } catch {
                StandardError.write("\(Registry.programName) merge: \(error)\n")
                throw ExitCode(1)
            }
        }
        let merged: RunResults
        do { merged = try ShardMerge.merge(parts) } catch {
            StandardError.write("\(Registry.programName) merge: \(error)\n")
            throw ExitCode(2)
        }
        try merged.write(jsonPath)
        try MarkdownReport(merged).write(to: URL(fileURLWithPath: mdPath))
        let failed = merged.cells.filter { $0.status == .failed || $0.status == .timeout }.count
        let machines = Set((merged.shards ?? []).map(\.machine)).count
        print("wrote \(mdPath) and \(jsonPath): \(parts.count) shards on \(machines) machine(s), \(merged.cells.count) cells, \(failed) failed")
    }
}
