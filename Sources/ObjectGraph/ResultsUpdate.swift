import StoreCore
import Synchronization

/// One value of `ObjectContext.updates(for:)`: the results as object IDs (objects are not
/// `Sendable`) and their change from the previous update.
public struct ResultsUpdate: Sendable, Hashable {
    /// The results, in the query's order.
    public let objectIDs: [ObjectID]
    /// From the previous update; for the initial one, every element inserted.
    public let change: CollectionChange
    public let isInitial: Bool
    /// When the earliest save this update carries was committed, for pushed updates of a
    /// queue-bound context; `ContinuousClock.now - committedAt` on receipt is the push latency.
    public let committedAt: ContinuousClock.Instant?
}

extension ObjectContext {
    /// The results of `query` as an `AsyncSequence`: the initial results at once, then an
    /// update after each save or merge that changes them (as `observe(_:_:)`). On a
    /// queue-bound context updates are pushed; call this on its queue (`performAndWait`).
    /// The sequence ends when the iterating task is cancelled or the sequence is released,
    /// and throws when re-running the query fails.
    ///
    /// ```swift
    /// let updates = try background.performAndWait { try $0.updates(for: Query("Tag")) }
    /// for try await u in updates { print(u.objectIDs.count, u.change.insertions) }
    /// ```
    public func updates(for query: Query) throws -> AsyncThrowingStream<ResultsUpdate, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ResultsUpdate, any Error>.makeStream()
        let queue = self.queue
        let holder = TokenHolder(queue: queue)
        let token = try observe(query) { change in
            guard !holder.endIfCancelled() else { return }
            switch change {
            case .initial(let objects):
                let all = CollectionChange(insertions: Array(objects.indices))
                continuation.yield(ResultsUpdate(objectIDs: objects.map(\.objectID), change: all, isInitial: true, committedAt: nil))
            case .update(let objects, let change):
                continuation.yield(ResultsUpdate(objectIDs: objects.map(\.objectID), change: change, isInitial: false,
                                                 committedAt: queue?.currentCommit))
            case .error(let error):
                continuation.finish(throwing: error)
            }
        }
        holder.hold(token)
        continuation.onTermination = { _ in holder.cancel() }
        return stream
    }

    /// One object's changes as an `AsyncSequence` (as `observe(_ object:_:)`); it ends after
    /// `.deleted`, on task cancellation or when released.
    public func updates(of object: ManagedObject) throws -> AsyncStream<ObjectChange> {
        let (stream, continuation) = AsyncStream<ObjectChange>.makeStream()
        let holder = TokenHolder(queue: queue)
        let token = try observe(object) { change in
            guard !holder.endIfCancelled() else { return }
            continuation.yield(change)
            if change == .deleted { continuation.finish() }
        }
        holder.hold(token)
        continuation.onTermination = { _ in holder.cancel() }
        return stream
    }
}

/// Internal: an observation token kept alive by a stream and cancelled when the stream ends.
/// On a queue-bound context the token is dropped on the queue; on a thread-confined one, by
/// the next notification on the context's thread (the only thread that may touch it).
final class TokenHolder: @unchecked Sendable {
    // @unchecked: `token` is only touched on the context's queue or thread; `cancelled` is atomic.
    private var token: ObservationToken?
    private let queue: ContextQueue?
    private let cancelled = Atomic(false)

    init(queue: ContextQueue?) { self.queue = queue }

    func hold(_ token: ObservationToken) { self.token = token }

    /// From any thread, when the stream ends.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        queue?.dispatch.async { self.dropToken() }
    }

    /// In a handler: true (and the token dropped) when the stream has ended.
    func endIfCancelled() -> Bool {
        guard cancelled.load(ordering: .acquiring) else { return false }
        dropToken()
        return true
    }

    private func dropToken() {
        token?.cancel()
        token = nil
    }
}
