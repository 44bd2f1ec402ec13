import Foundation

/// What a report says of a run split into shards (`run --shard`, `storebench merge`).
extension ResultsView {
    /// The first page's line on shards: which part a shard's report holds, or which machines
    /// a merged report's times come from; empty for a whole run.
    func shardsLine() -> String {
        if let s = results.shard {
            let mine = s.assignment[s.shard.index - 1].count, all = s.assignment.joined().count
            return "**Shard \(s.shard) of a plan** (fingerprint `\(s.planFingerprint)`): \(mine) of \(all) workloads; "
                + "`storebench merge` joins the shards' latest.json into the whole report.\n\n"
        }
        guard let shards = results.shards else { return "" }
        let machines = distinctMachines
        var md = "Merged from \(shards.count) shards on \(machines.count == 1 ? "one machine" : "\(machines.count) machines") (see Setup › Shards)"
        md += machines.count == 1 ? ".\n\n" : ": each workload ran whole on one machine, so its absolute times come from that "
            + "machine (named above its table) and every ratio and decision compares cells of one machine.\n\n"
        return md
    }

    /// The Setup section's table of shards, for merged results.
    func shardsTable() -> String {
        guard let shards = results.shards else { return "" }
        let machines = distinctMachines
        var md = "**Shards** (`storebench merge`):\n\n| shard | machine | workloads | cells | time |\n|---:|---|---|---:|---:|\n"
        for s in shards {
            let names = s.workloads.map { "`\($0)`" }
            let listed = names.prefix(6).joined(separator: ", ") + (names.count > 6 ? " and \(names.count - 6) more" : "")
            md += "| \(s.index) | \(machineLabel(s.machine, machines)) | \(listed) | \(s.cells) | \(Int(s.durationSeconds.rounded())) s |\n"
        }
        return md + "\n"
    }

    /// Above a workload's table of merged results from several machines: the machine its times come from.
    func machineOfWorkload(_ workload: String) -> String {
        let machines = distinctMachines
        guard machines.count > 1, let s = results.shards?.first(where: { $0.workloads.contains(workload) }) else { return "" }
        return "Times measured on \(machineLabel(s.machine, machines)) (shard \(s.index)).\n\n"
    }

    private var distinctMachines: [MachineInfo] {
        var seen = Set<MachineInfo>()
        return (results.shards ?? []).map(\.machine).filter { seen.insert($0).inserted }
    }

    private func machineLabel(_ m: MachineInfo, _ machines: [MachineInfo]) -> String {
        let letter = machines.firstIndex(of: m).map { String(UnicodeScalar(UInt8(65 + $0 % 26))) } ?? "?"
        return "machine \(letter): \(m.cpu), \(m.cores) cores, \(Format.bytes(Double(m.memoryBytes)))"
    }
}
