import Foundation
import StoreCore

/// The observation faults: a wrapped store's observations, bent as the fault names. A store
/// that observes nothing refuses with `unsupported`, as its declaration says. Test-only.
extension FaultyRepository: ObservingRepository {
    func observeResults(_ query: Query) throws -> any ResultsObservation {
        guard let observing = inner as? any ObservingRepository else {
            throw StoreError(.unsupported, "\(type(of: inner)) observes nothing")
        }
        let first = state.firstObservingThread(Thread.current)
        return FaultyObservation(try observing.observeResults(query), fault: fault, starved: fault == .otherThreadsStarved && !first)
    }
}

final class FaultyObservation: ResultsObservation {
    let inner: any ResultsObservation
    let fault: Fault?
    let starved: Bool

    init(_ inner: any ResultsObservation, fault: Fault?, starved: Bool) {
        self.inner = inner
        self.fault = fault
        self.starved = starved
    }

    var count: Int { inner.count }
    func value(_ attribute: String, at index: Int) throws -> Value { try inner.value(attribute, at: index) }
    func cancel() { if fault != .cancelIgnored { inner.cancel() } }

    func waitForChange(timeout: Double) throws -> CollectionChange? {
        if starved {
            Thread.sleep(forTimeInterval: timeout)
            return nil
        }
        guard var change = try inner.waitForChange(timeout: timeout) else { return fault == .emptyChangesDelivered ? CollectionChange() : nil }
        switch fault {
        case .modificationsAsInsertions:
            change.deletions = (change.deletions + change.modifications).sorted()
            change.insertions = (change.insertions + change.modificationsInNew).sorted()
            change.modifications = []
            change.modificationsInNew = []
        case .modificationsMissed: change.modifications = []; change.modificationsInNew = []
        case .modificationsInOldIndices: change.modificationsInNew = change.modifications
        default: break
        }
        return change
    }
}
