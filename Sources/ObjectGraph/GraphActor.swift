/// An actor whose executor is a queue-bound context's queue (SwiftData's `ModelActor`): its
/// code uses `context` directly, without `perform`, and the context's push deliveries run
/// between its jobs.
///
/// ```swift
/// actor Importer: GraphActor {
///     nonisolated let graphExecutor: GraphExecutor
///     init(graph: ObjectGraph) { graphExecutor = GraphExecutor(graph: graph) }
///
///     func importPost(id: Int64, title: String) throws {
///         try context.insert("Post", ["id": .int64(id), "title": .string(title), "createdAt": .date(.now)])
///         try context.save()
///     }
/// }
/// ```
public protocol GraphActor: Actor {
    /// The context and the queue the actor runs on.
    nonisolated var graphExecutor: GraphExecutor { get }
}

extension GraphActor {
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        graphExecutor.queue.asUnownedSerialExecutor()
    }

    /// The actor's context; use it only from the actor's code.
    public var context: ObjectContext { graphExecutor.context }

    public nonisolated var graph: ObjectGraph { graphExecutor.graph }
}

/// Holds a `GraphActor`'s queue-bound context (see `ObjectGraph.newBackgroundContext`).
public final class GraphExecutor: @unchecked Sendable {
    // @unchecked: `context` is only handed out to code running on `queue` (`GraphActor.context`).
    public let graph: ObjectGraph
    public let queue: ContextQueue
    let context: ObjectContext

    public init(graph: ObjectGraph, mergePolicy: MergePolicy? = nil, delivery: PushDelivery = .eachSave,
                latency: PushLatencyProbe? = nil) {
        self.graph = graph
        (context, queue) = graph.queueBoundContext(mergePolicy: mergePolicy, delivery: delivery, latency: latency)
    }
}
