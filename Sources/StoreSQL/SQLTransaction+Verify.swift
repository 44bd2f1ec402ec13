import StoreCore

extension SQLTransaction {
    /// `verify()` of a SQL store, inside one read transaction: SQLite's `PRAGMA
    /// integrity_check` (b-tree structure, free list, every index entry against its row and
    /// back), the stored DDL against the schema's, then `LogicalVerifier`'s checks (SQLite
    /// reports damage it meets as an error, so they run on a damaged file too).
    public func verify(into report: inout VerificationReport) {
        checkStructure(into: &report)
        checkDDL(into: &report)
        checkRowChecksums(into: &report)
        LogicalVerifier.check(self, into: &report)
    }

    // MARK: Internal helpers

    private func checkStructure(into report: inout VerificationReport) {
        report.checks.append("PRAGMA integrity_check")
        do {
            let lines = try db.column("PRAGMA integrity_check", .string, []).compactMap { v -> String? in
                if case .string(let s) = v { return s }
                return nil
            }
            if lines != ["ok"] { for l in lines { report.add("structure", l) } }
        } catch { report.add("structure", "PRAGMA integrity_check failed: \(error)") }
    }

    /// Every row's attributes against the checksum written with them. A row without one was
    /// written by another client; it is counted, not a problem.
    private func checkRowChecksums(into report: inout VerificationReport) {
        var unsummed = 0
        for e in schema.entities {
            let t = q(e.name), sum = q(SQLFunctions.checksumColumn)
            let expected = SQLSchemaMapping.checksum(e.attributes.map { q($0.name) })
            do {
                let bad = try db.column(SQLStatement("SELECT \(q(e.primaryKey.name)) FROM \(t) WHERE \(sum) IS NOT NULL AND \(sum) IS NOT \(expected)"),
                                        e.primaryKey.type, [])
                for id in bad { report.add(e.name, "record \(id) does not match its checksum") }
                unsummed += Int(try db.scalarInt(SQLStatement("SELECT COUNT(*) FROM \(t) WHERE \(sum) IS NULL"), []) ?? 0)
            } catch { report.add(e.name, "checking the row checksums failed: \(error)") }
        }
        report.checks.append("row checksums" + (unsummed > 0 ? " (\(unsummed) rows without one: written by another client)" : ""))
    }

    /// Every table and index of the schema exists with the DDL this version writes.
    private func checkDDL(into report: inout VerificationReport) {
        report.checks.append("stored tables and indexes match the schema's DDL")
        func normalized(_ sql: String) -> String { sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        for sql in mapping.ddl() {
            // CREATE [UNIQUE] TABLE|INDEX "name" …
            guard let name = sql.split(separator: "\"").dropFirst().first.map(String.init) else { continue }
            do {
                let stored = try db.column("SELECT sql FROM sqlite_master WHERE name = ?", .string, [.string(name)])
                guard case .string(let s)? = stored.first else {
                    report.add("schema", "the store has no table or index \(name)")
                    continue
                }
                if normalized(s) != normalized(sql) { report.add("schema", "\(name) is stored as `\(s)`, the schema needs `\(sql)`") }
            } catch { report.add("schema", "reading the definition of \(name) failed: \(error)") }
        }
    }
}
