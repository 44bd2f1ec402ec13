import Foundation
import StoreConformance
import StoreCore
import Synchronization

/// Wraps a correct repository and injects one `Fault`. Test-only.
final class FaultyRepository: Repository {
    let inner: any Repository
    let fault: Fault?
    let state: FaultState

    init(_ inner: any Repository, fault: Fault?, reopened: Bool = false) {
        self.inner = inner
        self.fault = fault
        state = FaultState(reopened: reopened)
    }

    var schema: Schema { inner.schema }
    var capabilities: Capabilities {
        switch fault {
        case .unsupportedDeclaredButWorks: inner.capabilities.subtracting(.compaction)
        case .sharingDeclaredUnsupportedButOpensTwice: inner.capabilities.subtracting(.multiProcess)
        default: inner.capabilities
        }
    }
    var unsupportedCapabilities: [Capabilities: String] {
        switch fault {
        case .capabilityUndeclared: [:]
        case .unsupportedDeclaredButWorks: inner.unsupportedCapabilities.merging([.compaction: "said to be missing, yet it compacts"]) { $1 }
        case .sharingDeclaredUnsupportedButOpensTwice:
            inner.unsupportedCapabilities.merging([.multiProcess: "said to be one process's, yet it opens twice"]) { $1 }
        default: inner.unsupportedCapabilities
        }
    }
    /// Transactions open on any thread (the fault is a store that forgets to check its own).
    private let inTransaction = Atomic<Int>(0)
    func close() throws {
        if fault == .closeInsideTransactionIgnored && inTransaction.load(ordering: .relaxed) > 0 { return }
        try inner.close()
    }

    func verify() throws -> VerificationReport {
        var report: VerificationReport
        do {
            if fault == .verifyWritesSomething { try Fault.rewriteOneRecord(inner) }
            if fault == .verifySkipsEngineCheck { return try inner.read { tx in var r = VerificationReport(); LogicalVerifier.check(tx, into: &r); return r } }
            report = try inner.verify()
            if fault == .verifyAlwaysClean { var clean = VerificationReport(); clean.checks = report.checks; clean.records = report.records; return clean }
        } catch let e as StoreError where e.category == .closed && fault == .verifyOfClosedStoreIsClean {
            return VerificationReport()
        }
        if fault == .verifyCriesWolf { report.add("User", "a problem that is not there") }
        return report
    }

    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        inTransaction.add(1, ordering: .relaxed)
        defer { inTransaction.subtract(1, ordering: .relaxed) }
        if fault == .noSnapshot {
            // Every call runs in a transaction of its own: no snapshot across calls.
            return try body(FaultyTransaction(fault: fault, state: state, autocommitRepository: inner))
        }
        return try inner.read { tx in
            let faulty = FaultyTransaction(fault: fault, state: state, read: tx)
            if fault == .firstReadBeforeSnapshot { faulty.firstReadOutside = inner }
            return try body(faulty)
        }
    }

    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        inTransaction.add(1, ordering: .relaxed)
        defer { inTransaction.subtract(1, ordering: .relaxed) }
        // What readers with a dirty-read fault see lives while the closure runs.
        let dirty = fault?.isDirtyRead == true
        func run(_ tx: any WriteTransaction) throws -> T {
            if dirty { state.clearPending() }
            defer { if dirty { state.clearPending() } }
            let result = try body(FaultyTransaction(fault: fault, state: state, write: tx))
            if fault == .orphanDroppedAtCommit { try Fault.deleteOrphans(in: tx) }
            return result
        }
        do {
            guard fault == .rollbackIgnored else { return try inner.write(run) }
            var failure: Error?
            let result: T? = try inner.write { tx in
                do { return try run(tx) } catch { failure = error; return nil }
            }
            if let failure { throw failure }
            return result!
        } catch let e as StoreError where fault == .errorReplacedOnRollback {
            throw StoreError(e.category, "the transaction was rolled back")
        }
    }
}

/// The harness the kit runs: a correct backend wrapped with one fault.
struct FaultyHarness: ConformanceHarness {
    let base: any ConformanceHarness
    let fault: Fault?
    /// Capabilities to hide from the kit (to test skips).
    var hidden: Capabilities = []

    var name: String { "\(base.name)+\(fault?.rawValue ?? "faithful")" }

    func open(schema: Schema, directory: URL) throws -> any Repository {
        let schema = fault == .embeddedFlagNotRecorded ? try Fault.withoutEmbedding(schema) : schema
        return try wrap(directory) { try base.open(schema: schema, directory: directory) }
    }

    func open(schema: Schema, directory: URL, migrations: MigrationPlan) throws -> any Repository {
        var plan = migrations
        switch fault {
        case .migrationTransformsSkipped: plan.migrations = plan.migrations.map { $0.rebuilt(transforms: false) }
        case .migrationStoreStepsSkipped: plan.migrations = plan.migrations.map { $0.rebuilt(storeSteps: false) }
        case .migrationRenamesIgnored: plan.migrations = plan.migrations.map { $0.rebuilt(renames: false) }
        case .migrationProgressSilent: plan.progress = nil
        case .migrationChainCut: plan.migrations = Array(plan.migrations.prefix(1))
        case .migrationCollectionFillsIgnored: plan.migrations = plan.migrations.map { $0.rebuilt(collectionFills: false) }
        default: break
        }
        do {
            let repo = try wrap(directory) { try base.open(schema: schema, directory: directory, migrations: plan) }
            if fault == .orderLostByMigration { try FaultyTransaction.sortOrderedLists(repo) }
            if fault == .linksDroppedWhenMadeOrdered { try FaultyTransaction.dropLinksMadeOrdered(repo, plan) }
            return repo
        } catch let e as StoreError where (fault == .failedMigrationRecreatesStore && [.invalidValue, .constraintViolation].contains(e.category))
            || (fault == .unmigratableStoreRecreated && e.category == .schemaMismatch) {
            return try wrap(directory) { try base.open(schema: schema, directory: directory, migrations: .deleteStoreIfMigrationNeeded) }
        }
    }

    func compact(schema: Schema, directory: URL) throws {
        switch fault {
        case .compactionKeepsSpace: return
        case .compactOfMissingStoreCreatesOne where (try FileManager.default.contentsOfDirectory(atPath: directory.path)).isEmpty:
            return try base.open(schema: schema, directory: directory).close()
        default: try base.compact(schema: schema, directory: directory)
        }
        guard fault == .compactionDropsLinks || fault == .compactionLosesListOrder else { return }
        let repo = try base.open(schema: schema, directory: directory)
        defer { try? repo.close() }
        if fault == .compactionLosesListOrder { try FaultyTransaction.sortOrderedLists(repo) } else { try Fault.dropManyToManyLinks(repo) }
    }

    func openReadOnly(schema: Schema, directory: URL) throws -> any Repository {
        switch fault {
        case .readOnlyIgnored: return try open(schema: schema, directory: directory)
        case .readOnlyCreatesMissingStore where (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty ?? true:
            return try open(schema: schema, directory: directory)
        default: return try wrap(directory) { try base.openReadOnly(schema: schema, directory: directory) }
        }
    }

    private func wrap(_ directory: URL, _ open: () throws -> any Repository) throws -> any Repository {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        if fault == .dataLostOnReopen {
            for f in existing { try FileManager.default.removeItem(at: directory.appendingPathComponent(f)) }
        }
        let repo = FaultyRepository(try open(), fault: fault, reopened: !existing.isEmpty)
        return hidden.isEmpty ? repo : CapabilityHidingRepository(repo, hiding: hidden)
    }
}

/// Declares fewer capabilities than the wrapped store has. Test-only.
final class CapabilityHidingRepository: Repository {
    let inner: any Repository
    let hidden: Capabilities
    init(_ inner: any Repository, hiding: Capabilities) { self.inner = inner; self.hidden = hiding }
    var schema: Schema { inner.schema }
    var capabilities: Capabilities { inner.capabilities.subtracting(hidden) }
    var unsupportedCapabilities: [Capabilities: String] {
        inner.unsupportedCapabilities.merging(Capabilities.named.filter { hidden.contains($0.0) }.map { ($0.0, "hidden by the kit's self-test") }) { $1 }
    }
    func close() throws { try inner.close() }
    func verify() throws -> VerificationReport { try inner.verify() }
    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T { try inner.read(body) }
    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T { try inner.write(body) }
}

extension Migration {
    /// The same step without some of its declared parts (for the migration faults).
    func rebuilt(transforms: Bool = true, storeSteps: Bool = true, renames: Bool = true, collectionFills: Bool = true) -> Migration {
        var m = Migration(from: source, to: destination)
        if renames {
            for (new, old) in entityRenames { m = m.renamingEntity(old, to: new) }
            for (entity, map) in attributeRenames { for (new, old) in map { m = m.renamingAttribute(old, to: new, of: entity) } }
        }
        for (entity, map) in fills {
            for (a, v) in map where collectionFills || (v.listValue == nil && v.mapValue == nil) { m = m.filling(a, of: entity, with: v) }
        }
        if transforms { for (entity, t) in recordTransforms { m = m.transforming(entity, t) } }
        if storeSteps { for step in self.storeSteps { m = m.then(step) } }
        return m
    }
}
