import Foundation

/// What must match for two runs' cells to be merged: the build configuration, compiler,
/// engine versions and, where known, the source revision.
public struct BuildIdentity: Codable, Sendable, Hashable {
    public var configuration: String
    public var swift: String
    public var sqlite: String
    public var lmdb: String
    /// `STOREBENCH_REVISION`, else `GITHUB_SHA`, else `git rev-parse HEAD` of the working
    /// directory (`-dirty` with uncommitted changes to tracked files); nil outside a checkout.
    public var revision: String?

    /// This binary, on this machine, from this working directory.
    public static func current() -> BuildIdentity {
        let m = MachineInfo.current()
        return BuildIdentity(configuration: m.build, swift: m.swift, sqlite: m.sqlite, lmdb: m.lmdb, revision: revision())
    }

    /// The fields in which `other` differs, as `name a ≠ b`.
    public func differences(from other: BuildIdentity) -> [String] {
        [("build", configuration, other.configuration), ("Swift", swift, other.swift), ("SQLite", sqlite, other.sqlite),
         ("LMDB", lmdb, other.lmdb), ("revision", revision ?? "unknown", other.revision ?? "unknown")]
            .filter { $0.1 != $0.2 }.map { "\($0.0) \($0.1) ≠ \($0.2)" }
    }

    static func revision() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let r = env["STOREBENCH_REVISION"] ?? env["GITHUB_SHA"], !r.isEmpty { return r }
        guard let head = git(["rev-parse", "HEAD"]), !head.isEmpty else { return nil }
        let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return head + (dirty ? "-dirty" : "")
    }

    private static func git(_ arguments: [String]) -> String? {
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git"] + arguments
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
