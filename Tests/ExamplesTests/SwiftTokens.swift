import Foundation

/// Counts the tokens of Swift source the way Examples/Seeds/seed-tokens.json counted the seeds'
/// code: comments removed, a string literal as one token, then identifiers, numbers and each
/// other non-space character.
enum SwiftTokens {
    static func count(_ source: String) -> Int {
        var text = source
        for (pattern, replacement) in [(#"/\*[\s\S]*?\*/"#, ""), (#""(?:[^"\\\n]|\\.)*""#, "\"s\""), (#"//[^\n]*"#, "")] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        let token = try! NSRegularExpression(pattern: #"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|"s"|\S"#)
        return token.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }
}
