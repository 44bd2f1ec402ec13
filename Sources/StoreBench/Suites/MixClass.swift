import StoreBenchKit

/// A class of operations in an application's mix (`storebench choose --mix reads=80,writes=15,scans=5`):
/// the compared workloads of a results file that stand for it, chosen by the use cases and the
/// category each workload recorded. Two kinds of workload are told apart by name, and only here:
/// scans (a range, a page in index order or every record) among the reads, and the verb of a
/// write (`insert`, `update` or `delete` as a part of its name; an upsert is only a write).
///
/// ```swift
/// MixClass.named("scans")?.includes(results.workload("query.full-scan")!)   // true
/// ```
public struct MixClass: Sendable, Hashable, CustomStringConvertible {
    /// The name a mix gives it (`reads`).
    public let id: String
    /// What it stands for, in a few words.
    public let title: String
    private let rule: @Sendable (RunResults.WorkloadInfo) -> Bool

    init(_ id: String, _ title: String, _ rule: @escaping @Sendable (RunResults.WorkloadInfo) -> Bool) {
        self.id = id
        self.title = title
        self.rule = rule
    }

    /// Whether `workload` stands for this class (compared workloads only).
    public func includes(_ workload: RunResults.WorkloadInfo) -> Bool { (workload.compared ?? true) && rule(workload) }

    public var description: String { id }
    public static func == (a: MixClass, b: MixClass) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Every class a mix may name, in the order `--help` lists them.
    public static let all: [MixClass] = [
        MixClass("reads", "reads by primary key") { $0.counts(in: .mostlyReads) && $0.category != .query && !$0.isScan },
        MixClass("queries", "queries by predicate (equality, text, key paths, aggregates, traversals)") {
            $0.counts(in: .mostlyReads) && $0.category == .query && !$0.isScan
        },
        MixClass("scans", "reads of many records in order: a range, a page in index order, or every record") { $0.counts(in: .mostlyReads) && $0.isScan },
        MixClass("writes", "every write: inserts, updates, deletes, upserts, batches") { $0.counts(in: .mostlyWrites) },
        MixClass("inserts", "inserts of new records, one by one or batched") { $0.counts(in: .mostlyWrites) && $0.verb == "insert" },
        MixClass("updates", "updates of existing records") { $0.counts(in: .mostlyWrites) && $0.verb == "update" },
        MixClass("deletes", "deletes of records, one by one, batched or by predicate") { $0.counts(in: .mostlyWrites) && $0.verb == "delete" },
        MixClass("transactions", "many small transactions, one operation each") { $0.counts(in: .smallTransactions) },
        MixClass("concurrent", "several threads: readers scaling, readers beside a writer, a long reader") { $0.counts(in: .concurrent) },
        MixClass("migrations", "schema upgrades at open") { $0.counts(in: .schemaUpgrades) },
    ]

    /// The class a mix names `id`, if there is one.
    public static func named(_ id: String) -> MixClass? { all.first { $0.id == id.lowercased() } }

    /// The reads that walk many records in order: a range, a page in index order, every record.
    static let scanWorkloads: Set<String> = ["query.date-range", "query.sort-page", "query.full-scan", "rows.fetch"]
}

extension RunResults.WorkloadInfo {
    fileprivate func counts(in useCase: UseCase) -> Bool { useCases?.contains { $0.id == useCase.id } == true }
    fileprivate var isScan: Bool { MixClass.scanWorkloads.contains(name) }

    /// `insert`, `update` or `delete` when the name has that word as a part (`crud.insert.single`,
    /// `batch.bulk-insert`, `batch.update-where`); nil for others (`crud.upsert.batched`).
    fileprivate var verb: String? {
        let words = Set(name.split(whereSeparator: { $0 == "." || $0 == "-" }).map(String.init))
        return ["insert", "update", "delete"].first { words.contains($0) }
    }
}
