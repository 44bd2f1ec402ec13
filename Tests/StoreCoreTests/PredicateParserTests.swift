import Foundation
import StoreCore
import Testing

@Suite("Predicate parser")
struct PredicateParserTests {
    func parse(_ s: String, _ args: PredicateArgument...) throws -> StorePredicate {
        try StorePredicate(format: s, arguments: args)
    }

    @Test("operators and literals give the expected trees")
    func trees() throws {
        let cases: [(String, StorePredicate)] = [
            ("age == 3", "age" == 3),
            ("age = 3", "age" == 3),
            ("age != 3", "age" != 3),
            ("age <> 3", "age" != 3),
            ("age < -3", "age" < -3),
            ("age <= 3.5", "age" <= 3.5),
            ("age =< 3", "age" <= 3),
            ("age > 1e3", "age" > 1000.0),
            ("age >= 0", "age" >= 0),
            ("age => 0", "age" >= 0),
            ("3 < age", "age" > 3),
            ("name == 'it\\'s'", "name" == "it's"),
            ("name == \"dq\"", "name" == "dq"),
            ("flag == YES", "flag" == true),
            ("flag == no", "flag" == false),
            ("x == nil", "x" == nil),
            ("x == NULL", "x" == nil),
            ("age BETWEEN {1, 2}", "age" ~= .between(1, 2)),
            ("age IN {1, 'a', nil}", "age" ~= .in([1, "a", nil])),
            ("name CONTAINS[cd] 'x'", "name" ~= .contains("x", [.caseInsensitive, .diacriticInsensitive])),
            ("name BEGINSWITH[dc] 'x'", "name" ~= .beginsWith("x", [.caseInsensitive, .diacriticInsensitive])),
            ("name endswith[c] 'x'", "name" ~= .endsWith("x", .caseInsensitive)),
            ("name LIKE[d] 'a*b?'", "name" ~= .like("a*b?", .diacriticInsensitive)),
            ("author.username == 'ann'", "author.username" == "ann"),
            ("ANY tags.name == 'swift'", .any("tags.name", .equal("swift"))),
            ("SOME tags.name == 'swift'", .any("tags.name", .equal("swift"))),
            ("NONE tags.name == 'swift'", .none("tags.name", .equal("swift"))),
            ("posts.@count >= 3", .condition(Condition(KeyPathExpression(["posts"], count: true), .greaterOrEqual(3)))),
            ("#AND == 1", .condition(Condition(KeyPathExpression(["AND"]), .equal(1)))),
            ("TRUEPREDICATE", .constant(true)),
            ("falsepredicate", .constant(false)),
        ]
        for (text, tree) in cases {
            #expect(try parse(text) == tree, "\(text)")
        }
    }

    @Test("AND binds tighter than OR; NOT tighter than both; parentheses group")
    func precedence() throws {
        let a: StorePredicate = "a" == 1, b: StorePredicate = "b" == 2, c: StorePredicate = "c" == 3
        #expect(try parse("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try parse("(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try parse("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try parse("!(a == 1 || b == 2) && c == 3") == .and([.not(.or([a, b])), c]))
        #expect(try parse("a == 1 and b == 2 or c == 3") == .or([.and([a, b]), c]))
    }

    @Test("arguments: %@ values and lists, %K key paths")
    func arguments() throws {
        #expect(try parse("%K == %@", "name", "ann") == ("name" == "ann"))
        #expect(try parse("age IN %@", [1, 2]) == ("age" ~= .in([1, 2])))
        #expect(try parse("age BETWEEN %@", [1, 2]) == ("age" ~= .between(1, 2)))
        let d = Date(timeIntervalSince1970: 5)
        #expect(try parse("at > %@", .date(d)) == ("at" > .date(d)))
        #expect(try parse("%K.@count == 0", "posts") == .condition(Condition(KeyPathExpression(["posts"], count: true), .equal(0))))
    }

    @Test("printf-style arguments: %d and its long forms take integers, %f numbers")
    func printfArguments() throws {
        for spec in ["%d", "%i", "%ld", "%lld", "%u", "%lu", "%llu"] {
            #expect(try parse("age >= \(spec)", 18) == ("age" >= 18), "\(spec)")
        }
        for spec in ["%f", "%lf", "%g", "%e"] {
            #expect(try parse("score < \(spec)", 2.5) == ("score" < 2.5), "\(spec)")
        }
        #expect(try parse("score < %f", 2) == ("score" < 2.0))            // an integer widens
        #expect(try parse("%@ IN tags", "swift") == .condition(Condition("tags", .equal("swift"), quantifier: .any)))
        #expect(try parse("age BETWEEN {%d, %lld}", 1, 9) == ("age" ~= .between(1, 9)))
        #expect(try parse("%K == %d AND name == %@", "age", 3, "ann") == ("age" == 3 && "name" == "ann"))
        let wrong: [(String, PredicateArgument, Int, String)] = [
            ("age == %d", "three", 7, "%d needs an integer argument, got string"),
            ("age == %lld", 2.5, 7, "%d needs an integer argument, got double"),
            ("age == %f", "x", 7, "%f needs a number argument, got string"),
            ("age == %d", [1, 2], 7, "got a list"),
            ("age == %x", 1, 7, "expected a format specifier after '%'"),
        ]
        for (text, argument, position, fragment) in wrong {
            let e = try #require(throws: StoreError.self) { try parse(text, argument) }
            #expect(e.category == .invalidQuery && e.position == position, "\(text): \(e)")
            #expect(e.message.contains(fragment), "\(text): \(e.message)")
        }
    }

    @Test("arguments held in variables: one factory per value type")
    func variableArguments() throws {
        let name = "ann", minimum = 18, score = 2.5, flag = true, blob: [UInt8] = [1, 2]
        #expect(try parse("username == %@ AND age >= %@", .string(name), .int(minimum)) == ("username" == "ann" && "age" >= 18))
        #expect(try parse("score < %@", .double(score)) == ("score" < 2.5))
        #expect(try parse("active == %@", .bool(flag)) == ("active" == true))
        #expect(try parse("avatar == %@", .bytes(blob)) == ("avatar" == .bytes([1, 2])))
        #expect(try parse("id == %@", .int64(7)) == ("id" == 7))
        #expect(try parse("id IN %@", .list([1, 2].map(Value.int64))) == ("id" ~= .in([1, 2])))
    }

    @Test("errors give the offset and what was expected")
    func errors() {
        let cases: [(String, Int, String)] = [
            ("age >", 5, "expected a value"),
            ("age > > 3", 6, "expected a value"),
            ("(age > 3", 8, "expected ')'"),
            ("age > 3)", 7, "expected AND, OR"),
            ("age ! 3", 4, "expected a comparison operator"),
            ("age > 'x", 6, "unterminated string"),
            ("", 0, "expected a key path"),
            ("age == 3 AND", 12, "expected a key path"),
            ("title CONTAINS[x] 'a'", 15, "unknown string option"),
            ("title CONTAINS 3", 15, "needs a string"),
            ("age BETWEEN {1}", 4, "exactly two values"),
            ("age == 99999999999999999999", 7, "64-bit range"),
            ("age == 3 ^ 4", 9, "unexpected character"),
            ("ALL tags.name == 'x'", 0, "ALL is not supported"),
            ("name MATCHES 'x'", 5, "MATCHES"),
            ("posts.@sum > 1", 6, "@sum is not supported"),
            ("age > %@", 6, "more arguments"),
            ("name == '\\q'", 9, "unknown escape"),
            ("age == 1 AND %K == 2", 13, "%K needs a string"),
        ]
        for (text, position, fragment) in cases {
            do {
                _ = try (text == "age == 1 AND %K == 2" ? parse(text, 5) : parse(text))
                Issue.record("\(text) parsed")
            } catch let e as StoreError {
                #expect(e.category == .invalidQuery, "\(text)")
                #expect(e.position == position, "\(text): \(e.message)")
                #expect(e.message.contains(fragment), "\(text): \(e.message)")
            } catch { Issue.record("\(error)") }
        }
    }

    @Test("nesting is bounded: deep input is an error, not a stack overflow")
    func deepNesting() {
        for text in [String(repeating: "(", count: 100_000) + "a == 1", String(repeating: "NOT ", count: 100_000) + "a == 1",
                     String(repeating: "!", count: 100_000) + "a == 1"] {
            #expect(throws: StoreError.self) { try StorePredicate(format: text) }
        }
        let ok = String(repeating: "(", count: 60) + "a == 1" + String(repeating: ")", count: 60)
        #expect((try? StorePredicate(format: ok)) != nil)
    }

    @Test("printing a predicate and parsing it gives the same tree")
    func roundTrip() throws {
        let trees: [StorePredicate] = [
            "age" > 3 && ("name" ~= .contains("it's \\ \"q\"\n", .caseInsensitive)),
            .or([.not("a" == nil), "b" ~= .in([1, 2.5, "x", true, nil]), .constant(false)]),
            .any("tags.name", .like("*sw?ft*"), [.caseInsensitive, .diacriticInsensitive]),
            .none("posts.author.AND", .between(-1, 1e20)),
            .condition(Condition(KeyPathExpression(["posts"], count: true), .notEqual(0))),
        ]
        for t in trees {
            #expect(try StorePredicate(format: t.description) == t, "\(t)")
        }
    }

    /// Found by the fuzz target (Tests/Fuzz/predicate/regressions): AND inside OR needs no
    /// parentheses, so a text within the limit gave a tree whose description was over it.
    @Test("the nesting limit is on the tree, so every parsed predicate prints back to itself")
    func nestingLimitIsOnTheTree() throws {
        func chain(_ n: Int, _ inner: String) -> String {
            String(repeating: "a == 1 AND (", count: n) + inner + String(repeating: ")", count: n)
        }
        // 63 parentheses, 65 levels of AND and OR (64 with the innermost OR alone).
        let over = chain(63, "a == 2 AND b == 3 OR c == 4"), within = chain(63, "b == 3 OR c == 4")
        let e = try #require(throws: StoreError.self) { try StorePredicate(format: over) }
        #expect(e.category == .invalidQuery && e.message.contains("deeper than 64 levels"), "\(e)")
        let p = try StorePredicate(format: within)
        #expect(try StorePredicate(format: p.description) == p)
    }
}
