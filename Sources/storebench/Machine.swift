import Foundation

/// Facts about the machine and build for reports.
enum Machine {
    static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static func describe() -> [(String, String)] {
        let p = ProcessInfo.processInfo
        return [
            ("CPU", cpuModel() ?? "unknown"),
            ("Cores", "\(p.activeProcessorCount)"),
            ("Memory", String(format: "%.1f GiB", Double(p.physicalMemory) / 1_073_741_824)),
            ("OS", osName() ?? p.operatingSystemVersionString),
            ("Swift", swiftVersion),
        ]
    }

    static var swiftVersion: String {
        #if swift(>=6.3)
        "6.3 or later"
        #elseif swift(>=6.2)
        "6.2"
        #else
        "6.0 or 6.1"
        #endif
    }

    private static func cpuModel() -> String? {
        guard let s = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return s.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) }
    }

    private static func osName() -> String? {
        guard let s = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return nil }
        return s.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
}
