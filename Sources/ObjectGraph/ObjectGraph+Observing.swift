import Foundation
import StoreCore

extension ObjectGraph: ObservingRepository {
    /// Watches `query` through a new context of the calling thread (see `ObjectContext.observe`):
    /// each `waitForChange` merges the saves other contexts and `write`s posted, re-runs the
    /// query and returns its change set.
    public func observeResults(_ query: Query) throws -> any ResultsObservation {
        try GraphResultsObservation(context: newContext(), query: query)
    }
}

/// Internal: a context observing one query for `ObservingRepository`.
final class GraphResultsObservation: ResultsObservation {
    private let context: ObjectContext
    private var token: ObservationToken?
    private var objects: [ManagedObject] = []
    private var latest: CollectionChange?
    private var failure: (any Error)?

    init(context: ObjectContext, query: Query) throws {
        self.context = context
        context.automaticallyMergesChanges = false   // merged only in waitForChange
        token = try context.observe(query) { [unowned self] change in
            switch change {
            case .initial(let objects): self.objects = objects
            case .update(let objects, let change):
                self.objects = objects
                self.latest = change
            case .error(let error): self.failure = error
            }
        }
    }

    var count: Int { objects.count }

    func waitForChange(timeout: Double) throws -> CollectionChange? {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        while true {
            latest = nil
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, context.waitForChanges(timeout: remaining) else { return nil }
            try context.mergeChanges()
            if let failure {
                self.failure = nil
                throw failure
            }
            if let change = latest { return change }
        }
    }

    func value(_ attribute: String, at index: Int) throws -> Value {
        guard objects.indices.contains(index) else {
            throw StoreError(.invalidValue, "index \(index) is outside the \(objects.count) observed results")
        }
        return try objects[index].value(attribute)
    }

    func cancel() {
        token?.cancel()
        token = nil
    }
}
