import Foundation
import StoreCore
import StoreBenchKit

/// New users committed in small write transactions into a store that holds only what the cell
/// wrote (`DatasetKind.empty`), so a commit's cost is its sync and not the data around it. The
/// body counts the syncs and bytes written around its commits (`WriteCounters`).
enum DurabilityWorkloads {
    static var all: [Workload] { [commitOne, commitChunk] }

    /// One user per commit, `single` commits: the cost of a commit itself.
    static var commitOne: Workload {
        commits("durability.commit-one", "Insert `single` new users, one per write transaction, into a store that starts empty; "
                + "reports the syncs per commit and the bytes written per byte committed") { spec in (spec.operations.single, 1) }
    }

    /// `bulk` users, `chunk` per commit: write amplification of a chunked load (standard profile).
    static var commitChunk: Workload {
        commits("durability.commit-chunk", "Insert `bulk` new users, `chunk` per write transaction, into a store that starts empty; "
                + "reports the syncs per commit and the bytes written per byte committed", inQuickProfile: false) { spec in (spec.operations.bulk, spec.operations.chunk) }
    }

    /// The users of one repetition in their commits, as records and as the floors' inputs.
    struct Commits: Sendable {
        let records: [[Record]]
        let inputs: [[UserInput]]
        /// The packed bytes of every record (`PackedLayout`): the same on every target.
        let bytes: Int
    }

    static func commits(_ name: String, _ summary: String, inQuickProfile: Bool = true,
                        _ shape: @escaping @Sendable (DatasetSpec) -> (users: Int, perCommit: Int)) -> Workload {
        .define(name, .durability, summary, dataset: .empty, mutatesStore: true, inQuickProfile: inQuickProfile,
                setup: { ctx in
                    let (count, per) = shape(ctx.spec)
                    let users = ctx.newUserIDs(ctx.scaledForWarmUp(count)).map(ctx.generator.user)
                    let records = stride(from: 0, to: users.count, by: per).map { Array(users[$0..<min(users.count, $0 + per)]) }
                    ctx.record(DurabilitySuite.Parameters.commits, records.count)
                    ctx.record(DurabilitySuite.Parameters.perCommit, per)
                    let bytes = try users.reduce(0) { $0 + (try PackedLayout.encodedSize($1.values, of: $1.entity)) }
                    return Commits(records: records, inputs: records.map { $0.map(UserInput.init) }, bytes: bytes)
                },
                body: { repo, s, timer in
                    try counted(s, timer) { i in
                        try timer.unit(operations: s.records[i].count) { try repo.write { tx in try tx.insert(contentsOf: s.records[i]) } }
                    }
                },
                floor: { floor, s, timer in
                    try counted(s, timer) { i in try floor.insertUsers(s.inputs[i], timer: timer) }
                })
    }

    /// Runs commit `i` for every commit of `s` and reports what they asked of the disk.
    static func counted(_ s: Commits, _ timer: OperationTimer, _ commit: (Int) throws -> Void) throws -> Int {
        let spent = try WriteCounters.watchingWrites {
            let before = WriteCounters.now()
            for i in s.records.indices { try commit(i) }
            return WriteCounters.now() - before
        }
        typealias F = DurabilitySuite.Figures
        if let n = spent.syncs { timer.report(F.syncsPerCommit, Double(n) / Double(max(1, s.records.count))) }
        if let w = spent.written { timer.report(F.writtenPerByte, Double(w) / Double(max(1, s.bytes))) }
        if let d = spent.storage { timer.report(F.storagePerByte, Double(d) / Double(max(1, s.bytes))) }
        return s.inputs.reduce(0) { $0 + $1.count }
    }
}
