import StoreCore
import Testing

@Suite("Text folding")
struct TextFoldingTests {
    let cd: StringOptions = [.caseInsensitive, .diacriticInsensitive]

    @Test("case and diacritic folding")
    func folding() {
        #expect(TextFolding.fold("Café", cd) == "cafe")
        #expect(TextFolding.fold("Café", .caseInsensitive) == "café")
        #expect(TextFolding.fold("Café", .diacriticInsensitive) == "Cafe")
        #expect(TextFolding.fold("ÉCOLE", .caseInsensitive) == "école")
        #expect(TextFolding.fold("Straße", .caseInsensitive) == "strasse")
        #expect(TextFolding.fold("e\u{301}", .caseInsensitive) == "é", "folded text is precomposed")
        #expect(TextFolding.fold("ABC xyz", .caseInsensitive) == "abc xyz")
        #expect(TextFolding.fold("Mixed", []) == "Mixed")
    }

    @Test("the ASCII fast path agrees with full folding")
    func asciiFastPath() {
        let samples = ["", "A", "Hello World", "MiXeD-123_!@#", "ZzYy", String((32..<127).map { Character(Unicode.Scalar($0)!) })]
        for s in samples {
            #expect(TextFolding.fold(s, .caseInsensitive) == s.folding(options: .caseInsensitive, locale: nil), "\(s)")
        }
    }

    @Test("the design's examples")
    func examples() {
        #expect(TextFolding.contains("Café", foldedNeedle: TextFolding.fold("cafe", cd), cd))
        #expect(TextFolding.contains("café", foldedNeedle: TextFolding.fold("CAFE", cd), cd))
        #expect(TextFolding.hasPrefix("ÉCOLE", foldedNeedle: TextFolding.fold("éc", .caseInsensitive), .caseInsensitive))
        #expect(!TextFolding.hasPrefix("ÉCOLE", foldedNeedle: "éc", []))
        #expect(TextFolding.hasSuffix("naïve résumé", foldedNeedle: "resume", cd))
    }

    @Test("LIKE: ? is one character, * any run, nothing else is special")
    func like() {
        let t: [(String, String, StringOptions, Bool)] = [
            ("Café au lait", "Caf? au*", [], true), ("abc", "a*c", [], true), ("abc", "a*", [], true), ("abc", "*", [], true),
            ("", "*", [], true), ("", "?", [], false), ("abc", "a?", [], false), ("abc", "??c", [], true), ("a%c", "a%c", [], true),
            ("abc", "a%", [], false), ("aXbXc", "a*b*c", [], true), ("ab", "a*b*c", [], false), ("naïve", "naive", cd, true),
            ("NAÏVE", "na?ve", .caseInsensitive, true), ("mississippi", "*iss*ppi", [], true), ("mississippi", "m*iss*x", [], false),
        ]
        for (text, pattern, o, expected) in t {
            #expect(TextFolding.like(text, foldedPattern: TextFolding.fold(pattern, o), o) == expected, "\(text) LIKE \(pattern)")
        }
    }
}
