/// Parses NSPredicate-style strings into `StorePredicate` trees.
///
/// Grammar (keywords are case-insensitive):
///
///     predicate  := or
///     or         := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | primary
///     primary    := "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | condition
///     condition  := [ANY | SOME | NONE] keypath operator ["[" c|d|cd "]"] operand
///                 | literal relational keypath                        (flipped)
///                 | literal IN keypath                                (ANY keypath == literal)
///     keypath    := name ["[" 'key' "]"] ("." name ["[" 'key' "]"])* ["." "@count"] | %K
///     operator   := == = != <> < <= =< > >= => BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE
///     operand    := literal | %@ | "{" literal ("," literal)* "}"
///     literal    := 'text' | "text" | number | TRUE | YES | FALSE | NO | NIL | NULL | %@
///                 | %d | %i | %ld | %lld | %u (an integer argument) | %f | %lf | %g | %e (a number)
struct PredicateParser {

    private let tokens: [(PredicateToken, Int)]
    private var pos = 0
    private var arguments: [PredicateArgument]
    private var argumentIndex = 0
    private var depth = 0
    private let source: String

    init(_ source: String, arguments: [PredicateArgument]) throws {
        var lexer = PredicateLexer(source)
        tokens = try lexer.tokenize()
        self.arguments = arguments
        self.source = source
    }

    mutating func parse() throws -> StorePredicate {
        let p = try parseOr()
        guard current == .end else { throw expected("AND, OR or the end of the predicate") }
        guard argumentIndex == arguments.count else {
            throw StoreError(.invalidQuery, "\(arguments.count) arguments given but the format uses \(argumentIndex)",
                             context: source, position: offset)
        }
        // The tree can nest deeper than the text (AND inside OR needs no parentheses), and its
        // description writes every level: the limit is on the tree, as `Schema.resolve` sets it.
        guard p.nesting <= Limits.maxPredicateDepth else {
            throw fail("predicate nests deeper than \(Limits.maxPredicateDepth) levels of AND, OR and NOT", at: 0)
        }
        return p
    }

    // MARK: Token helpers

    private var current: PredicateToken { tokens[pos].0 }
    private var offset: Int { tokens[pos].1 }
    private mutating func advance() { if pos < tokens.count - 1 { pos += 1 } }

    private func isKeyword(_ k: String) -> Bool {
        if case .identifier(let s) = current { return s.uppercased() == k }
        return false
    }

    private func isSymbol(_ s: String) -> Bool { current == .symbol(s) }

    private mutating func accept(keyword k: String) -> Bool {
        if isKeyword(k) { advance(); return true }
        return false
    }

    private mutating func accept(symbol s: String) -> Bool {
        if isSymbol(s) { advance(); return true }
        return false
    }

    private func expected(_ what: String) -> StoreError {
        StoreError(.invalidQuery, "expected \(what) but found \(current.display)", context: source, position: offset)
    }

    private func fail(_ message: String, at p: Int? = nil) -> StoreError {
        StoreError(.invalidQuery, message, context: source, position: p ?? offset)
    }

    // MARK: Boolean structure

    private mutating func nested<T>(_ body: (inout Self) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Limits.maxPredicateDepth else { throw fail("predicate nests deeper than \(Limits.maxPredicateDepth) levels") }
        return try body(&self)
    }

    private mutating func parseOr() throws -> StorePredicate {
        var parts = [try parseAnd()]
        while accept(keyword: "OR") || accept(symbol: "||") { parts.append(try parseAnd()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws -> StorePredicate {
        var parts = [try parseNot()]
        while accept(keyword: "AND") || accept(symbol: "&&") { parts.append(try parseNot()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseNot() throws -> StorePredicate {
        if accept(keyword: "NOT") || accept(symbol: "!") {
            return .not(try nested { try $0.parseNot() })
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> StorePredicate {
        if accept(symbol: "(") {
            let p = try nested { try $0.parseOr() }
            guard accept(symbol: ")") else { throw expected("')'") }
            return p
        }
        if accept(keyword: "TRUEPREDICATE") { return .constant(true) }
        if accept(keyword: "FALSEPREDICATE") { return .constant(false) }
        return try parseCondition()
    }

    // MARK: Conditions

    private mutating func parseCondition() throws -> StorePredicate {
        var quantifier = Quantifier.single
        if accept(keyword: "ANY") || accept(keyword: "SOME") {
            quantifier = .any
        } else if accept(keyword: "NONE") {
            quantifier = .none
        } else if isKeyword("ALL") {
            throw fail("ALL is not supported; write NONE with the opposite comparison")
        }
        if quantifier == .single, let lhs = try parseLiteralIfPresent() {
            return try parseFlipped(literal: lhs)
        }
        let keyPath = try parseKeyPath()
        let opOffset = offset
        let op = try parseOperator()
        let options = try parseOptions()
        let comparison = try parseOperand(for: op, at: opOffset)
        return .condition(Condition(keyPath, comparison, options: options, quantifier: quantifier))
    }

    /// `5 < age` is read as `age > 5`.
    private mutating func parseFlipped(literal: Value) throws -> StorePredicate {
        let opOffset = offset
        let op = try parseOperator()
        let options = try parseOptions()
        let flipped: (Value) -> Comparison
        switch op {
        case "==": flipped = Comparison.equal
        case "!=": flipped = Comparison.notEqual
        case "<": flipped = Comparison.greater
        case "<=": flipped = Comparison.greaterOrEqual
        case ">": flipped = Comparison.less
        case ">=": flipped = Comparison.lessOrEqual
        case "IN":   // Core Data's `%@ IN tags`: some element of the collection equals the value
            return .condition(Condition(try parseKeyPath(), .equal(literal), options: options, quantifier: .any))
        default: throw fail("a literal on the left needs ==, !=, <, <=, >, >= or IN, not \(op)", at: opOffset)
        }
        let keyPath = try parseKeyPath()
        return .condition(Condition(keyPath, flipped(literal), options: options))
    }

    private mutating func parseKeyPath() throws -> KeyPathExpression {
        var parts: [String] = []
        if case .argument("K") = current {
            let at = offset
            advance()
            guard case .value(.string(let s))? = try nextArgument(at: at) else {
                throw fail("%K needs a string argument naming a key path", at: at)
            }
            let path = KeyPathExpression(s)
            guard path.components.allSatisfy({ !$0.isEmpty }) else { throw fail("malformed key path '\(s)' in %K", at: at) }
            if path.isCount { return path }
            parts = path.components
            guard accept(symbol: ".") else { return path }
        }
        while true {
            switch current {
            case .identifier(let s) where !Self.reserved.contains(s.uppercased()):
                parts.append(s)
            case .escapedIdentifier(let s):
                parts.append(s)
            case .aggregate(let a) where !parts.isEmpty:
                guard a.lowercased() == "count" else { throw fail("@\(a) is not supported; only @count is") }
                advance()
                return KeyPathExpression(parts, count: true)
            default:
                throw expected(parts.isEmpty ? "a key path, a literal or '('" : "a name after '.'")
            }
            advance()
            if let key = try parseSubscript() { parts.append(key) }
            guard accept(symbol: ".") else { return KeyPathExpression(parts) }
        }
    }

    /// A map's key in Realm's form, `prices['small']` (a string literal or `%@` between
    /// brackets), or `nil` when no `[` follows the name.
    private mutating func parseSubscript() throws -> String? {
        guard isSymbol("["), pos + 1 < tokens.count else { return nil }
        let at = tokens[pos + 1].1
        let key: String
        switch tokens[pos + 1].0 {
        case .string(let k): key = k
        case .argument("@"):
            guard case .value(.string(let k))? = try nextArgument(at: at) else { throw fail("a map key needs a string argument", at: at) }
            key = k
        default: return nil
        }
        advance()
        advance()
        guard accept(symbol: "]") else { throw expected("']' after the map key") }
        return key
    }

    private static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "NONE", "ALL", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "LIKE", "MATCHES", "TRUE", "FALSE", "YES", "NO", "NIL", "NULL", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    private mutating func parseOperator() throws -> String {
        if case .symbol(let s) = current {
            let normalized: String? = switch s {
            case "==", "=": "=="
            case "!=", "<>": "!="
            case "<": "<"
            case "<=", "=<": "<="
            case ">": ">"
            case ">=", "=>": ">="
            default: nil
            }
            if let n = normalized { advance(); return n }
        }
        for k in ["BETWEEN", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE"] where accept(keyword: k) { return k }
        if isKeyword("MATCHES") { throw fail("MATCHES (regular expressions) is not supported") }
        throw expected("a comparison operator (==, !=, <, <=, >, >=, BETWEEN, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE)")
    }

    private mutating func parseOptions() throws -> StringOptions {
        guard isSymbol("[") else { return [] }
        let at = offset
        advance()
        guard case .identifier(let flags) = current else { throw expected("string options c, d or cd") }
        var o: StringOptions = []
        for f in flags.lowercased() {
            switch f {
            case "c": o.insert(.caseInsensitive)
            case "d": o.insert(.diacriticInsensitive)
            default: throw fail("unknown string option '\(f)' (use c, d or cd)", at: at + 1)
            }
        }
        advance()
        guard accept(symbol: "]") else { throw expected("']'") }
        return o
    }

    private mutating func parseOperand(for op: String, at opOffset: Int) throws -> Comparison {
        switch op {
        case "BETWEEN":
            let list = try parseList()
            guard list.count == 2 else { throw fail("BETWEEN needs exactly two values, got \(list.count)", at: opOffset) }
            return .between(list[0], list[1])
        case "IN":
            return .in(try parseList())
        case "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE":
            let at = offset
            guard case .string(let s) = try parseLiteral() else { throw fail("\(op) needs a string operand", at: at) }
            switch op {
            case "CONTAINS": return .contains(s)
            case "BEGINSWITH": return .beginsWith(s)
            case "ENDSWITH": return .endsWith(s)
            default: return .like(s)
            }
        default:
            let v = try parseLiteral()
            switch op {
            case "==": return .equal(v)
            case "!=": return .notEqual(v)
            case "<": return .less(v)
            case "<=": return .lessOrEqual(v)
            case ">": return .greater(v)
            default: return .greaterOrEqual(v)
            }
        }
    }

    /// `{a, b, …}` or `%@` bound to a list argument.
    private mutating func parseList() throws -> [Value] {
        if case .argument("@") = current {
            let at = offset
            advance()
            switch try nextArgument(at: at) {
            case .list(let vs)?: return vs
            default: throw fail("this %@ needs a list argument", at: at)
            }
        }
        guard accept(symbol: "{") else { throw expected("'{' or %@") }
        var out: [Value] = []
        if accept(symbol: "}") { return out }
        repeat { out.append(try parseLiteral()) } while accept(symbol: ",")
        guard accept(symbol: "}") else { throw expected("',' or '}'") }
        return out
    }

    private mutating func parseLiteral() throws -> Value {
        guard let v = try parseLiteralIfPresent() else { throw expected("a value (string, number, TRUE, FALSE, NIL or %@)") }
        return v
    }

    private mutating func parseLiteralIfPresent() throws -> Value? {
        switch current {
        case .string(let s): advance(); return .string(s)
        case .integer(let v): advance(); return .int64(v)
        case .double(let v): advance(); return .double(v)
        case .argument("@"):
            let at = offset
            advance()
            switch try nextArgument(at: at) {
            case .value(let v)?: return v
            default: throw fail("this %@ needs a single value, not a list", at: at)
            }
        case .argument("d"), .argument("f"):
            return try parseNumberArgument()
        case .identifier(let s):
            switch s.uppercased() {
            case "TRUE", "YES": advance(); return .bool(true)
            case "FALSE", "NO": advance(); return .bool(false)
            case "NIL", "NULL": advance(); return .null
            default: return nil
            }
        default: return nil
        }
    }

    /// `%d` (and `%ld`, `%lld`…) takes an integer argument, `%f` a number.
    private mutating func parseNumberArgument() throws -> Value {
        let integer = current == .argument("d")
        let at = offset
        advance()
        let argument = try nextArgument(at: at)
        switch (integer, argument) {
        case (true, .value(.int64(let v))?): return .int64(v)
        case (false, .value(.double(let v))?): return .double(v)
        case (false, .value(.int64(let v))?): return .double(Double(v))
        default:
            let given = argument.map { a -> String in
                if case .value(let v) = a { return v.naturalType?.rawValue ?? "nil" } else { return "a list" }
            } ?? "nothing"
            throw fail("\(integer ? "%d" : "%f") needs \(integer ? "an integer" : "a number") argument, got \(given)", at: at)
        }
    }

    private mutating func nextArgument(at: Int) throws -> PredicateArgument? {
        guard argumentIndex < arguments.count else {
            throw fail("the format uses more arguments than the \(arguments.count) given", at: at)
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }
}

extension StorePredicate {
    /// The most AND, OR and NOT nodes on a path from the root: the parentheses and NOTs of its
    /// description, and what `Limits.maxPredicateDepth` limits.
    var nesting: Int {
        switch self {
        case .constant, .condition: 0
        case .and(let ps), .or(let ps): 1 + (ps.map(\.nesting).max() ?? 0)
        case .not(let p): 1 + p.nesting
        }
    }

    /// Parses an NSPredicate-style string, substituting `%@` and `%K` in order.
    ///
    /// Throws `invalidQuery` with `position` (offset in Unicode scalars) and what was expected.
    ///
    /// ```swift
    /// try StorePredicate(format: "ANY tags.name ==[c] %@ AND posts.@count >= 3", "swift")
    /// ```
    public init(format: String, _ arguments: PredicateArgument...) throws {
        try self.init(format: format, arguments: arguments)
    }

    public init(format: String, arguments: [PredicateArgument]) throws {
        var p = try PredicateParser(format, arguments: arguments)
        self = try p.parse()
    }
}
