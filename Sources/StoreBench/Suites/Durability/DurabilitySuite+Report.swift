import Foundation
import StoreBenchKit

/// The report's "Commit modes" section, from the `durability.*` cells: each engine's default
/// (its floor) and its other commit modes side by side, then the backends at the run's
/// durability, with what a commit costs, what it asks of the disk and what it survives.
extension ResultsView {
    func durability() -> String {
        let one = DurabilityWorkloads.commitOne.name, chunk = DurabilityWorkloads.commitChunk.name
        guard results.cells.contains(where: { $0.category == .durability && $0.isOK && $0.scale == mainScale }) else { return "" }
        var md = "## Commit modes: what a commit costs and what it survives\n\n"
        md += "New users committed into a store that starts empty, at the \(mainScale) scale. Each engine's default mode is its floor "
        md += "(the bare C API, as the backends run it: \(defaultModes)); the other modes are the same floor with the engine's settings "
        md += "changed (`<mode>:<engine>`). The backends run the run's durability (`\(results.durability.rawValue)`). **Syncs per commit** are the "
        md += "fsync, fdatasync, msync and sync_file_range calls the process made, counted where they are called (the runner defines them and "
        md += "passes each on to the kernel); **written per byte committed** is the bytes handed to write calls (`wchar` of `/proc/self/io`) "
        md += "÷ the records' packed bytes; **to storage** is what the kernel sent or queued to the disk (`write_bytes`), which stays "
        md += "behind where nothing is synced. Times are medians over the rounds; × default is the paired ratio to the engine's default "
        md += "with its interval.\n\n"
        md += commitTable(one, "One user per commit", perCommit: true)
        md += commitTable(chunk, "\(parameter(DurabilitySuite.Parameters.perCommit, [chunk]).map(Format.count) ?? "Many") users per commit", perCommit: false)
        md += "What a commit survives:\n\n" + CommitMode.Guarantee.allCases.map { "- **\($0.rawValue)**: \($0.explanation)." }.joined(separator: "\n")
        md += "\n\nSQLite's rollback journal with `synchronous=NORMAL` skips one sync of the journal: SQLite gives it \"a very small (though non-zero) "
        md += "chance\" of corruption on power loss on older file systems. LMDB's default mode syncs its data pages with `fdatasync` and writes its "
        md += "meta page through a descriptor opened `O_DSYNC`, counted as a second sync; `MDB_NOMETASYNC` leaves that write unsynced. "
        md += "Counting those writes costs one `fcntl` per LMDB `pwrite`, in these cells only. A sync on this machine's disk costs what the "
        md += "`floor:sqlite` row shows less the `wal-normal:sqlite` one.\n\n"
        return md
    }

    /// The engines' defaults in words, from the run's durability.
    private var defaultModes: String {
        results.durability == .durable
            ? "SQLite `journal_mode=WAL, synchronous=FULL`, LMDB with no sync flag"
            : "SQLite `journal_mode=WAL, synchronous=NORMAL`, LMDB `MDB_NOSYNC`"
    }

    private func commitTable(_ workload: String, _ title: String, perCommit: Bool) -> String {
        let rows = commitRows(workload)
        guard !rows.isEmpty else { return "" }
        typealias F = DurabilitySuite.Figures
        var md = "### \(title) (`\(workload)`)\n\n"
        md += "| target | settings | a commit survives | time per \(perCommit ? "commit" : "user") | × default | syncs per commit | written per byte committed | to storage |\n"
        md += "|---|---|---|---:|---:|---:|---:|---:|\n"
        for (cell, settings, guarantee, base) in rows {
            let ratio = base.flatMap { cell.target == $0.target ? nil : cell.ratio(to: $0) }
            md += "| `\(cell.target)` | \(settings) | \(guarantee.rawValue) | \(Format.nanos(cell.time)) | \(cell.target == base?.target ? "1" : Format.ratio(ratio)) "
            md += "| \(Format.perOperation(cell.figure(F.syncsPerCommit))) | \(Format.perOperation(cell.figure(F.writtenPerByte))) "
            md += "| \(Format.perOperation(cell.figure(F.storagePerByte))) |\n"
        }
        return md + "\n"
    }

    /// The table's rows: per engine its floor then its modes, then the backends; each with its
    /// settings, its guarantee and the cell its ratio is to (the engine's floor).
    private func commitRows(_ workload: String) -> [(CellResult, String, CommitMode.Guarantee, CellResult?)] {
        let ok = { (t: TargetID) in results.cell(t, workload, mainScale).flatMap { $0.isOK ? $0 : nil } }
        var rows: [(CellResult, String, CommitMode.Guarantee, CellResult?)] = []
        for engine in Floors.engines {
            let floor = ok(.floor(engine))
            if let floor { rows.append((floor, defaultSettings(engine), defaultGuarantee, floor)) }
            for mode in CommitMode.all where mode.engine == engine {
                if let c = ok(mode.target) { rows.append((c, mode.settings, mode.guarantee, floor)) }
            }
        }
        let listed = Set(rows.map(\.0.target))
        for t in results.targets.map(\.id) where !listed.contains(t) {
            guard let c = ok(t) else { continue }
            rows.append((c, t.isBackend ? "as the backend opens it" : "as the program opens it", defaultGuarantee, ok(.floor(c.engine))))
        }
        return rows
    }

    private func defaultSettings(_ engine: String) -> String {
        switch (engine, results.durability) {
        case ("sqlite", .durable): "journal_mode=WAL, synchronous=FULL"
        case ("sqlite", .relaxed): "journal_mode=WAL, synchronous=NORMAL"
        case ("lmdb", .durable): "no sync flag"
        case ("lmdb", .relaxed): "MDB_NOSYNC"
        default: "the engine's default"
        }
    }

    private var defaultGuarantee: CommitMode.Guarantee { results.durability == .durable ? .powerLoss : .lastCommits }
}
