/// Tokens of the predicate-string syntax. Internal to `PredicateParser`.
enum PredicateToken: Equatable {
    case identifier(String)          // also keywords; matched case-insensitively by the parser
    case escapedIdentifier(String)   // #name: never a keyword
    case string(String)
    case integer(Int64)
    case double(Double)
    case symbol(String)              // == != < <= > >= = <> => =< && || ! ( ) { } , . [ ]
    case aggregate(String)           // @count
    case argument(Character)         // %@, %K, %d (also %i %ld %lld %u %lu %llu), %f (also %lf %g %e)
    case end

    var display: String {
        switch self {
        case .identifier(let s): "'\(s)'"
        case .escapedIdentifier(let s): "'#\(s)'"
        case .string: "a string"
        case .integer(let v): "\(v)"
        case .double(let v): "\(v)"
        case .symbol(let s): "'\(s)'"
        case .aggregate(let s): "'@\(s)'"
        case .argument(let c): "'%\(c)'"
        case .end: "the end of the string"
        }
    }
}

/// Splits a predicate string into tokens with their offsets (in Unicode scalars).
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var i = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func tokenize() throws -> [(PredicateToken, Int)] {
        var out: [(PredicateToken, Int)] = []
        while true {
            skipSpace()
            let start = i
            let t = try next()
            out.append((t, start))
            if t == .end { return out }
        }
    }

    private mutating func skipSpace() {
        while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 }
    }

    private func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < scalars.count ? scalars[i + k] : nil }

    private func fail(_ msg: String, at p: Int) -> StoreError { StoreError(.invalidQuery, msg, position: p) }

    private mutating func next() throws -> PredicateToken {
        guard let c = peek() else { return .end }
        let start = i
        if isIdentStart(c) { return .identifier(identifier()) }
        if c == "#" {
            i += 1
            guard let n = peek(), isIdentStart(n) else { throw fail("expected a name after '#'", at: i) }
            return .escapedIdentifier(identifier())
        }
        if c == "'" || c == "\"" { return .string(try stringLiteral(quote: c)) }
        if isDigit(c) || (c == "-" && peek(1).map(isDigit) == true) || (c == "." && peek(1).map(isDigit) == true) {
            return try number()
        }
        if c == "@" {
            i += 1
            guard let n = peek(), isIdentStart(n) else { throw fail("expected an aggregate name after '@'", at: i) }
            return .aggregate(identifier())
        }
        if c == "%" { return try formatArgument(at: start) }
        let two = peek(1).map { String(c) + String($0) } ?? ""
        if ["==", "!=", "<=", ">=", "=<", "=>", "<>", "&&", "||"].contains(two) {
            i += 2
            return .symbol(two)
        }
        if "=<>!(){},.[]".unicodeScalars.contains(c) {
            i += 1
            return .symbol(String(c))
        }
        throw fail("unexpected character '\(c.escaped(asASCII: true))'", at: start)
    }

    private func isIdentStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c == "$" || c.properties.isAlphabetic }
    private func isIdentPart(_ c: Unicode.Scalar) -> Bool { isIdentStart(c) || isDigit(c) }
    private func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    private mutating func identifier() -> String {
        var s = String.UnicodeScalarView()
        while let c = peek(), isIdentPart(c) { s.append(c); i += 1 }
        return String(s)
    }

    private mutating func stringLiteral(quote: Unicode.Scalar) throws -> String {
        let start = i
        i += 1
        var s = String.UnicodeScalarView()
        while true {
            guard let c = peek() else { throw fail("unterminated string literal", at: start) }
            i += 1
            if c == quote { return String(s) }
            if c == "\\" {
                guard let e = peek() else { throw fail("unterminated string literal", at: start) }
                i += 1
                switch e {
                case "n": s.append("\n")
                case "t": s.append("\t")
                case "r": s.append("\r")
                case "0": s.append("\0")
                case "\\", "'", "\"": s.append(e)
                default: throw fail("unknown escape '\\\(e.escaped(asASCII: true))'", at: i - 2)
                }
            } else {
                s.append(c)
            }
        }
    }

    private mutating func number() throws -> PredicateToken {
        let start = i
        var text = ""
        if peek() == "-" { text.append("-"); i += 1 }
        var isDouble = false
        while let c = peek(), isDigit(c) { text.unicodeScalars.append(c); i += 1 }
        if peek() == ".", let n = peek(1), isDigit(n) {
            isDouble = true
            text.append("."); i += 1
            while let c = peek(), isDigit(c) { text.unicodeScalars.append(c); i += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var k = 1
            if let sgn = peek(1), sgn == "+" || sgn == "-" { k = 2 }
            if let d = peek(k), isDigit(d) {
                isDouble = true
                for _ in 0..<k { text.unicodeScalars.append(peek()!); i += 1 }
                while let c = peek(), isDigit(c) { text.unicodeScalars.append(c); i += 1 }
            }
        }
        if let c = peek(), isIdentStart(c) { throw fail("malformed number", at: start) }
        if isDouble {
            guard let d = Double(text), d.isFinite else { throw fail("number \(text) is out of range", at: start) }
            return .double(d)
        }
        guard let v = Int64(text) else { throw fail("integer \(text) is out of the 64-bit range", at: start) }
        return .integer(v)
    }
}

extension PredicateLexer {
    /// The printf-style specifiers NSPredicate takes, by the argument kind they need: `@` a
    /// value or list, `K` a key path, `d` an integer, `f` a number.
    static let formatSpecifiers: [(String, Character)] = [
        ("@", "@"), ("K", "K"), ("lld", "d"), ("llu", "d"), ("ld", "d"), ("lu", "d"), ("d", "d"), ("i", "d"), ("u", "d"),
        ("lf", "f"), ("f", "f"), ("g", "f"), ("e", "f"),
    ]

    /// `%` and a specifier, as one `.argument` token.
    mutating func formatArgument(at start: Int) throws -> PredicateToken {
        for (spelling, kind) in Self.formatSpecifiers where matches(spelling, after: 1) {
            i += 1 + spelling.unicodeScalars.count
            return .argument(kind)
        }
        throw fail("expected a format specifier after '%': %@, %K, %d, %ld, %lld, %f", at: start)
    }

    private func matches(_ text: String, after offset: Int) -> Bool {
        for (k, c) in text.unicodeScalars.enumerated() where peek(offset + k) != c { return false }
        return true
    }
}
