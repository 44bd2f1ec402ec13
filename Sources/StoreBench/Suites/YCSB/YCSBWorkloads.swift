import Foundation
import StoreCore
import StoreBenchKit

/// YCSB's core workloads A–F as StoreBench workloads (`ycsb.a` … `ycsb.f`, from
/// `Fixtures/ycsb/workloada` … `f`), and any YCSB property file (`storebench run --ycsb FILE`).
///
/// A repetition opens a new store of the target backend with the `usertable` schema, loads it
/// (the load phase, timed and reported as `load ops/s`) and times the run phase: time per
/// operation is 1 ÷ throughput over all threads, and each operation kind's count, average,
/// p95 and p99 latency are reported as `<KIND> avg ns` and so on, YCSB's own terms; the
/// intervals are 1 ÷ throughput over each 20th of the run phase's operations. The
/// registered workloads take `recordcount` and `operationcount` from the scale's fixture
/// (`ycsb` block) when it has one, so the reference runs them larger than the files' 1,000;
/// a file given with `--ycsb` runs as written.
public enum YCSBWorkloads {
    static let letters = ["a", "b", "c", "d", "e", "f"]

    static var all: [Workload] { letters.map { registered($0) } }

    static func registered(_ letter: String) -> Workload {
        let summaries = [
            "a": "update heavy: 50% reads, 50% updates, zipfian keys",
            "b": "read mostly: 95% reads, 5% updates, zipfian keys",
            "c": "read only: 100% reads, zipfian keys",
            "d": "read latest: 95% reads, 5% inserts, the newest keys most popular",
            "e": "short ranges: 95% scans of up to 100 records, 5% inserts, zipfian start keys",
            "f": "read-modify-write: 50% reads, 50% read-modify-writes, zipfian keys",
        ]
        return make(name: "ycsb.\(letter)", summary: "YCSB core workload \(letter.uppercased()), \(summaries[letter]!)",
                    file: nil, inQuickProfile: letter == "a" || letter == "c") { ctx in
            guard let fixtures = ctx.fixtures else { throw BenchError("ycsb.\(letter) needs the fixtures folder") }
            var spec = try YCSBWorkloadSpec(file: fixtures.appendingPathComponent("ycsb/workload\(letter)").path)
            if let sizes = ctx.spec.ycsb {
                spec.recordCount = sizes.recordCount
                spec.operationCount = sizes.operationCount
            }
            return spec
        }
    }

    /// The workload of a YCSB property file, named `ycsb.<file name>`; its cells build it again
    /// from the file (`Workload.definitionFile`).
    public static func workload(file path: String) throws -> Workload {
        let spec = try YCSBWorkloadSpec(file: path)
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return make(name: "ycsb.\(spec.name)", summary: "From a YCSB property file: \(describe(spec))", file: absolute, inQuickProfile: true) { _ in
            try YCSBWorkloadSpec(file: absolute)
        }
    }

    /// The mix in words: `50% read, 50% update, zipfian keys`. Not the sizes: the report gives
    /// those of the run (the workload's summary would say them twice).
    static func describe(_ s: YCSBWorkloadSpec) -> String {
        let mix = [(s.readProportion, "read"), (s.updateProportion, "update"), (s.insertProportion, "insert"),
                   (s.scanProportion, "scan"), (s.readModifyWriteProportion, "read-modify-write")]
            .filter { $0.0 > 0 }.map { "\(Int(($0.0 * 100).rounded()))% \($0.1)" }.joined(separator: ", ")
        return "\(mix), \(s.requestDistribution.rawValue) keys"
    }

    /// Records the settings the run phase ran with.
    static func record(_ spec: YCSBWorkloadSpec, in ctx: WorkloadContext) {
        typealias P = YCSBSuite.Parameters
        let mix = [(spec.readProportion, "read"), (spec.updateProportion, "update"), (spec.insertProportion, "insert"),
                   (spec.scanProportion, "scan"), (spec.readModifyWriteProportion, "read-modify-write")]
        ctx.record(P.mix, mix.filter { $0.0 > 0 }.map { "\($0.1)=\($0.0)" }.joined(separator: ","))
        ctx.record(P.distribution, spec.requestDistribution.rawValue)
        ctx.record(P.recordCount, spec.recordCount)
        ctx.record(P.operationCount, spec.operationCount)
        ctx.record(P.threads, spec.threadCount)
        ctx.record(P.fieldCount, spec.fieldCount)
        ctx.record(P.fieldLength, spec.fieldLength)
        if !spec.settingsWithoutEffect.isEmpty { ctx.record(P.withoutEffect, P.withoutEffectValue(spec.settingsWithoutEffect)) }
    }

    struct State: @unchecked Sendable {
        // @unchecked: used by the thread running the cell only.
        let run: YCSBRun
        let repo: any Repository
        let directory: URL
    }

    private static func make(name: String, summary: String, file: String?, inQuickProfile: Bool,
                             spec: @escaping @Sendable (WorkloadContext) throws -> YCSBWorkloadSpec) -> Workload {
        .define(name, .ycsb, summary, dataset: .empty, mutatesStore: true, maxRounds: 2, largestScaleOnly: true,
                inQuickProfile: inQuickProfile, definitionFile: file,
                setup: { ctx in
                    guard let open = ctx.openStore else { throw BenchError("\(name) runs on backends only") }
                    var ycsb = try spec(ctx)
                    ycsb.recordCount = ctx.scaledForWarmUp(ycsb.recordCount)
                    ycsb.operationCount = ctx.scaledForWarmUp(ycsb.operationCount)
                    let run = try YCSBRun(ycsb, seed: ctx.generator.spec.seed &+ UInt64(ctx.repetition))
                    let dir = ctx.storeDirectory.deletingLastPathComponent().appendingPathComponent("ycsb-store")
                    try? FileManager.default.removeItem(at: dir)
                    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                    let repo = try open(run.table.schema, dir)
                    do {
                        let loaded = try run.load(into: repo)
                        let records = run.loadRange.count
                        ctx.report(YCSBSuite.Figures.loadRate, loaded == 0 ? 0 : Double(records) * 1e9 / Double(loaded))
                        ctx.report(YCSBSuite.Figures.records, Double(run.spec.recordCount))
                        ctx.report(YCSBSuite.Figures.threads, Double(run.spec.threadCount))
                        record(run.spec, in: ctx)
                    } catch {
                        try? repo.close()
                        throw error
                    }
                    return State(run: run, repo: repo, directory: dir)
                },
                body: { _, s, timer in
                    let result = try s.run.run(on: s.repo)
                    timer.record(total: result.wallNanos, operations: result.operations, latencies: result.all)
                    timer.record(intervals: result.intervalNanos)
                    for (op, h) in result.latencies {
                        typealias F = YCSBSuite.Figures
                        timer.report(F.count(op), Double(h.totalCount))
                        timer.report(F.latency(op, "avg"), h.mean)
                        timer.report(F.latency(op, "p95"), Double(h.valueAtPercentile(95)))
                        timer.report(F.latency(op, "p99"), Double(h.valueAtPercentile(99)))
                    }
                    return result.operations
                },
                teardown: { s in
                    try? s.repo.close()
                    try? FileManager.default.removeItem(at: s.directory)
                })
    }
}
