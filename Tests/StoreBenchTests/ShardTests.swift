import Foundation
@testable import StoreBench
import StoreConformance
import Testing

/// `run --shard i/n` and `storebench merge`: the parts of a plan join into the whole run's
/// cells and decisions, and anything that is not one plan's complete set of shards is refused.
@Suite(.serialized) struct ShardTests {
    static let workloads = "crud.read-pk.single,crud.insert.single,crud.update.single,rows.fetch,query.indexed-eq"
    static let common = ["run", "--scale", "tiny", "--backends", "sqlite,lmdb", "--workloads", workloads, "--rounds", "3",
                         "--no-conformance", "--no-allocations"]

    /// Runs the plan whole and in `count` shards; returns the whole run and the shards' files.
    static func runs(_ dir: TemporaryDirectory, count: Int) throws -> (whole: RunResults, shards: [String]) {
        let whole = try Bench.run(common + ["--out", dir.url.appendingPathComponent("whole").path])
        #expect(whole.status == 0, "\(whole.err)")
        let shards = try (1...count).map { i in
            let out = dir.url.appendingPathComponent("shard\(i)").path
            let r = try Bench.run(common + ["--shard", "\(i)/\(count)", "--out", out])
            #expect(r.status == 0, "\(r.err)")
            return out + "/latest.json"
        }
        return (try RunResults.read(dir.url.appendingPathComponent("whole/latest.json").path), shards)
    }

    @Test func fourShardsMergeIntoTheCellsAndDecisionsOfTheWholeRun() throws {
        let dir = try TemporaryDirectory("shards")
        let (whole, files) = try Self.runs(dir, count: 4)
        let parts = try files.map { ($0, try RunResults.read($0)) }
        #expect(Set(parts.map { $0.1.shard?.planFingerprint }).count == 1, "every shard records the same plan")
        #expect(parts.map { $0.1.shard!.assignment[$0.1.shard!.shard.index - 1].count }.allSatisfy { $0 >= 1 }, "five workloads over four shards")
        let merged = try ShardMerge.merge(parts)
        #expect(merged.cells.map(\.key) == whole.cells.map(\.key), "the same cells in the same order")
        let agreement = VerdictAgreement(base: whole, new: merged)
        #expect(agreement.compared == 5 && agreement.contradictions.isEmpty, "\(agreement.markdown())")
        let out = dir.url.appendingPathComponent("merged").path
        let cli = try Bench.run(["merge"] + files + ["--out", out])
        #expect(cli.status == 0 && cli.out.contains("4 shards on 1 machine(s), \(whole.cells.count) cells, 0 failed"), "\(cli.out) \(cli.err)")
        let md = try String(contentsOfFile: out + "/latest.md", encoding: .utf8)
        #expect(md.contains("Merged from 4 shards on one machine"))
    }

    /// The same cells dealt to shards merge back into exactly the whole run's cells, so every
    /// decision is the same: a split of one run's results, not a second measurement.
    @Test func aSplitRunMergesBackToItsExactCellsAndVerdicts() throws {
        let dir = try TemporaryDirectory("shards-split")
        let (whole, files) = try Self.runs(dir, count: 2)
        let parts = try files.map { f -> ShardMerge.Part in
            var r = try RunResults.read(f)
            let mine = Set(r.shard!.assignment[r.shard!.shard.index - 1])
            r.cells = whole.cells.filter { mine.contains($0.workload) || WorkloadRegistry.isLoader($0.workload) }
            return (f, r)
        }
        let merged = try ShardMerge.merge(parts)
        #expect(merged.cells == whole.cells)
        let a = ResultsView(whole), b = ResultsView(merged)
        #expect(a.verdicts("tiny").map(Self.decisions) == b.verdicts("tiny").map(Self.decisions))
    }

    static func decisions(_ v: WorkloadVerdict) -> String {
        "\(v.workload): \(v.winner.target) " + v.versusFastest.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.outcome)" }.joined(separator: ", ")
    }

    @Test func mergeRefusesMissingDoubledForeignAndOtherBuilds() throws {
        let dir = try TemporaryDirectory("shards-refused")
        let (_, files) = try Self.runs(dir, count: 2)
        let one = try RunResults.read(files[0]), two = try RunResults.read(files[1])
        #expect(throws: BenchError.self) { try ShardMerge.merge([(files[0], one)]) }
        #expect(Self.problems([(files[0], one)]).contains("missing shard(s) 2/2"))
        #expect(Self.problems([(files[0], one), ("again.json", one)]).contains { $0.hasPrefix("shard 1/2 is given 2 times") })
        var foreign = two
        foreign.shard!.planFingerprint = "0000000000000000"
        #expect(Self.problems([(files[0], one), ("foreign.json", foreign)]).contains { $0.hasPrefix("foreign.json is shard 2/2 of another plan") })
        var rebuilt = two
        rebuilt.shard!.build.revision = "other"
        #expect(Self.problems([(files[0], one), ("rebuilt.json", rebuilt)]).contains { $0.hasPrefix("rebuilt.json comes from another build") && $0.contains("revision") })
        var otherData = two
        otherData.datasets[0].checksum = "0"
        #expect(Self.problems([(files[0], one), ("other-data.json", otherData)]).contains { $0.hasPrefix("other-data.json measured other datasets") })
        var failedLoad = two
        let load = try #require(failedLoad.cells.firstIndex { WorkloadRegistry.isLoader($0.workload) && one.cell($0.key) != nil })
        failedLoad.cells[load].status = .failed
        let merged = try ShardMerge.merge([(files[0], one), ("failed-load.json", failedLoad)])
        #expect(merged.cell(failedLoad.cells[load].key)?.status == .failed, "a load one shard failed shows as failed")
        var short = two
        short.cells.removeLast()
        #expect(Self.problems([(files[0], one), ("short.json", short)]).contains { $0.hasPrefix("1 planned cell(s) appear in no shard") })
        var doubled = two
        doubled.cells.append(one.cells.last!)
        #expect(Self.problems([(files[0], one), ("doubled.json", doubled)]).contains { $0.hasPrefix("1 cell(s) appear in more than one shard") })
        let whole = try Bench.run(["merge", files[0], dir.url.appendingPathComponent("whole/latest.json").path, "--out", dir.url.path + "/m"])
        #expect(whole.status == 2 && whole.err.contains("is not a shard's results: it was written by a run without --shard"))
        #expect(!FileManager.default.fileExists(atPath: dir.url.path + "/m/latest.json"), "nothing written")
    }

    static func problems(_ parts: [ShardMerge.Part]) -> [String] {
        do {
            _ = try ShardMerge.merge(parts)
            return []
        } catch {
            return "\(error)".split(separator: "\n").dropFirst().map { String($0.dropFirst("  - ".count)) }
        }
    }

    @Test func shardOptionIsChecked() throws {
        for bad in ["0/4", "5/4", "2", "a/b", "1/0"] {
            let r = try Bench.run(["run", "--shard", bad, "--scale", "tiny"])
            #expect(r.status == 64 && r.err.contains("--shard"), "\(bad): \(r.err)")
        }
        let r = try Bench.run(["merge"])
        #expect(r.status == 64 && r.err.contains("give the results files of the shards"))
    }
}
