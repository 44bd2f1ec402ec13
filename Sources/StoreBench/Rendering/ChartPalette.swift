import Foundation
import StoreBenchKit

/// A colour the report's charts draw one backend in: its name and swatch for the legend, and
/// its hex for Mermaid's palette.
struct ChartColor: Hashable {
    let name: String
    let hex: String
    /// A coloured square in text (an emoji), or nil where none matches the hue.
    let swatch: String?

    /// The legend's words for this colour: `🟦 blue #1F5FBF`.
    var label: String { [swatch, name, "`\(hex)`"].compactMap { $0 }.joined(separator: " ") }
}

/// The fixed palette of the report's charts: a backend's colour follows its position among the
/// run's backends, so it is the same in every chart of a report. Every colour reaches at least
/// 4.5:1 contrast against white (WCAG AA for text); hues follow the coloured-square emoji so the
/// legend can show a swatch in plain Markdown. A run with more backends than colours reuses them
/// in order (the legend still names each backend's).
enum ChartPalette {
    static let colors: [ChartColor] = [
        ChartColor(name: "blue", hex: "#1F5FBF", swatch: "🟦"),
        ChartColor(name: "orange", hex: "#B35900", swatch: "🟧"),
        ChartColor(name: "green", hex: "#2E7D32", swatch: "🟩"),
        ChartColor(name: "red", hex: "#C62828", swatch: "🟥"),
        ChartColor(name: "purple", hex: "#7B1FA2", swatch: "🟪"),
        ChartColor(name: "brown", hex: "#795548", swatch: "🟫"),
        ChartColor(name: "black", hex: "#212121", swatch: "⬛"),
        ChartColor(name: "teal", hex: "#00695C", swatch: nil),
        ChartColor(name: "magenta", hex: "#AD1457", swatch: nil),
        ChartColor(name: "slate", hex: "#546E7A", swatch: nil),
    ]

    /// The colour of the backend at `index` in the run's backend order.
    static func color(at index: Int) -> ChartColor { colors[index % colors.count] }

    /// WCAG contrast ratio of a `#RRGGBB` colour against white.
    static func contrastAgainstWhite(_ hex: String) -> Double {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return 0 }
        func channel(_ shift: UInt32) -> Double {
            let c = Double((v >> shift) & 0xFF) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
        return 1.05 / (luminance + 0.05)
    }

    /// Colours of the charts' text and axes, dark on the white background every chart sets, so a
    /// chart reads the same whichever Mermaid theme (light or dark page) renders it.
    static let ink = "#1F2328"
    static let axis = "#57606A"
    static let background = "#FFFFFF"
}
