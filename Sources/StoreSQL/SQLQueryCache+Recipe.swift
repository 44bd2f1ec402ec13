import StoreCore

extension SQLQueryCache {
    /// Where each of `bindings` comes from, checked against two substitute compiles; nil when
    /// the SQL text or a binding depends on an operand's value beyond its class.
    static func recipe(_ sql: String, _ bindings: [Value], _ operands: [Value], _ query: Query, schema: Schema,
                       compile: (ResolvedQuery) -> (String, [Value])) -> [Binding]? {
        var rounds: [(operands: [Value], bindings: [Value])] = []
        for round in 0..<2 {
            var index = 0
            let substituted = query.replacingOperands { _ in
                defer { index += 1 }
                return index < operands.count ? SQLQueryShape.substitute(for: operands[index], index: index, round: round) : .null
            }
            guard index == operands.count, let resolved = try? schema.resolve(substituted) else { return nil }
            let (text, values) = compile(resolved)
            let resolvedOperands = resolved.operands
            guard text == sql, values.count == bindings.count, resolvedOperands.count == operands.count else { return nil }
            rounds.append((resolvedOperands, values))
        }
        var recipe: [Binding] = []
        recipe.reserveCapacity(bindings.count)
        for (j, b) in bindings.enumerated() {
            if let i = operands.indices.first(where: { i in
                operands[i] == b && rounds.allSatisfy { $0.operands[i] == $0.bindings[j] }
            }), rounds.allSatisfy({ $0.operands[i] != b }) {
                recipe.append(.operand(i))
            } else if rounds.allSatisfy({ $0.bindings[j] == b }) {
                recipe.append(.constant(b))
            } else {
                return nil
            }
        }
        return recipe
    }
}
