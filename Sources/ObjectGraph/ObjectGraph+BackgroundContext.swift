extension ObjectGraph {
    /// A new context that owns a serial queue (Core Data's private-queue context). Use it
    /// through `perform`/`performAndWait` (or from a `GraphActor`). Saves of other contexts and
    /// of `write` reach it by push: it merges them on its queue and tells its observers there,
    /// without any call to `mergeChanges()`.
    ///
    /// ```swift
    /// let background = graph.newBackgroundContext(delivery: .coalescing(.milliseconds(50)))
    /// let token = try background.performAndWait { c in
    ///     try c.observe(Query("Post", sort: [.desc("createdAt")])) { change in ... }   // on the queue
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - mergePolicy: the context's merge policy; nil for `newContext()`'s default.
    ///   - delivery: one notification per save, or saves coalesced within a window.
    ///   - latency: records each delivery's commit-to-observers latency.
    public func newBackgroundContext(mergePolicy: MergePolicy? = nil, delivery: PushDelivery = .eachSave,
                                     latency: PushLatencyProbe? = nil) -> ObjectContext {
        queueBoundContext(mergePolicy: mergePolicy, delivery: delivery, latency: latency).context
    }

    /// Internal: a new queue-bound context and its queue.
    func queueBoundContext(mergePolicy: MergePolicy?, delivery: PushDelivery,
                           latency: PushLatencyProbe?) -> (context: ObjectContext, queue: ContextQueue) {
        let context = mergePolicy.map { newContext(mergePolicy: $0) } ?? newContext()
        let queue = ContextQueue(label: "ObjectGraph.context", delivery: delivery, latency: latency)
        queue.context = context
        context.queue = queue
        context.inbox.whenPosted { queue.schedule() }
        queue.schedule()   // saves posted between registration and the hook
        return (context, queue)
    }
}
