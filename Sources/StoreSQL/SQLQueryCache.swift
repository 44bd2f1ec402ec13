import StoreCore

/// Compiled queries by shape (`SQLQueryShape`), as an SQLite user keeps one statement per
/// query and binds new values: a query whose shape was compiled before takes that SQL text and
/// binds its own operands where the recipe says, without running `SQLQueryCompiler`.
///
/// A shape is trusted only after a check when it is first met: the query is compiled three
/// times, with its own operands and with two sets of substitutes of the same classes. The
/// three SQL texts must be equal, and every binding must be either one operand (the same
/// position in all three) or a constant (equal in all three); otherwise the shape is noted as
/// one to compile every time (prefix and suffix tests, whose bindings derive from the text).
///
/// Threading: `Sendable`; one lock around the table, held only to read or store an entry.
final class SQLQueryCache: Sendable {
    /// Where each binding of a shape's SQL comes from.
    enum Binding: Sendable {
        case operand(Int)
        case constant(Value)
    }

    struct Entry: Sendable {
        let sql: SQLStatement
        /// Nil for a shape compiled every time.
        let recipe: [Binding]?
    }

    /// Shapes kept at most; the table starts over when full (a workload has a few shapes,
    /// generated queries many).
    static let capacity = 512
    private let entries = Locked<[SQLQueryShape: Entry]>([:])

    /// The SQL and bindings of `resolved` (the resolution of `query`), compiled by `compile`
    /// unless its shape's entry answers.
    func compiled(_ kind: SQLQueryShape.Kind, _ query: Query, _ resolved: ResolvedQuery, schema: Schema,
                  compile: (ResolvedQuery) -> (String, [Value])) -> (SQLStatement, [Value]) {
        func uncached() -> (SQLStatement, [Value]) {
            let (sql, bindings) = compile(resolved)
            return (SQLStatement(sql), bindings)
        }
        let operands = resolved.operands
        guard let shape = SQLQueryShape(kind, query, operands) else { return uncached() }
        if let entry = entries.withLock({ $0[shape] }) {
            guard let recipe = entry.recipe else { return uncached() }
            return (entry.sql, recipe.map { b in
                switch b {
                case .operand(let i): operands[i]
                case .constant(let v): v
                }
            })
        }
        let (sql, bindings) = compile(resolved)
        let entry = Entry(sql: SQLStatement(sql),
                          recipe: Self.recipe(sql, bindings, operands, query, schema: schema, compile: compile))
        entries.withLock {
            if $0.count >= Self.capacity { $0.removeAll(keepingCapacity: true) }
            $0[shape] = entry
        }
        return (entry.sql, bindings)
    }
}
