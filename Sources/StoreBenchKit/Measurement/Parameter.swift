/// A setting a cell ran with (threads, a YCSB mix, a record count, the durability), declared
/// once by the suite that owns it. Every cell's results carry its parameters by `name`, so a
/// results file renders as it was measured, whatever today's defaults are.
///
/// ```swift
/// static let threads = Parameter("threads", "reader threads")
/// ctx.record(Self.threads, 4)                 // in the workload's setup
/// view.parameter(Self.threads, of: cell)      // in the suite's report section
/// ```
public struct Parameter: Hashable, Codable, Sendable {
    /// The key in results files (`CellResult.parameters`).
    public let name: String
    public let summary: String

    public init(_ name: String, _ summary: String) {
        self.name = name
        self.summary = summary
    }

    // The run-wide settings the runner records in every cell.
    public static let durability = Parameter("durability", "durable (fsync at commit) or relaxed")
    public static let distribution = Parameter("distribution", "how random keys were drawn")
    public static let scale = Parameter("scale", "the dataset's scale")
    public static let rounds = Parameter("rounds", "rounds the cell ran in")
    public static let repetitions = Parameter("repetitions", "measured repetitions per round")
    public static let warmup = Parameter("warm-up", "warm-up repetitions per round")
}
