import ArgumentParser
import Foundation
import StoreBench
import StoreCore

extension RunCommand {
    /// Seconds in `text`: a number with an optional unit, `s`, `m` or `h` (`90s`, `10m`, `1h`).
    static func seconds(_ text: String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let unit = trimmed.last.flatMap { units[$0] }
        guard let n = Double(unit == nil ? trimmed : String(trimmed.dropLast())), n > 0, n.isFinite else {
            throw ValidationError("--soak '\(text)' is not a duration: give a number with s, m or h, e.g. 90s, 10m, 2h")
        }
        return n * (unit ?? 1)
    }

    /// `--soak`: each backend in a child process of its own repeats the mixed workload for the
    /// duration; writes `<out>/soak.md`, `soak.json` and `soak/*.svg`.
    func runSoak(_ duration: String) throws {
        let seconds = try Self.seconds(duration), interval = min(60, max(1, seconds / 30))
        let folder = URL(fileURLWithPath: out)
        try FileAccess.checkWritable([folder.appendingPathComponent("soak.md").path])
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-soak-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var all: [SoakSeries] = []
        for b in try selectedBackends() {
            StandardError.write("soak: \(b.name) for \(Int(seconds)) s, a sample every \(Int(interval)) s\n")
            all.append(try Self.soakChild(b.name, seconds: seconds, interval: interval, durability: durability, executable: executable,
                                          work: work.appendingPathComponent(b.name)))
        }
        let command = Registry.programName + " " + CommandLine.arguments.dropFirst().joined(separator: " ")
        try SoakReport(series: all, seconds: seconds, command: command).write(to: folder)
        print("wrote \(folder.appendingPathComponent("soak.md").path): \(all.count) backends, \(Int(seconds)) s each")
        if all.contains(where: { $0.failure != nil }) { throw ExitCode(1) }
    }

    /// Runs one backend's soak in a child (`soak-child`) and reads its series.
    static func soakChild(_ name: String, seconds: Double, interval: Double, durability: Durability, executable: URL, work: URL) throws -> SoakSeries {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let result = work.appendingPathComponent("series.json"), log = work.appendingPathComponent("child.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let p = Process()
        p.executableURL = executable
        p.arguments = ["soak-child", "--backend", name, "--seconds", String(seconds), "--interval", String(interval),
                       "--durability", durability.rawValue, "--series", result.path, work.appendingPathComponent("store").path]
        p.standardOutput = try FileHandle(forWritingTo: log)
        p.standardError = p.standardOutput
        try p.run()
        p.waitUntilExit()
        if let data = FileManager.default.contents(atPath: result.path), let s = try? JSONDecoder().decode(SoakSeries.self, from: data) { return s }
        var failed = SoakSeries(backend: name)
        let tail = (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(300)) } ?? ""
        failed.failure = "the soak process ended with status \(p.terminationStatus): \(tail.trimmingCharacters(in: .whitespacesAndNewlines))"
        return failed
    }
}

struct SoakChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak-child", abstract: "One backend's soak; `run --soak` starts it.", shouldDisplay: false)

    @Option var backend: BackendName
    @Option var seconds: Double
    @Option var interval: Double
    @Option var durability: Durability = .durable
    @Option(help: "Where to write the series (JSON).") var series: String
    @Argument var directory: String

    func run() throws {
        var s: SoakSeries
        do {
            s = try SoakRun.run(Registry.backend(named: backend.name)!, directory: URL(fileURLWithPath: directory),
                                seconds: seconds, interval: interval, durability: durability)
        } catch {
            s = SoakSeries(backend: backend.name)
            s.failure = "\(error)"
        }
        try FileAccess.write(try JSONEncoder().encode(s), to: series)
    }
}
