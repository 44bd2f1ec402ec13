import Foundation
import StoreConformance

/// Words and texts for generated records: ASCII syllables, with a share of accented Latin and
/// Japanese words so that case- and diacritic-insensitive queries have work to do.
package enum TextMaker {
    package static let syllables = ["ka", "to", "mi", "ra", "no", "se", "lu", "an", "ri", "ko", "be", "da", "yu", "shi", "ne", "po", "ta", "el", "mo", "su"]
    package static let nonASCII = ["café", "naïve", "Ångström", "Zürich", "São", "résumé", "東京", "ユーザー", "投稿", "コメント", "さくら", "データ", "Straße", "señor"]

    /// An ASCII word of two to four syllables.
    package static func word(_ r: inout SplitMix64) -> String {
        var w = ""
        for _ in 0..<(2 + r.below(3)) { w += r.pick(syllables) }
        return w
    }

    /// Words separated by spaces, `range[0]…range[1]` characters long.
    package static func text(_ r: inout SplitMix64, _ range: [Int], nonASCII share: Double) -> String {
        let target = range[0] + r.below(range[1] - range[0] + 1)
        var s = ""
        var count = 0
        while count < target {
            if count > 0 { s += " "; count += 1 }
            let w = r.chance(share) ? r.pick(nonASCII) : word(&r)
            s += w
            count += w.count
        }
        if count > target, let cut = s.index(s.startIndex, offsetBy: max(target, 1), limitedBy: s.endIndex) {
            s = String(s[..<cut]).trimmingCharacters(in: .whitespaces)
        }
        return s.isEmpty ? "x" : s
    }
}
