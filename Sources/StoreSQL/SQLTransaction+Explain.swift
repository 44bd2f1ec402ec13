import StoreCore

extension SQLTransaction {
    /// The SQL a query compiles to, then SQLite's `EXPLAIN QUERY PLAN` for it: one step a line,
    /// indented by depth (a subquery's steps under it). Read through the driver, so every
    /// SQLite driver explains the same way.
    /// With `counting`, the statement of `count(_:)` instead of `fetch(_:)`'s.
    public func explain(_ query: Query, counting: Bool = false) throws -> String {
        let rq = try schema.resolve(query)
        var c = SQLQueryCompiler(mapping: mapping)
        let sql = counting ? c.count(rq) : c.select(rq)
        var lines = [sql], depth: [Int64: Int] = [0: 0]
        try db.rows(SQLStatement("EXPLAIN QUERY PLAN " + sql), c.bindings, of: Self.planStep) { row in
            let id = row[0].int64Value ?? 0, d = (depth[row[1].int64Value ?? 0] ?? 0) + 1
            depth[id] = d
            lines.append(String(repeating: "  ", count: d) + (row[3].stringValue ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    /// The shape of `EXPLAIN QUERY PLAN`'s rows: id, parent, (unused), detail.
    private static let planStep: Entity = {
        let step = EntityDescription("QueryPlanStep", primaryKey: "id", attributes: [
            Attribute("id", .int64), Attribute("parent", .int64), Attribute("notused", .int64), Attribute("detail", .string),
        ])
        // Fixed and valid: a failure is a bug here.
        return try! Schema(version: 1, entities: [step]).entity("QueryPlanStep")
    }()
}
