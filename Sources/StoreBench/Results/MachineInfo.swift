import CLMDB
import CSQLite
import Foundation
import StoreBenchKit

/// The machine, build and library versions a run happened on, as the report prints them.
public struct MachineInfo: Codable, Sendable, Hashable {
    public var cpu: String
    public var cores: Int
    public var memoryBytes: UInt64
    public var os: String
    public var swift: String
    public var build: String
    public var sqlite: String
    public var lmdb: String

    /// This machine and this binary.
    public static func current() -> MachineInfo {
        let p = ProcessInfo.processInfo
        return MachineInfo(cpu: cpuModel() ?? "unknown", cores: p.activeProcessorCount, memoryBytes: p.physicalMemory,
                           os: osName() ?? p.operatingSystemVersionString, swift: swiftVersion, build: buildConfiguration,
                           sqlite: String(cString: sqlite3_libversion()),
                           lmdb: String(cString: mdb_version(nil, nil, nil)))
    }

    public static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    public static var swiftVersion: String {
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
