import StoreCore

/// Conditions over to-many relationships: `ANY`/`NONE` and `@count`.
extension SQLQueryCompiler {
    /// `ANY`: the root's link column `IN` the keys the relationship's other side yields for the
    /// matching records (SQLite runs the subquery once, from its own indexes), or `EXISTS`
    /// correlated with the root row when the root is picked by key. `NONE` (and a negated
    /// `ANY`): `NOT EXISTS`, one probe of the link index per root row.
    mutating func quantifiedCondition(_ c: ResolvedCondition, negated: Bool) -> String {
        let chain = chain(c.path)
        let (sql, _) = comparison(chain.terminal, c)
        let exists = (c.quantifier == .any) != negated
        if exists && !correlates { return "\(chain.outerKey) IN (SELECT \(chain.innerKey) \(chain.from) WHERE \(sql))" }
        return "\(exists ? "" : "NOT ")EXISTS (SELECT 1 \(chain.from) WHERE \(chain.correlation) AND \(sql))"
    }

    /// `r.@count <op> n`: the owners of links grouped once (`GROUP BY … HAVING`); a record
    /// without links is in no group, so where a count of zero matches, the statement keeps the
    /// roots that are `NOT IN` the groups that fail. A root picked by key counts its own links.
    mutating func countCondition(_ c: ResolvedCondition, negated: Bool) -> String {
        let chain = chain(c.path)
        if correlates {
            let (sql, _) = comparison("(SELECT COUNT(*) \(chain.from) WHERE \(chain.correlation))", c)
            return negated ? "NOT (\(sql))" : sql
        }
        let matchesZero = QueryEvaluator.test(.int64(0), c.comparison, c.options) != negated
        // COUNT(*) is never NULL, so NOT is exact. The groups kept: those that match when a
        // count of zero does not, those that do not otherwise.
        let (count, _) = comparison("COUNT(*)", c)
        let keepsMatching = !matchesZero
        let having = keepsMatching != negated ? count : "NOT (\(count))"
        let groups = "SELECT \(chain.innerKey) \(chain.from) WHERE \(chain.innerKey) IS NOT NULL GROUP BY \(chain.innerKey) HAVING \(having)"
        guard matchesZero else { return "\(chain.outerKey) IN (\(groups))" }
        let notIn = "\(chain.outerKey) NOT IN (\(groups))"
        return chain.outerKeyIsNullable ? "(\(chain.outerKey) IS NULL OR \(notIn))" : notIn
    }
}
