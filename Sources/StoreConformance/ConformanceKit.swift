import Foundation
import StoreCore

/// The conformance kit: every case, and runners that return result tables.
///
/// ```swift
/// let report = ConformanceKit.run(DescriptorHarness(SQLiteStore.descriptor))
/// print(ConformanceKit.markdown([report]))
/// ```
///
/// From Swift Testing, one test per case:
///
/// ```swift
/// @Test(arguments: ConformanceKit.cases)
/// func conformance(_ c: ConformanceCase) throws {
///     let r = ConformanceKit.run(c, harness: MyHarness())
///     #expect(r.status != .failed, "\(r)")
/// }
/// ```
public enum ConformanceKit {
    /// Every case, grouped by feature, in a stable order.
    public static let cases: [ConformanceCase] =
        CapabilityCases.all + SchemaCases.all + CRUDCases.all + TransactionCases.all + IsolationCases.all + BatchCases.all + QueryCases.all + QueryPathCases.all
        + RelationshipCases.all + ErrorCases.all + PersistenceCases.all + ReadOnlyCases.all + ReentrancyCases.all + MigrationCases.all
        + CollectionCases.all + OrderedRelationshipCases.all + EmbeddedCases.all
        + UniquenessCases.all + VerifyCases.all + CompactionCases.all + ObservationCases.all + SizeCases.all + ModelCases.all

    /// The groups in order.
    public static var groups: [String] {
        var seen = Set<String>()
        return cases.map(\.group).filter { seen.insert($0).inserted }
    }

    /// Runs one case in a fresh temporary directory and tears it down.
    public static func run(_ c: ConformanceCase, harness: any ConformanceHarness) -> ConformanceResult {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("storebench-kit-\(harness.name)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            return ConformanceResult(group: c.group, name: c.name, status: .failed, reason: "cannot create \(dir.path): \(error)")
        }
        let ctx: ConformanceContext
        do {
            ctx = try ConformanceContext(harness: harness, directory: dir, schema: SocialSchema.make())
        } catch {
            try? FileManager.default.removeItem(at: dir)
            return ConformanceResult(group: c.group, name: c.name, status: .failed, reason: "opening a fresh store failed: \(error)")
        }
        defer { ctx.tearDown() }
        if let reason = skipReason(c, ctx, harness.name) {
            return ConformanceResult(group: c.group, name: c.name, status: .skipped, reason: reason)
        }
        do {
            try c.body(ctx)
            return ConformanceResult(group: c.group, name: c.name, status: .passed, reason: nil)
        } catch let f as ConformanceFailure {
            return ConformanceResult(group: c.group, name: c.name, status: .failed, reason: f.message)
        } catch {
            return ConformanceResult(group: c.group, name: c.name, status: .failed, reason: "unexpected error: \(error)")
        }
    }

    /// Why `c` does not run on this backend: a capability it requires and the backend does not
    /// offer, with the backend's declared reason; nil when it runs.
    static func skipReason(_ c: ConformanceCase, _ ctx: ConformanceContext, _ backend: String) -> String? {
        guard let repo = try? ctx.repository else { return nil }
        let missing = c.requires.subtracting(repo.capabilities)
        guard !missing.isEmpty else { return nil }
        let declared = repo.unsupportedCapabilities
        let reasons = Capabilities.named.filter { missing.contains($0.0) }.map { cap, name in
            declared[cap].map { "\(name) (\(backend): \($0))" } ?? "\(name), which \(backend) does not declare"
        }
        return "requires capability \(reasons.joined(separator: ", "))"
    }

    /// The case with this `group.name` id, if the kit has one.
    public static func `case`(_ id: String) -> ConformanceCase? { cases.first { $0.id == id } }

    /// Runs the case `id` against each harness, in order: what each generated kit test does.
    /// An id the kit no longer has is a failure for every harness, naming it.
    public static func run(_ id: String, harnesses: [any ConformanceHarness]) -> [(harness: String, result: ConformanceResult)] {
        guard let c = `case`(id) else {
            let parts = id.split(separator: ".", maxSplits: 1).map(String.init)
            let missing = ConformanceResult(group: parts.first ?? id, name: parts.count > 1 ? parts[1] : "", status: .failed,
                                            reason: "the kit has no case \(id); rebuild so the generated tests match the kit")
            return harnesses.map { ($0.name, missing) }
        }
        return harnesses.map { ($0.name, run(c, harness: $0)) }
    }

    /// Runs cases (all by default) against a backend. `progress` is called after each case.
    public static func run(_ harness: any ConformanceHarness, cases: [ConformanceCase] = cases,
                           progress: ((ConformanceResult) -> Void)? = nil) -> ConformanceReport {
        let results = cases.map { c in
            let r = run(c, harness: harness)
            progress?(r)
            return r
        }
        return ConformanceReport(backend: harness.name, cases: results)
    }
}
