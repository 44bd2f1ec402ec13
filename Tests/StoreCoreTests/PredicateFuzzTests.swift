import StoreConformance
import StoreCore
import Testing

/// Feeds generated malformed and random predicate strings to the parser and the resolver:
/// each must yield a predicate or a typed error; none may crash.
@Suite("Predicate fuzz")
struct PredicateFuzzTests {
    static let fragments = [
        "age", "username", "author.username", "tags.name", "posts.@count", "ANY ", "NONE ", "SOME ", "ALL ", "NOT ", "!",
        " AND ", " OR ", " && ", " || ", "(", ")", "{", "}", ",", " == ", " = ", " != ", " <> ", " < ", " <= ", " > ", " >= ",
        " BETWEEN ", " IN ", " CONTAINS ", " BEGINSWITH ", " ENDSWITH ", " LIKE ", " MATCHES ", "[c]", "[d]", "[cd]", "[x]",
        "'abc'", "\"q\"", "'unterminated", "'\\n'", "'\\'", "3", "-7", "2.5", "1e9", "1e", "99999999999999999999", "TRUE", "NO",
        "nil", "NULL", "%@", "%K", "%", "@", "@sum", "#AND", "#", ".", "..", "TRUEPREDICATE", "é", "日本", "🎉", "\u{0}", "\t", " ",
    ]

    static let valid = [
        "age > 26 AND active == true", "ANY tags.name ==[c] 'swift'", "posts.@count >= 2 OR NOT (score < 3)",
        "title CONTAINS[cd] 'café' && author.username IN {'ann', 'bob'}", "age BETWEEN {1, 2}", "title LIKE 'a*b?'",
    ]

    /// A random well-formed predicate string.
    static func generate(_ rng: inout SplitMix64, depth: Int) -> String {
        if depth < 3 && rng.below(3) == 0 {
            let op = rng.pick([" AND ", " OR ", " && ", " || "])
            return "(" + generate(&rng, depth: depth + 1) + op + generate(&rng, depth: depth + 1) + ")"
        }
        if depth < 3 && rng.below(6) == 0 { return rng.pick(["NOT ", "!"]) + generate(&rng, depth: depth + 1) }
        let path = rng.pick(["age", "username", "author.username", "#AND", "posts.title"])
        let quant = path == "posts.title" ? rng.pick(["ANY ", "NONE ", "SOME "]) : ""
        let opts = rng.pick(["", "[c]", "[d]", "[cd]"])
        let literal = rng.pick(["3", "-2.5", "'x y'", "\"q\"", "TRUE", "nil", "'it\\'s'", "1e3"])
        switch rng.below(5) {
        case 0: return "\(quant)\(path) \(rng.pick(["==", "!=", "<", "<=", ">", ">=", "=", "<>", "=<", "=>"]))\(opts) \(literal)"
        case 1: return "\(quant)\(path) \(rng.pick(["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE"]))\(opts) 'a*?b'"
        case 2: return "\(quant)\(path) BETWEEN {\(literal), 4}"
        case 3: return "\(quant)\(path) IN {\(literal), 'z', 1}"
        default: return rng.pick(["posts.@count >= 2", "TRUEPREDICATE", "FALSEPREDICATE", "3 < age"])
        }
    }

    @Test("10,000 generated strings: a predicate or a typed error each, never a crash")
    func fuzz() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let schema = try Schema(version: 1, entities: [
            EntityDescription("User", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("age", .int64, optional: true), Attribute("username", .string),
                                           Attribute("score", .double), Attribute("active", .bool), Attribute("title", .string)],
                              relationships: [Relationship("posts", to: "User", inverse: "author", .toMany),
                                              Relationship("author", to: "User", inverse: "posts", .toOne),
                                              Relationship("tags", to: "User", inverse: "tagged", .toMany),
                                              Relationship("tagged", to: "User", inverse: "tags", .toMany)]),
        ])
        let user = schema["User"]!
        var parsed = 0, refused = 0, resolved = 0
        for i in 0..<10_000 {
            let text: String
            if i % 4 == 3 {
                // Generated from the grammar: must always parse, and print back to the same tree.
                let g = Self.generate(&rng, depth: 0)
                let p = try StorePredicate(format: g)
                #expect(try StorePredicate(format: p.description) == p, "\(g)")
                parsed += 1
                continue
            }
            switch i % 4 {
            case 0:   // token soup
                text = (0..<(1 + rng.below(12))).map { _ in rng.pick(Self.fragments) }.joined()
            case 1:   // a valid predicate, mutated
                var scalars = Array(rng.pick(Self.valid).unicodeScalars)
                for _ in 0..<(1 + rng.below(4)) {
                    let at = rng.below(scalars.count + 1)
                    switch rng.below(3) {
                    case 0 where at < scalars.count: scalars.remove(at: at)
                    case 1: scalars.insert(rng.pick(Array("()'\"{}[],.%@!=<>#\\ 0aZé".unicodeScalars)), at: at)
                    default: if at < scalars.count { scalars.swapAt(at, rng.below(scalars.count)) }
                    }
                }
                var s = String.UnicodeScalarView(); s.append(contentsOf: scalars); text = String(s)
            default:  // random scalars
                var s = String.UnicodeScalarView()
                for _ in 0..<rng.below(40) {
                    if let u = Unicode.Scalar(UInt32(rng.below(0x3000))) { s.append(u) }
                }
                text = String(s)
            }
            let args: [PredicateArgument] = (0..<rng.below(3)).map { _ in rng.pick(["age", 1, [1, 2], "x", nil]) }
            do {
                let p = try StorePredicate(format: text, arguments: args)
                parsed += 1
                _ = p.description
                do { _ = try schema.resolve(p, on: user); resolved += 1 } catch let e as StoreError {
                    #expect(e.category == .invalidQuery, "resolve \(text): \(e)")
                }
            } catch let e as StoreError {
                #expect(e.category == .invalidQuery, "\(text): \(e)")
                #expect(e.position != nil, "\(text): no position in \(e)")
                refused += 1
            }
        }
        #expect(parsed + refused == 10_000)
        #expect(parsed > 2_500 && refused > 1_000, "parsed \(parsed), refused \(refused): the generator should exercise both")
        print("fuzz: \(parsed) parsed (\(resolved) resolved), \(refused) refused")
    }
}
