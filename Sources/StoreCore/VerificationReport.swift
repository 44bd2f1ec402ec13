import Foundation

/// What `Repository.verify()` found: the checks that ran and the problems, if any.
///
/// ```swift
/// let report = try store.verify()
/// if !report.isClean { for p in report.problems { print(p) } }
/// ```
///
/// A problem names where it was found (`structure`, an entity, `User#username`, `Post.author`)
/// and what is wrong. At most `problemLimit` problems are kept; the rest are counted in
/// `omittedProblems`, so a badly damaged store gives a short report.
public struct VerificationReport: Sendable, Hashable, Codable {
    /// One thing found wrong.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Where: `structure`, an entity name, an index (`Entity#a,b`) or a relationship (`Entity.rel`).
        public var area: String
        public var detail: String

        public init(area: String, detail: String) {
            self.area = area
            self.detail = detail
        }

        public var description: String { "\(area): \(detail)" }
    }

    /// How many problems a report keeps.
    public static let problemLimit = 200

    /// What was checked, one line each (e.g. `PRAGMA integrity_check`, `page walk: 812 pages`).
    public var checks: [String] = []
    public private(set) var problems: [Problem] = []
    /// Problems found beyond `problemLimit`.
    public private(set) var omittedProblems = 0
    /// Records read and cross-checked.
    public var records = 0
    /// Relationship links checked against their inverse.
    public var links = 0
    /// Index entries checked against their records (where the backend sees its index entries).
    public var indexEntries = 0

    public init() {}

    /// Whether nothing was found wrong.
    public var isClean: Bool { problems.isEmpty }

    /// Every problem found, kept or not.
    public var problemCount: Int { problems.count + omittedProblems }

    /// Notes a problem.
    public mutating func add(_ area: String, _ detail: String) {
        if problems.count < Self.problemLimit {
            problems.append(Problem(area: area, detail: detail))
        } else {
            omittedProblems += 1
        }
    }
}

extension VerificationReport: CustomStringConvertible {
    /// A few lines for a terminal: verdict, counts, checks, problems.
    public var description: String {
        var lines = [isClean ? "clean" : "damaged: \(problemCount) problem(s)"]
        lines.append("records \(records), links \(links), index entries \(indexEntries)")
        lines += checks.map { "checked: \($0)" }
        lines += problems.map { "problem: \($0)" }
        if omittedProblems > 0 { lines.append("… and \(omittedProblems) more problem(s)") }
        return lines.joined(separator: "\n")
    }
}

extension VerificationReport {
    /// Runs `body` and returns the `corrupted` error it threw (a transaction that cannot even
    /// begin or commit on a damaged file), for the caller to add as a problem; rethrows others.
    public static func damage(in body: () throws -> Void) throws -> StoreError? {
        do { try body() } catch let e as StoreError where e.category == .corrupted { return e }
        return nil
    }

    /// Opens a store and verifies it. A store that cannot be opened because it is damaged or
    /// not of this schema (`corrupted`, `schemaMismatch`) is a problem in the report; other
    /// errors are thrown. When `file` is given, it must exist (`notFound` otherwise), and an
    /// empty file is a problem without opening it (opening would create a new store there).
    ///
    /// ```swift
    /// let report = try VerificationReport.ofStore(file: dir.appendingPathComponent("store.sqlite")) {
    ///     try SQLiteStore(directory: dir, schema: schema)
    /// }
    /// ```
    public static func ofStore(file: URL? = nil, opening open: () throws -> any Repository) throws -> VerificationReport {
        var report = VerificationReport()
        if let file {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int else {
                throw StoreError(.notFound, "there is no store at \(file.path)")
            }
            if size == 0 {
                report.add("store", "\(file.lastPathComponent) is empty")
                return report
            }
        }
        let store: any Repository
        do { store = try open() } catch let e as StoreError where e.category == .corrupted || e.category == .schemaMismatch {
            report.add("store", "cannot be opened: \(e)")
            return report
        }
        defer { try? store.close() }
        return try store.verify()
    }
}
