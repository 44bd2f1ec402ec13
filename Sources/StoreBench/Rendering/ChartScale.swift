import Foundation

/// A chart's value axis: where a value sits along it (0 at the low end, 1 at the high end) and
/// its labelled ticks.
///
/// - `ratio`: logarithmic, for ratios such as time ÷ the fastest's: equal steps are equal
///   factors, so 2× sits as far above 1× as 20× above 10×, a value far above the rest needs no
///   cutting, and the others keep their room. Ticks are the 1–2–5 series (1×, 2×, 5×, 10×, …),
///   or a finer one when the data span less than that series shows well; the axis ends on ticks
///   around the data (and 1×).
/// - `linear`: from 0 to a round top, ticks at round steps, so heights compare as ratios.
struct ChartScale: Equatable {
    enum Kind { case linear, logarithmic }

    let kind: Kind
    let low: Double
    let high: Double
    let ticks: [Double]
    /// One label per tick.
    let labels: [String]

    /// Where `value` sits: 0 at `low`, 1 at `high`, clamped to that range.
    func fraction(_ value: Double) -> Double {
        let f: Double
        switch kind {
        case .linear: f = (value - low) / (high - low)
        case .logarithmic: f = value > 0 ? log(value / low) / log(high / low) : 0
        }
        return f.isFinite ? min(max(f, 0), 1) : 0
    }

    /// Mantissas of the ratio axis's tick series, coarsest first.
    static let ratioSeries: [[Double]] = [[1, 2, 5], [1, 1.5, 2, 3, 5, 7], [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8]]

    /// A logarithmic axis for ratios (and their interval ends) in `values`, always showing 1×.
    /// The coarsest tick series is taken whose ticks around the data number three or more and
    /// leave the data at least half the axis; else the finest.
    static func ratio(spanning values: [Double]) -> ChartScale {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let lo = min(positive.min() ?? 1, 1) / 1.04, hi = max(positive.max() ?? 1, lo * 1.1) * 1.04
        var chosen: (Double, Double, [Double]) = (lo, hi, [lo, hi])
        for mantissas in ratioSeries {
            let series = Self.series(mantissas, from: lo, to: hi)
            let a = series.last { $0 <= lo } ?? lo, b = series.first { $0 >= hi } ?? hi
            let ticks = series.filter { $0 >= a && $0 <= b }
            chosen = (a, b, ticks)
            if ticks.count >= 3 && log(hi / lo) / log(b / a) >= 0.5 { break }
        }
        return ChartScale(kind: .logarithmic, low: chosen.0, high: chosen.1, ticks: chosen.2, labels: chosen.2.map(ratioLabel))
    }

    /// The values `mantissas` × 10ᵏ from a decade below `lo` to a decade above `hi`, ascending.
    static func series(_ mantissas: [Double], from lo: Double, to hi: Double) -> [Double] {
        let first = Int(floor(log10(lo))) - 1, last = Int(ceil(log10(hi))) + 1
        return (first...last).flatMap { k in mantissas.map { k >= 0 ? $0 * pow(10, Double(k)) : $0 / pow(10, Double(-k)) } }
    }

    /// `1×`, `1.5×`, `0.7×`, `20×`, `1,000×`; from 10⁹×, `2e+09×`.
    static func ratioLabel(_ r: Double) -> String {
        if r >= 1e9 { return String(format: "%.0e×", r) }
        return r >= 1_000 ? Format.count(r) + "×" : compact(r) + "×"
    }

    /// A linear axis from 0 to a round top above every value, at most six steps of 1, 2, 2.5
    /// or 5 times a power of ten; ticks labelled by `label`.
    static func linear(spanning values: [Double], label: (Double) -> String = compact) -> ChartScale {
        let top = max(values.filter(\.isFinite).max() ?? 0, 0) * 1.05
        guard top > 0 else { return ChartScale(kind: .linear, low: 0, high: 1, ticks: [0, 1], labels: [label(0), label(1)]) }
        let decade = pow(10, floor(log10(top / 6)))
        let step = [1, 2, 2.5, 5, 10].map { $0 * decade }.first { top / $0 <= 6 + 1e-9 } ?? 10 * decade
        let steps = Int((top / step - 1e-9).rounded(.up))
        let ticks = (0...steps).map { Double($0) * step }
        return ChartScale(kind: .linear, low: 0, high: ticks.last!, ticks: ticks, labels: ticks.map(label))
    }

    /// The ticks that stay at least `gap` pixels apart on an axis `length` pixels long: all of
    /// them when they do; else the powers of ten; else every other power of ten.
    func thinned(length: Double, gap: Double) -> ChartScale {
        func spaced(_ ts: [Double]) -> Bool {
            zip(ts, ts.dropFirst()).allSatisfy { (fraction($1) - fraction($0)) * length >= gap }
        }
        guard kind == .logarithmic, !spaced(ticks) else { return self }
        var kept = ticks.filter { abs(log10($0) - log10($0).rounded()) < 1e-9 }
        if !spaced(kept) { kept = kept.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
        return ChartScale(kind: kind, low: low, high: high, ticks: kept, labels: kept.map(Self.ratioLabel))
    }

    /// A number in a few characters: `0`, `0.25`, `1.5`, `120`, `1.5k`, `250k`, `1.2M`.
    static func compact(_ x: Double) -> String {
        let units: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        for (size, suffix) in units where abs(x) >= size {
            return compact(x / size) + suffix
        }
        var s = String(format: abs(x) >= 100 ? "%.0f" : "%.2f", x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}
