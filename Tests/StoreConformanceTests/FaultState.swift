import Foundation
import StoreCore

/// A record, or one side of a relationship of a record, by the exact bytes of its key (Swift's
/// `String` equality would merge canonically equivalent keys). Test-only.
struct RecordKey: Hashable {
    let bytes: [UInt8]
    init(_ entity: String, _ id: Value, _ relationship: String? = nil) {
        bytes = Array("\(entity)\u{1}\(id)\u{1}\(relationship ?? "")".utf8)
    }
}

/// What a faulty store remembers across its transactions: insertion and link order, links it
/// stored twice or forgot to clear, and what the open write has done (for dirty reads).
/// Shared by the threads using one `FaultyRepository`; every access holds the lock. Test-only.
final class FaultState: @unchecked Sendable {
    /// The open write's changes, as a reader that reads dirty pages sees them.
    struct Pending {
        var records: [RecordKey: Record] = [:]
        var inserted: [String: [Record]] = [:]
        var deleted: Set<RecordKey> = []
        var linked: [RecordKey: [Value]] = [:]
        var unlinked: [RecordKey: [Value]] = [:]
    }

    /// Whether the store was opened on a directory that already held one.
    let reopened: Bool
    private let lock = NSLock()
    private var sequence = 0
    private var insertionOrder: [RecordKey: Int] = [:]
    private var linkOrder: [RecordKey: [RecordKey: Int]] = [:]
    private var extraLinks: [RecordKey: [Value]] = [:]
    private var staleLinks: [RecordKey: Value] = [:]
    private var pendingWrite = Pending()

    init(reopened: Bool) { self.reopened = reopened }

    func noteInserted(_ entity: String, _ id: Value) {
        lock.withLock { sequence += 1; insertionOrder[RecordKey(entity, id)] = sequence }
    }

    func insertionSequence(_ entity: String, _ id: Value) -> Int {
        lock.withLock { insertionOrder[RecordKey(entity, id)] ?? .max }
    }

    func noteLinked(_ side: RecordKey, _ target: Value) {
        lock.withLock {
            sequence += 1
            linkOrder[side, default: [:]][RecordKey("", target)] = sequence
        }
    }

    func linkSequence(_ side: RecordKey, _ target: Value) -> Int {
        lock.withLock { linkOrder[side]?[RecordKey("", target)] ?? .max }
    }

    func addExtraLink(_ side: RecordKey, _ target: Value) { lock.withLock { extraLinks[side, default: []].append(target) } }
    func extraLinks(_ side: RecordKey) -> [Value] { lock.withLock { extraLinks[side] ?? [] } }

    func setStaleLink(_ side: RecordKey, _ target: Value?) { lock.withLock { staleLinks[side] = target } }
    func staleLink(_ side: RecordKey) -> Value? { lock.withLock { staleLinks[side] } }

    /// The thread that observed first (`otherThreadsStarved`): true for it.
    private var observer: Thread?
    func firstObservingThread(_ t: Thread) -> Bool {
        lock.withLock {
            if observer == nil { observer = t }
            return observer === t
        }
    }

    /// Unique values of deleted records (`freedUniqueValueStaysTaken`).
    private var freedUnique: Set<RecordKey> = []
    func free(_ value: RecordKey) { lock.withLock { _ = freedUnique.insert(value) } }
    func isFreed(_ value: RecordKey) -> Bool { lock.withLock { freedUnique.contains(value) } }

    func updatePending(_ body: (inout Pending) -> Void) { lock.withLock { body(&pendingWrite) } }
    var pending: Pending { lock.withLock { pendingWrite } }
    func clearPending() { lock.withLock { pendingWrite = Pending() } }
}
