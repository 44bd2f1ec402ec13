import Foundation
import StoreBenchKit

/// Human units for reports (internal).
public enum Format {
    public static func nanos(_ ns: Double?) -> String {
        guard let ns, ns.isFinite else { return "–" }
        switch ns {
        case ..<1_000: return String(format: "%.0f ns", ns)
        case ..<1_000_000: return String(format: "%.2f µs", ns / 1e3)
        case ..<1_000_000_000: return String(format: "%.2f ms", ns / 1e6)
        default: return String(format: "%.2f s", ns / 1e9)
        }
    }

    public static func rate(_ perSecond: Double?) -> String {
        guard let r = perSecond, r.isFinite else { return "–" }
        switch r {
        case ..<1_000: return String(format: "%.1f/s", r)
        case ..<1_000_000: return String(format: "%.1f k/s", r / 1e3)
        default: return String(format: "%.2f M/s", r / 1e6)
        }
    }

    public static func bytes(_ b: Double?) -> String {
        guard let b, b.isFinite else { return "–" }
        let a = abs(b)
        switch a {
        case ..<1_024: return String(format: "%.0f B", b)
        case ..<(1_024 * 1_024): return String(format: "%.1f KiB", b / 1_024)
        case ..<(1_024 * 1_024 * 1_024): return String(format: "%.1f MiB", b / 1_048_576)
        default: return String(format: "%.2f GiB", b / 1_073_741_824)
        }
    }

    public static func bytes(_ b: UInt64?) -> String { bytes(b.map { Double($0) }) }

    public static func ratio(_ r: Double?) -> String {
        guard let r, r.isFinite else { return "–" }
        return r >= 10 ? String(format: "%.0f×", r) : String(format: "%.2f×", r)
    }

    public static func percent(_ p: Double?) -> String {
        guard let p, p.isFinite else { return "–" }
        return String(format: "%.1f%%", p * 100)
    }

    /// A whole number with thousands separators, `1,204`; beyond what an `Int` holds, `3.1e+21`.
    public static func count(_ x: Double) -> String {
        guard x.isFinite else { return "–" }
        guard abs(x) < 1e18 else { return String(format: "%.2g", x) }
        return count(Int(x.rounded()))
    }

    public static func count(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// The geometric mean of positive values.
    public static func geometricMean(_ xs: [Double]) -> Double? {
        let ps = xs.filter { $0 > 0 && $0.isFinite }
        guard !ps.isEmpty else { return nil }
        return exp(ps.map(log).reduce(0, +) / Double(ps.count))
    }
}

extension Format {
    /// The ratios a report shows, as values, interval ends and axis ends: an interval reaching
    /// beyond them (a few rounds' t-interval can span 10²⁰×) says nothing and is not shown.
    public static let shownRatios = 1e-6...1e6

    /// A ratio with its interval: `1.23× (1.10–1.40)`.
    public static func ratio(_ e: Estimate?) -> String {
        guard let e else { return "–" }
        guard e.high > e.low else { return ratio(e.value) }
        guard shownRatios.contains(e.low), shownRatios.contains(e.high) else { return "\(ratio(e.value)) (no interval)" }
        return "\(ratio(e.value)) (\(bare(e.low))–\(bare(e.high)))"
    }

    /// A time per operation with its interval: `1.20 µs ±4%` (the interval's half-width, relative).
    public static func nanos(_ e: Estimate?) -> String {
        guard let e else { return "–" }
        guard e.high > e.low, e.value > 0 else { return nanos(e.value) }
        return "\(nanos(e.value)) ±\(String(format: "%.0f", 50 * (e.high - e.low) / e.value))%"
    }

    /// A count per operation: `12.0`, `0.25`, `1,204`.
    public static func perOperation(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "–" }
        switch abs(x) {
        case 1_000...: return count(x)
        case 10...: return String(format: "%.1f", x)
        default: return String(format: "%.2f", x)
        }
    }

    private static func bare(_ r: Double) -> String { r >= 10 ? String(format: "%.0f", r) : String(format: "%.2f", r) }
}

extension Format {
    /// A number in a few characters, for chart ticks: `0`, `0.25`, `1.5`, `120`, `1.5k`, `250k`, `1.2M`.
    public static func compactNumber(_ x: Double) -> String { ChartScale.compact(x) }
}
