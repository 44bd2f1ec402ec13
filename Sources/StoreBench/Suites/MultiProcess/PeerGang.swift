import Foundation
import Histogram
import StoreBenchKit

/// The parent side of a multi-process repetition: starts one `storebench peer` per task, waits
/// until every one has opened the store, starts them together, and gathers their results.
/// The latencies of all processes merge exactly (`Histogram.add`), not their percentiles.
struct PeerGang {
    let launcher: PeerLauncher

    /// Every process's result, in task order; throws naming the process that failed and its output.
    func run(_ tasks: [PeerTask]) throws -> [PeerResult] {
        try? FileManager.default.removeItem(at: launcher.work)
        try FileManager.default.createDirectory(at: launcher.work, withIntermediateDirectories: true)
        var peers: [(process: Process, input: Pipe, output: Pipe)] = []
        defer { for p in peers where p.process.isRunning { kill(p.process.processIdentifier, SIGKILL); p.process.waitUntilExit() } }
        for (i, task) in tasks.enumerated() { peers.append(try start(task, i)) }
        for (i, p) in peers.enumerated() where !Self.saysReady(p.output) {
            if p.process.isRunning { kill(p.process.processIdentifier, SIGKILL) }
            p.process.waitUntilExit()
            throw failure(i, tasks[i], "did not say it had opened the store (status \(p.process.terminationStatus))")
        }
        // A peer that died since says so through a failed write, not a SIGPIPE that ends the cell.
        signal(SIGPIPE, SIG_IGN)
        for (i, p) in peers.enumerated() {
            do { try p.input.fileHandleForWriting.write(contentsOf: Data("g".utf8)) } catch {
                throw failure(i, tasks[i], "could not be started: \(error)")
            }
        }
        for (i, p) in peers.enumerated() {
            p.process.waitUntilExit()
            guard p.process.terminationReason == .exit, p.process.terminationStatus == 0 else {
                throw failure(i, tasks[i], "ended with status \(p.process.terminationStatus)")
            }
        }
        return try tasks.map { try JSONDecoder().decode(PeerResult.self, from: Data(contentsOf: URL(fileURLWithPath: $0.result))) }
    }

    /// The task of process `index`, written for it to read.
    func task(_ index: Int, _ role: PeerTask.Role, keys: [Int64], stopFile: Bool) -> PeerTask {
        PeerTask(backend: launcher.backend, store: launcher.store.path, durability: launcher.durability, role: role, keys: keys,
                 stopFile: stopFile ? launcher.work.appendingPathComponent("stop").path : nil,
                 result: launcher.work.appendingPathComponent("result\(index).json").path)
    }

    private func start(_ task: PeerTask, _ index: Int) throws -> (process: Process, input: Pipe, output: Pipe) {
        let file = launcher.work.appendingPathComponent("task\(index).json")
        try JSONEncoder().encode(task).write(to: file)
        let log = launcher.work.appendingPathComponent("peer\(index).log")
        FileManager.default.createFile(atPath: log.path, contents: Data())
        let p = Process(), input = Pipe(), output = Pipe()
        p.executableURL = launcher.executable
        p.arguments = ["peer", "--task", file.path]
        p.standardInput = input
        p.standardOutput = output
        p.standardError = try FileHandle(forWritingTo: log)
        p.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        do { try p.run() } catch { throw BenchError("cannot start \(launcher.executable.path) as a peer: \(error)") }
        return (p, input, output)
    }

    /// Reads the process's standard output until its `ready` line; false at its end.
    private static func saysReady(_ output: Pipe) -> Bool {
        var seen = Data()
        while !seen.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { return false }
            seen.append(more)
        }
        return String(decoding: seen, as: UTF8.self).hasPrefix("ready")
    }

    private func failure(_ index: Int, _ task: PeerTask, _ what: String) -> BenchError {
        let log = launcher.work.appendingPathComponent("peer\(index).log")
        let tail = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(5).joined(separator: "\n")
        return BenchError("peer \(index) (a \(task.role.rawValue) on \(launcher.backend)) \(what): \(tail.isEmpty ? "no output" : tail)")
    }
}

extension [PeerResult] {
    /// All operations of these processes, their latencies merged, and the wall time from the
    /// first start to the last end.
    var merged: (operations: Int, latency: Histogram<UInt64>, wall: UInt64, sink: Int) {
        var latency = OperationTimer.emptyHistogram()
        for r in self { latency.add(r.latency) }
        let wall = (map(\.ended).max() ?? 0) &- (map(\.started).min() ?? 0)
        return (reduce(0) { $0 + $1.operations }, latency, isEmpty ? 0 : wall, reduce(0) { $0 &+ $1.sink })
    }
}
