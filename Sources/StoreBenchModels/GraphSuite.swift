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
    enum Way: String, CaseIterable, Sendable {
        case store, stringKeyed = "string-keyed", declared

        var workloadName: String { "graph.read-key.\(rawValue)" }

        var summary: String {
            switch self {
            case .store: "through the graph's store (one read transaction each)"
            case .stringKeyed: "as a context's object by string keys (`object(\"Post\", id:)`, `value(\"title\")`…)"
            case .declared: "as a declared `@Model` post (`model(Post.self, id:)`, `post.title`…)"
            }
        }
    }

    public var workloads: [Workload] { Way.allCases.map(Self.readByKey) }

    static func readByKey(_ way: Way) -> Workload {
        .define(way.workloadName, WorkloadCategory("graph"), "Read a post by a random primary key, every attribute, " + way.summary,
                requires: .observation,
                setup: { ctx in ctx.randomKeys(ctx.spec.operations.single, upTo: ctx.generator.posts) },
                body: { repo, keys, timer in
                    guard let graph = repo as? ObjectGraph else { throw BenchError("\(way.workloadName) runs on object-graph backends only") }
                    return try read(way, keys, graph, timer)
                })
    }

    /// Reads every post of `keys` the `way` way, each attribute folded as `Touch.row` folds it.
    static func read(_ way: Way, _ keys: [Int64], _ graph: ObjectGraph, _ timer: OperationTimer) throws -> Int {
        var sink = 0
        let context = graph.newContext()
        let missing = { (k: Int64) in BenchError("post \(k) is missing") }
        switch way {
        case .store:
            try timer.each(keys.count) { i in
                guard let r = try graph.store.read({ try $0.fetch("Post", id: .int64(keys[i])) }) else { throw missing(keys[i]) }
                sink &+= Touch.row(r)
            }
        case .stringKeyed:
            let names = try graph.schema.entity("Post").attributes.map(\.name)
            try timer.each(keys.count) { i in
                guard let post = try context.object("Post", id: .int64(keys[i])) else { throw missing(keys[i]) }
                sink &+= try names.reduce(0) { h, name in Touch.fold(h, Touch.value(try post.value(name))) }
            }
        case .declared:
            try timer.each(keys.count) { i in
                guard let post = try context.model(Post.self, id: keys[i]) else { throw missing(keys[i]) }
                sink &+= post.touched
            }
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
            let cells = GraphSuite.Way.allCases.map { okCell(b, $0.workloadName) }
            guard let store = cells[0], let keyed = cells[1], let declared = cells[2] else { return nil }
            let push = pushLatency(b)
            return "| \(b) | \(Format.nanos(store.time)) | \(Format.nanos(keyed.time)) | "
                + "\(Format.nanos(declared.time)) | \(Format.ratio(keyed.ratio(to: store))) | \(Format.ratio(declared.ratio(to: keyed))) | "
                + "\(Format.nanos(push.p50)) | \(Format.nanos(push.p99)) |\n"
        }
        guard !rows.isEmpty else { return "" }
        var md = "## Object-graph programming models\n\n"
        md += "A post read by a random primary key, every attribute, at the \(mainScale) scale: through the store beneath the graph, "
        md += "as a context's object by string keys, and as a declared `@Model` class. Ratios are per read, the median of the "
        md += "per-round ratios with its interval (lower is cheaper). Push: how long a change another thread saves takes to reach an "
        md += "observer's queue-bound context as a change set, p50 and p99, with one observer watching 100 comments "
        md += "(`concurrency.observe.100-results.1-observers`; – when that workload did not run).\n\n"
        md += "| backend | store | string-keyed | declared | string-keyed ÷ store | declared ÷ string-keyed | push p50 | push p99 |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        return md + rows.joined() + "\n"
    }
}
