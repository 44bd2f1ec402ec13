import Foundation
import StoreCore

extension LMDBStore {
    /// Checks the store: the page walk of `data.mdb` (see "What LMDB trusts" in Documentation/Integrity.md),
    /// then, only when the structure is sound, every database entry by entry and the logical
    /// checks every backend gets, in one read transaction: nothing is written, writers go on.
    ///
    /// ```swift
    /// let report = try store.verify()
    /// print(report.isClean ? "clean" : "\(report.problemCount) problems")
    /// ```
    public func verify() throws -> VerificationReport {
        var report = VerificationReport()
        let damage = try VerificationReport.damage {
            try read { tx -> Void in
                guard let tx = tx as? LMDBTransaction else { return }
                Self.checkStructure(directory, into: &report)
                if report.isClean {
                    tx.crossCheck(into: &report)
                    LogicalVerifier.check(tx, into: &report)
                } else {
                    report.checks.append("databases and logical checks: skipped, liblmdb would read the damaged pages unchecked")
                }
            }
        }
        if let damage { report.add("store", "\(damage)") }
        return report
    }

    /// Checks the store in `directory` without trusting it: the page walk runs on the closed
    /// file first, and the store is opened read-only (and `verify()` run) only when it is
    /// sound. A store that cannot be opened is a problem in the report, not an error.
    ///
    /// Throws only when the directory has no LMDB data file.
    public static func verify(directory: URL, schema: Schema, options: StoreOptions = StoreOptions()) throws -> VerificationReport {
        let data = directory.appendingPathComponent("data.mdb")
        guard FileManager.default.fileExists(atPath: data.path) else {
            throw StoreError(.notFound, "\(directory.path) holds no LMDB store (no data.mdb)")
        }
        var report = VerificationReport()
        checkStructure(directory, into: &report)
        guard report.isClean else {
            report.checks.append("store not opened: liblmdb would read the damaged pages unchecked")
            return report
        }
        return try VerificationReport.ofStore(file: data) {
            try LMDBStore(directory: directory, schema: schema, options: options.readingOnly)
        }
    }

    /// The schema the store in `directory` records, read (read-only) only after the page walk
    /// found the file sound: `corrupted` with the walk's first problem otherwise.
    public static func storedSchema(directory: URL) throws -> Schema {
        try StoreDirectory.requireStore(directory, storeFile: "data.mdb")
        var report = VerificationReport()
        checkStructure(directory, into: &report)
        if let first = report.problems.first {
            throw StoreError(.corrupted, "\(directory.path)/data.mdb is damaged, its schema is not read: \(first)")
        }
        let path = directory.standardizedFileURL.path
        try OpenEnvironments.claim(path)
        defer { OpenEnvironments.release(path) }
        let env = try LMDBEnvironment(directory: path, maxDatabases: 1, mapSize: 1 << 20, durability: .durable, mode: .init(readOnly: true))
        defer { env.close() }
        let txn = try LMDBTxn(try env.live(), region: env.region, readOnly: true)
        defer { txn.abort() }
        return try LMDBLayout.storedSchema(txn, path: path)
    }

    /// The page walk of `directory/data.mdb`, added to `report`.
    static func checkStructure(_ directory: URL, into report: inout VerificationReport) {
        let walk = LMDBPageWalk.check(dataFile: directory.appendingPathComponent("data.mdb").path)
        report.checks.append(walk.summary.isEmpty ? "LMDB page walk" : walk.summary)
        for p in walk.problems { report.add("structure", p) }
    }
}
