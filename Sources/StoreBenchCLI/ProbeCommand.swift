import ArgumentParser
import Foundation
import ObjectGraph
import StoreCore

/// A quick side-by-side measurement until the workload runner (`run`) lands: bulk insert,
/// point reads, a full scan and an indexed query on the same records for each backend.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Quick measurement: insert, point reads, full scan and indexed query per backend.",
        discussion: """
            Writes N records of Item(id, name, group, score, createdAt; index on group) to a \
            temporary store per backend, then times: one bulk insert transaction, N point reads by \
            random primary key in one read transaction, a full scan reading every field, and \
            equality on the indexed group (N/100 matches) 100 times, and opening the closed store \
            without and with StoreOptions.verifyOnOpen. Best of --repeat runs. Use a \
            release build (`swift build -c release`). Ratios are to the first backend.
            """
    )

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: "Records to write.")
    var records = 100_000

    @Option(help: "Timed repetitions of each read operation; the best one counts.")
    var `repeat` = 3

    @Option(help: "Durability of commits: durable or relaxed.")
    var durability: Durability = .relaxed

    func validate() throws {
        guard records > 0 && records <= 10_000_000 else { throw ValidationError("--records must be 1...10000000") }
        guard `repeat` > 0 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let schema = try Schema(version: 1, entities: [
            EntityDescription("Item", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("name", .string), Attribute("group", .int64),
                                           Attribute("score", .double), Attribute("createdAt", .date)],
                              indexes: [IndexDescription(["group"])]),
        ])
        let item = schema["Item"]!
        let rows = (0..<records).map { i in
            Record(item, values: [.int64(Int64(i)), .string("item-\(i)-\(String(repeating: "x", count: i % 17))"),
                                  .int64(Int64(i % 100)), .double(Double(i) * 0.5), .date(Date(timeIntervalSince1970: Double(i)))])
        }
        var rng = SystemRandomNumberGenerator()
        let keys = (0..<records).map { _ in Value.int64(Int64.random(in: 0..<Int64(records), using: &rng)) }

        var results: [(String, [(String, Double, Int)])] = []
        for name in backendOptions.selected {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-probe-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let repo = try Registry.backend(named: name)!.open(schema, dir, StoreOptions(durability: durability))
            defer { try? repo.close() }
            StandardError.write("probe: \(name)…\n")
            var r: [(String, Double, Int)] = []
            r.append(("bulk insert (1 transaction)", try time { try repo.write { try $0.insert(contentsOf: rows) } }, records))
            r.append(("read by primary key", try best { try repo.read { tx in for k in keys { _ = try tx.fetch("Item", id: k) } } }, records))
            r.append(("full scan, every field", try best {
                try repo.read { tx in
                    var sum = 0
                    try tx.forEach(Query("Item")) { row in for i in 0..<5 { if case .string(let s) = row[i] { sum &+= s.utf8.count } else { sum &+= 1 } } }
                    precondition(sum > 0)
                }
            }, records))
            r.append(("indexed equality (group == g), per row", try best {
                try repo.read { tx in for g in 0..<100 { _ = try tx.fetch(Query("Item", where: "group" == .int64(Int64(g)))) } }
            }, records))
            try repo.close()
            r += try openTimes(name, schema, dir)
            results.append((name, r))
        }

        print("| operation | " + results.map { "\($0.0) ns/op" }.joined(separator: " | ") + " | " +
              results.dropFirst().map { "\($0.0) ÷ \(results[0].0)" }.joined(separator: " | ") + " |")
        print("|---|" + String(repeating: "---:|", count: results.count * 2 - 1))
        for (i, op) in results[0].1.enumerated() {
            let ns = results.map { $0.1[i].1 / Double($0.1[i].2) * 1e9 }
            let cells = ns.map { String(format: "%.0f", $0) } + ns.dropFirst().map { String(format: "%.2f×", $0 / ns[0]) }
            print("| \(op.0) | " + cells.joined(separator: " | ") + " |")
        }
        try probeContexts(schema, rows, keys: keys, results: results)
    }

    /// For each object-graph backend: a fetch served by a context's identity map and an
    /// insert-and-save of every record through a context, against the plain stores' figures.
    private func probeContexts(_ schema: Schema, _ rows: [Record], keys: [Value], results: [(String, [(String, Double, Int)])]) throws {
        let graphs = backendOptions.selected.filter { $0.hasPrefix("objectgraph+") }
        guard !graphs.isEmpty else { return }
        func perOp(_ backend: String, _ op: Int) -> Double? {
            results.first { $0.0 == backend }.map { $0.1[op].1 / Double($0.1[op].2) * 1e9 }
        }
        print("")
        print("| object graph | identity-map fetch ns/op | ÷ sqlite read by key | context insert + save ns/op | ÷ its store's bulk insert |")
        print("|---|---:|---:|---:|---:|")
        for name in graphs {
            let storeName = String(name.dropFirst("objectgraph+".count))
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-probe-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let graph = try Registry.backend(named: name)!.open(schema, dir, StoreOptions(durability: durability))
            defer { try? graph.close() }
            guard let graph = graph as? ObjectGraph else { continue }
            StandardError.write("probe: \(name) context…\n")
            let context = graph.newContext()
            let insert = try time {
                for r in rows { try context.insert(r) }
                try context.save()
            }
            let held = try context.fetch(Query("Item"))
            let hit = try best { for k in keys { _ = try context.object("Item", id: k) } }
            precondition(held.count == rows.count)
            let hitNs = hit / Double(keys.count) * 1e9
            let insertNs = insert / Double(rows.count) * 1e9
            let fmt = { (x: Double?) in x.map { String(format: "%.2f×", $0) } ?? "—" }
            print("| \(name) | \(String(format: "%.0f", hitNs)) | \(fmt(perOp("sqlite", 1).map { hitNs / $0 })) | "
                  + "\(String(format: "%.0f", insertNs)) | \(fmt(perOp(storeName, 0).map { insertNs / $0 })) |")
        }
    }

    /// Opening the closed store (its files in the page cache) and closing it, without and
    /// with `StoreOptions.verifyOnOpen`.
    private func openTimes(_ name: String, _ schema: Schema, _ dir: URL) throws -> [(String, Double, Int)] {
        let backend = Registry.backend(named: name)!
        var checked = StoreOptions(durability: durability)
        checked.verifyOnOpen = true
        return [("open and close the store", try best { try backend.open(schema, dir, StoreOptions(durability: durability)).close() }, 1),
                ("open with verifyOnOpen and close", try best { try backend.open(schema, dir, checked).close() }, 1)]
    }

    private func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func best(_ body: () throws -> Void) throws -> Double {
        var b = Double.infinity
        for _ in 0..<`repeat` { b = min(b, try time(body)) }
        return b
    }
}

extension Durability: ExpressibleByArgument {}
