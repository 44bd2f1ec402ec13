import Foundation
import StoreBenchKit

/// A colour the report's charts draw one series in: its name for the tables and its hex.
struct ChartColor: Hashable {
    let name: String
    let hex: String
}

/// How one backend is drawn in every chart of a report: its colour and its marker. The tables
/// under the charts name it (`● blue`), so a row finds its line or bar without colour vision.
struct SeriesStyle: Hashable {
    let color: ChartColor
    let marker: ChartMarker

    /// The tables' words for it: the marker's glyph and the colour's name.
    var label: String { "\(marker.glyph) \(color.name)" }
}

/// The fixed palette of the report's charts: Okabe and Ito's eight colours, which stay apart
/// for the common colour-vision deficiencies, with a marker shape of its own for each, so a
/// series is told by shape too (in print, or where two colours still look alike). A backend's
/// style follows its position among the run's backends, so it is the same in every chart of a
/// report. The order puts first the colours that reach 3:1 contrast against white (WCAG's floor
/// for graphics): blue, vermillion, bluish green, reddish purple, black; orange, sky blue and
/// yellow come only for a sixth backend and later. A run with more backends than colours reuses
/// them, each time with the next marker.
enum ChartPalette {
    static let colors: [ChartColor] = [
        ChartColor(name: "blue", hex: "#0072B2"),
        ChartColor(name: "vermillion", hex: "#D55E00"),
        ChartColor(name: "bluish green", hex: "#009E73"),
        ChartColor(name: "reddish purple", hex: "#CC79A7"),
        ChartColor(name: "black", hex: "#000000"),
        ChartColor(name: "orange", hex: "#E69F00"),
        ChartColor(name: "sky blue", hex: "#56B4E9"),
        ChartColor(name: "yellow", hex: "#F0E442"),
    ]

    /// The style of the backend at `index` in the run's backend order.
    static func style(at index: Int) -> SeriesStyle {
        let markers = ChartMarker.allCases
        return SeriesStyle(color: colors[index % colors.count], marker: markers[(index + index / colors.count) % markers.count])
    }

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

    /// Colours of the charts' text, axes and grid, dark on the white background every chart
    /// draws, so a chart reads the same on a light or a dark page.
    static let ink = "#1F2328"
    static let muted = "#57606A"
    static let axis = "#57606A"
    static let grid = "#D8DEE4"
    static let background = "#FFFFFF"
}
