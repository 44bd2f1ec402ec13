import Foundation
import StoreBenchKit

/// One Mermaid `xychart-beta` block: an init line that fixes the palette (one colour per series,
/// in series order) and dark-on-white text, a title, a categorical x-axis, a y-axis from 0, and
/// bar or line series.
///
/// Mermaid draws every bar series at the same x positions, one over the other, in one colour per
/// series; so a bar chart gives each backend its own series, with its value at its own x
/// position and no bar elsewhere, and each bar takes its backend's colour. Mermaid has no gaps
/// in a series, and draws a bar of 0 as a thin strip (bars rise from the plot's bottom edge, a
/// little below the 0 tick); a value below the axis, −top, draws nothing, so "no bar" is that.
struct MermaidXYChart {
    enum Kind: String { case bar, line }

    struct Series {
        let kind: Kind
        /// nil: no bar at that position (bars only; a line needs every value).
        let values: [Double?]
        let color: ChartColor
    }

    var title: String
    var xTitle: String?
    var xLabels: [String]
    var yTitle: String
    /// The y-axis runs from 0 to this.
    var yTop: Double
    var series: [Series] = []
    /// Pixels; `render` widens the chart so that x labels do not run into each other.
    var width = 860
    var height = 440

    /// The Markdown fenced block.
    func render() -> String {
        let palette = series.map(\.color.hex).joined(separator: ", ")
        let theme = [
            "plotColorPalette": palette, "backgroundColor": ChartPalette.background, "titleColor": ChartPalette.ink,
            "xAxisLabelColor": ChartPalette.ink, "xAxisTitleColor": ChartPalette.ink,
            "xAxisTickColor": ChartPalette.axis, "xAxisLineColor": ChartPalette.axis,
            "yAxisLabelColor": ChartPalette.ink, "yAxisTitleColor": ChartPalette.ink,
            "yAxisTickColor": ChartPalette.axis, "yAxisLineColor": ChartPalette.axis,
        ]
        let themeJSON = theme.keys.sorted().map { "\"\($0)\": \"\(theme[$0]!)\"" }.joined(separator: ", ")
        // About 7.5 px a character at Mermaid's 14 px labels, and some room between labels.
        let longest = xLabels.map(\.count).max() ?? 0
        let width = max(self.width, 110 + xLabels.count * Int((Double(longest) * 7.5 + 16).rounded(.up)))
        var md = "```mermaid\n"
        md += "%%{init: {\"xyChart\": {\"width\": \(width), \"height\": \(height)}, \"themeVariables\": {\"xyChart\": {\(themeJSON)}}}}%%\n"
        md += "xychart-beta\n"
        md += "    title \(Self.quoted(title))\n"
        md += "    x-axis " + (xTitle.map { Self.quoted($0) + " " } ?? "") + "[" + xLabels.map(Self.quoted).joined(separator: ", ") + "]\n"
        md += "    y-axis \(Self.quoted(yTitle)) 0 --> \(Self.number(yTop))\n"
        if series.contains(where: { $0.kind == .bar && $0.values.contains(nil) }) {
            md += "    %% one bar series per colour; \(Self.number(-yTop)) (below the axis) draws no bar\n"
        }
        for s in series {
            md += "    \(s.kind.rawValue) [" + s.values.map { $0.map { Self.number(min(max($0, 0), yTop)) } ?? Self.number(-yTop) }
                .joined(separator: ", ") + "]\n"
        }
        return md + "```\n"
    }

    /// A Mermaid string: double quotes cannot be escaped, so they become single ones.
    static func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "'") + "\"" }

    /// A plain decimal with four significant digits (Mermaid's grammar takes no exponents).
    static func number(_ x: Double) -> String {
        guard x.isFinite, x != 0 else { return "0" }
        if x < 0 { return "-" + number(-x) }
        let digits = max(0, 3 - Int(floor(log10(abs(x)))))
        var s = String(format: "%.\(min(digits, 8))f", x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}

/// The y-axis of a chart: from 0 to a round top, so bar heights and line heights are
/// proportional to the values. One series far above the rest would squeeze them into the
/// bottom of the chart; the rule: a series whose largest value exceeds 4× the median of the
/// other series' largest values is *clamped* (when at most a third of the series are such,
/// else none is): the axis then ends at a round number about 1.5×
/// the largest value of the series not clamped, and a clamped series is drawn at the top edge
/// where it exceeds it (the legend says so, and the table under the chart has its values).
struct ChartAxis {
    /// The y-axis's top.
    let top: Double
    /// Indexes (into the maxima given) of the series drawn clamped.
    let clamped: Set<Int>

    static let outlierFactor = 4.0

    init(seriesMaxima: [Double]) {
        let maxima = seriesMaxima.map { $0.isFinite ? max($0, 0) : 0 }
        var clamped: Set<Int> = []
        if maxima.count >= 2 {
            for (i, m) in maxima.enumerated() {
                let others = maxima.enumerated().filter { $0.offset != i }.map(\.element).sorted()
                let mid = others.count % 2 == 1 ? others[others.count / 2] : (others[others.count / 2 - 1] + others[others.count / 2]) / 2
                if mid > 0, m > Self.outlierFactor * mid { clamped.insert(i) }
            }
            // Clamp at most a third of the series: beyond that, the far ones are a group, not outliers.
            if clamped.count * 3 > maxima.count { clamped = [] }
        }
        let kept = maxima.enumerated().filter { !clamped.contains($0.offset) }.map(\.element).max() ?? 0
        var top = Self.roundUp(clamped.isEmpty ? kept * 1.1 : kept * 1.5)
        // A far series that fits under that top after all is not cut.
        clamped = clamped.filter { maxima[$0] > top }
        if clamped.isEmpty { top = Self.roundUp((maxima.max() ?? 0) * 1.1) }
        self.clamped = clamped
        self.top = top
    }

    /// The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (times a power of ten) at or above `x`.
    static func roundUp(_ x: Double) -> Double {
        guard x.isFinite, x > 0 else { return 1 }
        let decade = pow(10, floor(log10(x)))
        for step in [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] where step * decade >= x * (1 - 1e-12) {
            return step * decade
        }
        return 10 * decade
    }
}

/// A categorical x-axis on which data sizes sit at logarithmic distances: slots evenly spaced in
/// log(size) from the smallest to the largest, each labelled with the size it stands for; a
/// measured size takes the slot nearest it (within a tenth of a slot where the sizes allow) and
/// its label names the scale, `quick (21k)` (the axis title names the unit). Line values between
/// measured sizes are interpolated linearly in log(size), which draws the same straight segment
/// a log-scaled axis would.
struct LogSizeAxis {
    /// One label per slot.
    let labels: [String]
    /// The slot of each measured size, in the order given (sizes ascending).
    let slots: [Int]

    /// `sizes` ascending and distinct, `names` one per size. Nil when the sizes are not
    /// strictly increasing (a log axis cannot show them).
    init?(sizes: [Double], names: [String]) {
        guard sizes.count >= 2, sizes.count == names.count, sizes.allSatisfy({ $0 > 0 }),
              zip(sizes, sizes.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        let logs = sizes.map(log10)
        let span = logs.last! - logs.first!
        // The fewest slots (at most one per half decade ideally, 16 at most) that land every size within a tenth of a slot.
        func fit(_ n: Int) -> (slots: [Int], error: Double) {
            let step = span / Double(n)
            let exact = logs.map { ($0 - logs.first!) / step }
            let rounded = exact.map { Int($0.rounded()) }
            return (rounded, zip(exact, rounded).map { abs($0 - Double($1)) }.max() ?? 0)
        }
        let minimum = max(sizes.count - 1, Int((span / 0.5 - 1e-9).rounded(.up)))
        let candidates = (max(1, minimum)...max(16, minimum)).map { ($0, fit($0)) }
        let chosen = candidates.first { $0.1.error <= 0.1 && Set($0.1.slots).count == sizes.count }
            ?? candidates.filter { Set($0.1.slots).count == sizes.count }.min { $0.1.error < $1.1.error }!
        let n = chosen.0
        slots = chosen.1.slots
        var labels = (0...n).map { k in Self.compact(pow(10, logs.first! + span * Double(k) / Double(n))) }
        for (i, slot) in slots.enumerated() { labels[slot] = "\(names[i]) (\(Self.compact(sizes[i])))" }
        // Labels must differ (Mermaid keys categories by label): add digits until they do.
        if Set(labels).count != labels.count {
            labels = labels.enumerated().map { $0.element + String(repeating: " ", count: $0.offset) }
        }
        self.labels = labels
    }

    /// Values per slot: the measured ones at their slots, linear in slot position between them.
    func interpolate(_ values: [Double]) -> [Double] {
        precondition(values.count == slots.count)
        var out = [Double](repeating: 0, count: labels.count)
        for (i, (a, b)) in zip(slots, slots.dropFirst()).enumerated() {
            for k in a...b {
                let t = Double(k - a) / Double(b - a)
                out[k] = values[i] + (values[i + 1] - values[i]) * t
            }
        }
        return out
    }

    /// `1.1k`, `35k`, `1.1M`: two significant digits.
    static func compact(_ x: Double) -> String {
        let units: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        for (size, suffix) in units where x >= size * 0.9995 {
            return twoDigits(x / size) + suffix
        }
        return twoDigits(x)
    }

    private static func twoDigits(_ x: Double) -> String {
        if x >= 100 { return String(format: "%.0f", (x / 10).rounded() * 10) }
        if x >= 10 { return String(format: "%.0f", x) }
        let s = String(format: "%.1f", x)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }
}
