import Foundation

/// Unicode case and diacritic folding: the one definition of `[c]` and `[d]` that every
/// backend uses, so `"Café" CONTAINS[cd] "CAFE"` and `"ÉCOLE" BEGINSWITH[c] "éc"` hold everywhere.
///
/// `[c]` is full Unicode case folding (`"Straße"` matches `"STRASSE"`); `[d]` removes combining
/// marks after canonical decomposition (`"é"` matches `"e"`). All text is compared in NFC
/// otherwise, by Unicode scalar order.
///
/// Thread-safe (pure functions).
public enum TextFolding {
    /// The folded form of `text` under `options`; the text itself when options are empty.
    public static func fold(_ text: String, _ options: StringOptions) -> String {
        if options.isEmpty { return text }
        if isASCII(text) {
            // ASCII has no diacritics; only case matters.
            return options.contains(.caseInsensitive) ? asciiLowercased(text) : text
        }
        var o: String.CompareOptions = []
        if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
        // Foundation folds; precompose again so equal strings have equal scalars.
        return text.folding(options: o, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// Whether `text` contains `needle` (already folded with the same options).
    public static func contains(_ text: String, foldedNeedle needle: String, _ options: StringOptions) -> Bool {
        if needle.isEmpty { return true }
        return bytesContain(fold(text, options), needle)
    }

    public static func hasPrefix(_ text: String, foldedNeedle needle: String, _ options: StringOptions) -> Bool {
        fold(text, options).utf8.starts(with: needle.utf8)
    }

    public static func hasSuffix(_ text: String, foldedNeedle needle: String, _ options: StringOptions) -> Bool {
        fold(text, options).utf8.reversed().starts(with: needle.utf8.reversed())
    }

    /// NSPredicate `LIKE`: `?` matches exactly one character (Unicode scalar after folding),
    /// `*` any run of them; every other character matches itself. `pattern` is folded already.
    public static func like(_ text: String, foldedPattern pattern: String, _ options: StringOptions) -> Bool {
        wildcardMatch(Array(fold(text, options).unicodeScalars), Array(pattern.unicodeScalars), any: "*", one: "?")
    }

    /// `LIKE` over any elements: `any` matches a run of elements, `one` exactly one, every other
    /// element itself. Iterative, backtracking to the last `any`: O(n·m) at worst.
    public static func wildcardMatch<T: Equatable>(_ t: [T], _ p: [T], any: T, one: T) -> Bool {
        var ti = 0, pi = 0, starP = -1, starT = 0
        while ti < t.count {
            if pi < p.count, p[pi] == one || (p[pi] != any && p[pi] == t[ti]) {
                ti += 1; pi += 1
            } else if pi < p.count, p[pi] == any {
                starP = pi; starT = ti; pi += 1
            } else if starP >= 0 {
                pi = starP + 1; starT += 1; ti = starT
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == any { pi += 1 }
        return pi == p.count
    }

    // MARK: - Internal helpers

    @inline(__always)
    static func isASCII(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { buf in buf.allSatisfy { $0 < 0x80 } }
    }

    static func asciiLowercased(_ s: String) -> String {
        var s = s
        return s.withUTF8 { buf in
            if !buf.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return String(decoding: buf, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: buf.count) { out in
                for (i, b) in buf.enumerated() { out[i] = (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }
                return buf.count
            }
        }
    }

    /// Whether `hay`'s UTF-8 contains `needle`'s (Unicode scalar semantics), reading both in
    /// place.
    static func bytesContain(_ hay: String, _ needle: String) -> Bool {
        var hay = hay, needle = needle
        return hay.withUTF8 { h in
            needle.withUTF8 { n in
                guard n.count <= h.count else { return false }
                guard let first = n.first else { return true }
                var i = 0
                while i <= h.count - n.count {
                    if h[i] == first {
                        var j = 1
                        while j < n.count && h[i + j] == n[j] { j += 1 }
                        if j == n.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
