/// The outcome of one case.
public struct ConformanceResult: Sendable, Codable, Hashable {
    public enum Status: String, Sendable, Codable, Hashable { case passed, failed, skipped }
    public let group: String
    public let name: String
    public let status: Status
    /// Why it failed (what differed) or was skipped (the missing capability).
    public let reason: String?

    public var id: String { "\(group).\(name)" }
}

extension ConformanceResult: CustomStringConvertible {
    /// `group.name status: reason`, what a test failure message shows.
    public var description: String { "\(id) \(status.rawValue): \(reason ?? "")" }
}

/// The outcome of the kit for one backend.
///
/// JSON shape: `{"backend","passed","failed","skipped","cases":[{"group","name","status","reason"}]}`.
public struct ConformanceReport: Sendable, Codable, Hashable {
    public let backend: String
    public let passed: Int
    public let failed: Int
    public let skipped: Int
    public let cases: [ConformanceResult]

    public init(backend: String, cases: [ConformanceResult]) {
        self.backend = backend
        self.cases = cases
        passed = cases.filter { $0.status == .passed }.count
        failed = cases.filter { $0.status == .failed }.count
        skipped = cases.filter { $0.status == .skipped }.count
    }

    /// The failed cases.
    public var failures: [ConformanceResult] { cases.filter { $0.status == .failed } }
}
