import StoreBenchKit

/// A question a reader brings ("mostly reads?"): the report's "Which backend?" ranks the
/// backends over the workloads that declare it. Shared ones are declared here; a suite may
/// declare its own. `rank` orders the groups in the report.
public struct UseCase: Hashable, Codable, Sendable {
    public let id: String
    public let title: String
    public let rank: Int

    public init(_ id: String, _ title: String, rank: Int) {
        self.id = id
        self.title = title
        self.rank = rank
    }

    public static let overall = UseCase("overall", "Overall (one thread)", rank: 0)
    public static let mostlyReads = UseCase("reads", "Mostly reads (reads by key, queries, scans)", rank: 10)
    public static let mostlyWrites = UseCase("writes", "Mostly writes (inserts, updates, deletes, upserts, batches)", rank: 20)
    public static let smallTransactions = UseCase("small-transactions", "Many small transactions (one operation each)", rank: 30)
}
