import Foundation
import StoreCore

extension ObjectGraph: ObservingRepository {
    /// Watches `query` through a new queue-bound context (`newBackgroundContext`): the saves of
    /// other contexts and `write`s are pushed to it, without a merge call; `waitForChange`
    /// returns the change from the results it returned last to the newest delivered ones.
    public func observeResults(_ query: Query) throws -> any ResultsObservation {
        try GraphResultsObservation(context: newBackgroundContext(), query: query)
    }
}

/// Internal: pushed results of a queue-bound context, handed to a waiting thread.
final class GraphResultsObservation: ResultsObservation, @unchecked Sendable {
    // @unchecked: the fields below are touched with `condition` locked; objects are touched on
    // the context's queue only (`value` reads them through `performAndWait`).
    private let context: ObjectContext
    private var token: ObservationToken?
    private let condition = NSCondition()
    private var delivered: [ManagedObject] = []
    private var returned: [ManagedObject] = []
    private var modified: Set<ObjectID> = []
    private var pending = false
    private var failure: (any Error)?

    init(context: ObjectContext, query: Query) throws {
        self.context = context
        token = try context.performAndWait { c in
            try c.observe(query) { [weak self] change in self?.receive(change) }
        }
    }

    /// Released means stopped (`ResultsObservation`): a delivery already queued finds no one.
    deinit { token?.cancel() }

    /// On the context's queue, at each delivery.
    private func receive(_ change: ResultsChange) {
        condition.lock()
        defer { condition.unlock() }
        switch change {
        case .initial(let objects):
            delivered = objects
            returned = objects
        case .update(let objects, let c):
            for i in c.modificationsInNew { modified.insert(objects[i].objectID) }
            delivered = objects
            pending = true
        case .error(let error):
            failure = error
            pending = true
        }
        condition.signal()
    }

    var count: Int { condition.withLock { returned.count } }

    func waitForChange(timeout: Double) throws -> CollectionChange? {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !pending {
                if !condition.wait(until: deadline) { return nil }
            }
            pending = false
            if let error = failure {
                failure = nil
                throw error
            }
            let change = CollectionChange.between(old: returned.map(\.objectID), new: delivered.map(\.objectID)) { modified.contains($0) }
            returned = delivered
            modified = []
            if !change.isEmpty { return change }
        }
    }

    func value(_ attribute: String, at index: Int) throws -> Value {
        let object: ManagedObject = try condition.withLock {
            guard returned.indices.contains(index) else {
                throw StoreError(.invalidValue, "index \(index) is outside the \(returned.count) observed results")
            }
            return returned[index]
        }
        // The key is the object's identity: readable even when a later commit deleted it.
        let id = object.objectID
        if attribute == id.entity.attributes[id.entity.primaryKeyOrdinal].name { return id.key }
        return try context.performAndWait { _ in try object.value(attribute) }
    }

    func cancel() {
        token?.cancel()
        token = nil
    }
}
