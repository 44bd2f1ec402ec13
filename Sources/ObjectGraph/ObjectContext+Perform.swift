import StoreCore

extension ObjectContext {
    /// The queue of a context made by `ObjectGraph.newBackgroundContext`; nil for a
    /// thread-confined context.
    public var contextQueue: ContextQueue? { queue }

    /// Runs `body` with this context on its queue and returns its value. The body gets the
    /// context as its argument (objects stay on the queue; return IDs or values).
    /// On a thread-confined context it runs at once, on the caller's thread, which must own it.
    ///
    /// ```swift
    /// let id = try await background.perform { c in
    ///     let post = try c.insert("Post", ["id": 9, "title": "Hi", "createdAt": .date(.now)])
    ///     try c.save()
    ///     return post.objectID
    /// }
    /// ```
    public nonisolated(nonsending) func perform<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) async rethrows -> T {
        guard let queue else { return try body(self) }
        let context = UncheckedContext(self)
        return try await QueueIsolation(queue).run { try body(context.value) }
    }

    /// Runs `body` on the context's queue and waits for it (at once when called on the queue,
    /// or on a thread-confined context).
    public func performAndWait<T>(_ body: (ObjectContext) throws -> T) rethrows -> T {
        guard let queue else { return try body(self) }
        return try queue.sync { try body(self) }
    }

    /// Internal: refuses `call` off the queue of a queue-bound context (`invalidValue`).
    func checkOnOwnQueue(_ call: String) throws {
        if let queue, !queue.isCurrent {
            throw StoreError(.invalidValue, "\(call) on a queue-bound context runs on its queue: call it inside perform or performAndWait")
        }
    }

    /// Internal: on the queue, merges the pending saves (`mergeChanges`, which tells the
    /// observers) and records the push latency.
    func deliverPush() {
        guard let postedAt = inbox.oldestPost else { return }
        queue?.currentCommit = postedAt
        defer { queue?.currentCommit = nil }
        do {
            try mergeChanges()
        } catch {
            for (_, o) in resultsObservers.sorted(by: { $0.key < $1.key }) { o.handler(.error(error)) }
        }
        queue?.latency?.record(.now - postedAt)
    }
}

/// Internal: a context handed to its own queue; only touched there.
struct UncheckedContext: @unchecked Sendable {
    let value: ObjectContext
    init(_ value: ObjectContext) { self.value = value }
}

/// Internal: an actor on a context's queue, so `perform` awaits the queue (and rethrows).
actor QueueIsolation {
    nonisolated let queue: ContextQueue

    init(_ queue: ContextQueue) { self.queue = queue }

    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

    func run<T: Sendable>(_ body: @Sendable () throws -> T) rethrows -> T { try body() }
}
