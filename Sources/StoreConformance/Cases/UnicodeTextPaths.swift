import Foundation
import StoreCore

/// Non-ASCII text through every text path: each comparison and string operator with each
/// option, and sorts with each option, over names in several scripts (canonically
/// equivalent spellings, case pairs that fold to several scalars, astral scalars, combining
/// marks), compared with the reference evaluator (`QueryEvaluator`).
enum UnicodeTextPaths {
    static let names: [String] = [
        "\u{3A9}\u{3BC}\u{3AD}\u{3B3}\u{3B1}", "\u{3C9}\u{3BC}\u{3AD}\u{3B3}\u{3B1}", "\u{416}\u{443}\u{43A}", "\u{436}\u{443}\u{43A}",
        "\u{6771}\u{4EAC}", "\u{6771}", "\u{130}stanbul", "istanbul", "\u{1C5}emal", "stra\u{DF}e", "STRASSE", "\u{C5}ngstr\u{F6}m",
        "\u{212B}ngstro\u{308}m", "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{FF21}\u{FF22}\u{FF23}", "abc", "\u{E9}t\u{E9}", "e\u{301}te\u{301}",
        "\u{10400}\u{10428}", "\u{10428}", "na\u{EF}ve", "NA\u{CF}VE", "\u{5D0}\u{5D1}", "",
    ]

    static let options: [StringOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]

    static func run(_ ctx: ConformanceContext) throws {
        try ctx.write { tx in
            for (i, n) in names.enumerated() { try tx.insert(try CaseSupport.user(ctx, i + 1, ["displayName": .string(n)])) }
        }
        let reference = QueryEvaluator()
        var checked = 0
        for needle in names + ["\u{3C9}", "stra", "\u{1F469}", "*\u{301}*", "?t?", "\u{416}*"] {
            for o in options {
                for c in comparisons(needle) {
                    let q = Query("User", where: .condition(Condition("displayName", c, options: o)))
                    try expectReference(ctx, q, reference, "displayName \(c.symbol)\(o.suffix) \(CaseSupport.scalars(.string(needle)) ?? [])")
                    checked += 1
                }
            }
        }
        for o in options {
            for ascending in [true, false] {
                let q = Query("User", sort: [SortKey("displayName", ascending: ascending, options: o), .asc("id")])
                try expectReference(ctx, q, reference, "users by displayName\(o.suffix) \(ascending ? "ascending" : "descending")")
            }
        }
        try ctx.expect(checked > 1_000, "only \(checked) queries were compared")
    }

    private static func comparisons(_ s: String) -> [Comparison] {
        let v = Value.string(s)
        return [.equal(v), .notEqual(v), .less(v), .greaterOrEqual(v), .between(v, "\u{10FFFF}"), .beginsWith(s), .endsWith(s), .contains(s), .like(s), .in([v, "abc"])]
    }

    private static func expectReference(_ ctx: ConformanceContext, _ q: Query, _ reference: QueryEvaluator, _ what: String) throws {
        let (got, expected) = try ctx.read { tx in (try tx.fetch(q).map(\.id), try reference.fetch(q, from: tx).map(\.id)) }
        try ctx.expectEqual(got, expected, what)
    }
}
