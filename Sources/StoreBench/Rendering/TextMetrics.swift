import Foundation

/// How much room a chart's text takes, estimated without a font: every character is 0.6 em wide
/// (wide for a proportional sans-serif, so the estimate errs on the roomy side), and a line of
/// text stands from 0.8 em above its baseline to 0.2 em below. The charts lay out with this, and
/// the tests check that no two labels' boxes overlap with the same estimate.
enum TextMetrics {
    /// Width of one character, in ems.
    static let characterWidth = 0.6
    /// Height of a box above the baseline and below it, in ems.
    static let ascent = 0.8
    static let descent = 0.2

    /// The estimated width of `text` at `size` pixels.
    static func width(_ text: String, size: Double) -> Double {
        Double(text.count) * characterWidth * size
    }

    /// `text` broken at spaces into lines no wider than `width` (a single word wider than that
    /// stays whole on its line).
    static func wrap(_ text: String, size: Double, width: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || Self.width(candidate, size: size) <= width {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
