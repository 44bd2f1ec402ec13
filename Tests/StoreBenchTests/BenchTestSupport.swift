import Foundation
import StoreBench
import StoreBenchModels
import StoreCore
import Testing

/// Paths and helpers shared by the runner's tests.
enum Bench {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures")

    /// Registers the suites `storebench` registers (the graph suite), once per process, so a
    /// test renders reports as the command does. Tests run in parallel: a test that renders
    /// graph cells without it could see the suite appear halfway through its rendering.
    static func registerCommandSuites() {
        _ = commandSuites
    }

    private static let commandSuites: Void = {
        if Suites.suite(of: GraphSuite().category) == nil { try? Suites.register(GraphSuite()) }
    }()

    static func spec(_ scale: String = "tiny") throws -> DatasetSpec {
        try DatasetSpec.load(scale: scale, fixtures: fixtures)
    }

    /// The storebench binary built beside the test bundle.
    static func binary() throws -> URL {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storebench")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchError("\(url.path) is missing: build the package first (make test does)")
        }
        return url
    }

    /// Runs storebench with `arguments` (through `launcher`, e.g. `setpriv …`, when given);
    /// returns its exit status, standard output and error.
    static func run(_ arguments: [String], via launcher: [String] = []) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        if let first = launcher.first {
            p.executableURL = URL(fileURLWithPath: first)
            p.arguments = Array(launcher.dropFirst()) + [try binary().path] + arguments
        } else {
            p.executableURL = try binary()
            p.arguments = arguments
        }
        p.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Standard error is drained on another thread so a full pipe cannot block the child.
        let errBox = DataBox()
        let drain = Thread { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        drain.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        while !drain.isFinished { usleep(1_000) }
        let e = errBox.data
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}


final class DataBox: @unchecked Sendable { var data = Data() }
