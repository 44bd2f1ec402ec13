import Foundation
import ObjectGraphModels
import StoreBench
import StoreBenchKit

/// What the object graph's programming models cost over the store beneath: a post read by key
/// through the store itself, through a context by string keys, and as a declared model, in a
/// fresh context each repetition (so every read reaches the store). Runs on object-graph
/// backends only. The report gives each model's ratio per read to the next one down.
public struct GraphSuite: WorkloadSuite {
    public init() {}

    public var category: WorkloadCategory { WorkloadCategory("graph") }
    public var title: String { "Object-graph programming models" }
    public var chartedByCategory: Bool { false }

    /// The three ways to read, from the store up.
    static let ways = ["store", "string-keyed", "declared"]
    static func name(_ way: String) -> String { "graph.read-key.\(way)" }

    public var workloads: [Workload] { Self.ways.map(Self.readByKey) }

    static func readByKey(_ way: String) -> Workload {
        .define(name(way), WorkloadCategory("graph"),
                "Read a post by a random primary key, every attribute, "
                    + ["store": "through the graph's store (one read transaction each)",
                       "string-keyed": "as a context's object by string keys (`object(\"Post\", id:)`, `value(\"title\")`…)",
                       "declared": "as a declared `@Model` post (`model(Post.self, id:)`, `post.title`…)"][way]!,
                requires: .observation,
                setup: { ctx in ctx.randomKeys(ctx.spec.operations.single, upTo: ctx.generator.posts) },
                body: { repo, keys, timer in
                    guard let graph = repo as? ObjectGraph else { throw BenchError("\(name(way)) runs on object-graph backends only") }
                    return try read(way, keys, graph, timer)
                })
    }

    static func read(_ way: String, _ keys: [Int64], _ graph: ObjectGraph, _ timer: OperationTimer) throws -> Int {
        var sink = 0
        let context = graph.newContext()
        switch way {
        case "store":
            try timer.each(keys.count) { i in
                sink &+= try graph.store.read { tx in Touch.row(try tx.fetch("Post", id: .int64(keys[i]))!) }
            }
        case "string-keyed":
            let names = ["id", "title", "body", "score", "createdAt", "rating", "published"]
            try timer.each(keys.count) { i in
                let post = try context.object("Post", id: .int64(keys[i]))!
                var h = 0
                for name in names { h = Touch.fold(h, Touch.value(try post.value(name))) }
                sink &+= h
            }
        default:
            try timer.each(keys.count) { i in sink &+= try context.model(Post.self, id: keys[i])!.touched }
        }
        return sink
    }

    public func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.graphModels() : ""
    }
}

extension ResultsView {
    /// Per object-graph backend: the time per read of each way, and each way ÷ the one beneath.
    func graphModels() -> String {
        let rows = backends.compactMap { b -> String? in
            let cells = GraphSuite.ways.map { okCell(b, GraphSuite.name($0)) }
            guard let store = cells[0], let keyed = cells[1], let declared = cells[2] else { return nil }
            return "| \(b) | \(Format.nanos(store.time)) | \(Format.nanos(keyed.time)) | "
                + "\(Format.nanos(declared.time)) | \(Format.ratio(keyed.ratio(to: store))) | \(Format.ratio(declared.ratio(to: keyed))) |\n"
        }
        guard !rows.isEmpty else { return "" }
        var md = "## Object-graph programming models\n\n"
        md += "A post read by a random primary key, every attribute, at the \(mainScale) scale: through the store beneath the graph, "
        md += "as a context's object by string keys, and as a declared `@Model` class. Ratios are per read, the median of the "
        md += "per-round ratios with its interval (lower is cheaper).\n\n"
        md += "| backend | store | string-keyed | declared | string-keyed ÷ store | declared ÷ string-keyed |\n"
        md += "|---|---:|---:|---:|---:|---:|\n"
        return md + rows.joined() + "\n"
    }
}
