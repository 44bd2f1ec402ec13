extension Repository {
    /// The logical checks alone, for backends that have no check of their engine's structure.
    /// See `LogicalVerifier`.
    public func verify() throws -> VerificationReport {
        var report = VerificationReport()
        report.checks.append("engine structure: not checked (this backend offers no structural check)")
        if let e = try VerificationReport.damage(in: { try read { tx in LogicalVerifier.check(tx, into: &report) } }) {
            report.add("store", "\(e)")
        }
        return report
    }
}
