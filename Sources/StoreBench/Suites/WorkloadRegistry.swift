import Foundation
import StoreBenchKit

/// Every workload of the registered suites (`Suites`), in run order.
///
/// ```swift
/// let reads = try WorkloadRegistry.matching("crud.read-pk.*")
/// ```
public enum WorkloadRegistry {
    /// The workloads profiles run (self-tests excluded).
    public static var all: [Workload] { Suites.registered.filter(\.inProfiles).flatMap(\.workloads) }

    /// Everything, self-tests included.
    public static var everything: [Workload] { all + Suites.registered.filter { !$0.inProfiles }.flatMap(\.workloads) }

    public static func named(_ name: String) -> Workload? { everything.first { $0.name == name } }

    /// The workload a definition file describes, built by the suite of `category`.
    public static func defined(by file: String, in category: WorkloadCategory) throws -> Workload {
        guard let suite = Suites.suite(of: category) else { throw BenchError("no suite of category '\(category)' for \(file)") }
        guard let w = try suite.workload(definedBy: file) else { throw BenchError("suite '\(category)' builds no workload from a file (\(file))") }
        return w
    }

    /// The workload that loads `dataset` (and builds the store the others copy).
    /// `nil` for `.empty`: nothing to load.
    public static func loader(of dataset: DatasetKind) -> Workload? {
        all.first { $0.loadsDataset && $0.dataset == dataset }
    }

    /// Whether `name` is the load that builds a dataset's stores (not a measured workload).
    public static func isLoader(_ name: String) -> Bool {
        [DatasetKind.social, .rows].contains { loader(of: $0)?.name == name }
    }

    /// Workloads matching comma-separated patterns: an exact name, a prefix (`query`), or a
    /// glob with `*` (`crud.*.single`). Self-tests match only by exact name.
    public static func matching(_ patterns: String) throws -> [Workload] {
        let all = Self.all, everything = Self.everything
        let parts = patterns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var out: [Workload] = []
        for p in parts {
            let hits: [Workload]
            if let exact = everything.first(where: { $0.name == p }) {
                hits = [exact]
            } else {
                hits = all.filter { glob(p, $0.name) || $0.name.hasPrefix(p + ".") || $0.category.rawValue == p }
            }
            if hits.isEmpty {
                let families = Suites.registered.filter(\.inProfiles).map(\.category.rawValue).joined(separator: ", ")
                throw BenchError("no workload matches '\(p)'; categories: \(families); `storebench list` shows every name")
            }
            for w in hits where !out.contains(where: { $0.name == w.name }) { out.append(w) }
        }
        let inProfiles = Set(all.map(\.name))
        return all.filter { w in out.contains { $0.name == w.name } } + out.filter { !inProfiles.contains($0.name) }
    }

    /// `*` matches any run of characters.
    static func glob(_ pattern: String, _ name: String) -> Bool {
        guard pattern.contains("*") else { return false }
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var rest = Substring(name)
        for (i, piece) in pieces.enumerated() {
            if i == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if i == pieces.count - 1 {
                return piece.isEmpty || rest.hasSuffix(piece)
            } else if let r = rest.range(of: piece) {
                rest = rest[r.upperBound...]
            } else {
                return false
            }
        }
        return rest.isEmpty
    }
}
