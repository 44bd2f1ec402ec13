import StoreCore

/// The words of a plan's summary, kept as their parts while planning and formatted only when
/// the plan is printed (`explain`), so a query pays for no string it does not show.
extension LMDBQueryPlanner {
    /// A condition the access path answers, e.g. `username == "ann"`, `score > 1.5`.
    enum ConditionText: Sendable {
        /// `name op value`.
        case compare(String, String, Value)
        /// `name IN n values`.
        case oneOf(String, count: Int)
        /// `name BEGINSWITH "prefix"`.
        case prefix(String, String)
        /// A condition over the first relationship of its path, e.g. `posts.@count > 10`.
        case link(ResolvedCondition)

        var text: String {
            switch self {
            case .compare(let name, let op, let v): "\(name) \(op) \(v)"
            case .oneOf(let name, let n): "\(name) IN \(n) values"
            case .prefix(let name, let s): "\(name) BEGINSWITH \"\(s)\""
            case .link(let c): Self.linkText(c)
            }
        }

        private static func linkText(_ c: ResolvedCondition) -> String {
            let relationship = c.path.steps.first?.relationship.name ?? ""
            let path: String
            if c.path.isCountOnly {
                path = relationship + ".@count"
            } else if case .attribute(let e, let o, _) = c.path.terminal {
                path = (c.quantifier == .any ? "ANY " : "") + relationship + "." + e.attributes[o].name
            } else {
                path = relationship
            }
            return "\(path) \(c.comparison.symbol)\(c.options.suffix) " + c.comparison.operands.map { "\($0)" }.joined(separator: ", ")
        }
    }

    /// The relationship a linked access crosses, named `Entity.relationship` when printed.
    struct LinkCrossed: Sendable {
        let entity: Entity
        let relationship: Relationship
        var name: String { LMDBLayout.relationshipName(entity, relationship) }
    }
}
