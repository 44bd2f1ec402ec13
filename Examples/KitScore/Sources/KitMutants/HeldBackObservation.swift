import Foundation
import StoreCore

/// Observation through the wrapped store (the object graph, for the observation mutations),
/// bent as the mutation says. A wrapped store that observes nothing refuses with `unsupported`.
extension HeldBackRepository: ObservingRepository {
    func observeResults(_ query: Query) throws -> any ResultsObservation {
        guard let observing = base as? any ObservingRepository else {
            throw StoreError(.unsupported, "\(type(of: base)) observes nothing")
        }
        return HeldBackObservation(try observing.observeResults(query), fault: fault)
    }
}

final class HeldBackObservation: ResultsObservation {
    let inner: any ResultsObservation
    let fault: HeldBackFault?

    init(_ inner: any ResultsObservation, fault: HeldBackFault?) {
        self.inner = inner
        self.fault = fault
    }

    var count: Int { inner.count }
    func value(_ attribute: String, at index: Int) throws -> Value { try inner.value(attribute, at: index) }
    func cancel() { inner.cancel() }

    func waitForChange(timeout: Double) throws -> CollectionChange? {
        guard var c = try inner.waitForChange(timeout: timeout) else {
            return fault == .observationDeliversEmptyChanges ? CollectionChange() : nil
        }
        if fault == .observationModificationsAsInsertions {
            c = CollectionChange(deletions: (c.deletions + c.modifications).sorted(), insertions: (c.insertions + c.modificationsInNew).sorted())
        } else if fault == .observationMissesModifications {
            c = CollectionChange(deletions: c.deletions, insertions: c.insertions)
        }
        return c
    }
}
