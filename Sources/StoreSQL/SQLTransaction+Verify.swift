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
        checkOrder(into: &report)
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

    /// Every table and index of the schema exists as this version writes it: an index with its
    /// DDL, a table with its columns (names, types, NOT NULL, primary key; in any order, since a
    /// migration's `ALTER TABLE ADD COLUMN` appends) and its rowid choice.
    private func checkDDL(into report: inout VerificationReport) {
        report.checks.append("stored tables and indexes match the schema's DDL")
        func normalized(_ sql: String) -> String { sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        for object in mapping.objects() {
            let name = object.name
            do {
                let stored = try db.column("SELECT sql FROM sqlite_master WHERE name = ?", .string, [.string(name)])
                guard case .string(let s)? = stored.first else {
                    report.add("schema", "the store has no table or index \(name)")
                    continue
                }
                switch object.kind {
                case .index:
                    if normalized(s) != normalized(object.sql) { report.add("schema", "\(name) is stored as `\(s)`, the schema needs `\(object.sql)`") }
                case .table:
                    let columns = try db.column(SQLStatement("SELECT name || ' ' || type || ' ' || \"notnull\" || ' ' || (pk > 0) FROM pragma_table_info(?) ORDER BY 1"),
                                                .string, [.string(name)]).compactMap(\.stringValue)
                    if columns != object.columns || s.hasSuffix("WITHOUT ROWID") != object.sql.hasSuffix("WITHOUT ROWID") {
                        report.add("schema", "\(name) is stored as `\(s)`, the schema needs `\(object.sql)`")
                    }
                }
            } catch { report.add("schema", "reading the definition of \(name) failed: \(error)") }
        }
    }
}
