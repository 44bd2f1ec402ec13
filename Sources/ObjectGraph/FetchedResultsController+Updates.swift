import StoreCore

/// One section of a `SectionedUpdate`: its name and its objects' IDs.
public struct SectionOutline: Sendable, Hashable {
    public let name: Value
    public let objectIDs: [ObjectID]
}

/// One value of `FetchedResultsController.updates()`.
public struct SectionedUpdate: Sendable, Hashable {
    public let sections: [SectionOutline]
    /// From the previous update; nil for the initial sections.
    public let change: SectionedChange?
    /// As `ResultsUpdate.committedAt`: when the earliest save a pushed update carries was committed.
    public let committedAt: ContinuousClock.Instant?
}

extension FetchedResultsController {
    /// Fetches and observes as `performFetch`, delivering the sections as Sendable updates
    /// (call it where `performFetch` may be called). The sequence keeps the controller
    /// observing until it ends: when the iterating task is cancelled or the sequence is
    /// released; it throws when re-running the query fails.
    public func updates() throws -> AsyncThrowingStream<SectionedUpdate, any Error> {
        cancel()
        let (stream, continuation) = AsyncThrowingStream<SectionedUpdate, any Error>.makeStream()
        let queue = context.queue
        let holder = TokenHolder(queue: queue)
        let token = try observe({ change in
            guard !holder.endIfCancelled() else { return }
            switch change {
            case .initial(let sections):
                continuation.yield(SectionedUpdate(sections: sections.map(\.outlineValue), change: nil, committedAt: nil))
            case .update(let sections, let change):
                continuation.yield(SectionedUpdate(sections: sections.map(\.outlineValue), change: change, committedAt: queue?.currentCommit))
            case .error(let error):
                continuation.finish(throwing: error)
            }
        }, retainingSelf: true)
        holder.hold(token)
        continuation.onTermination = { _ in holder.cancel() }
        return stream
    }
}

extension ResultsSection {
    var outlineValue: SectionOutline { SectionOutline(name: name, objectIDs: objects.map(\.objectID)) }
}
