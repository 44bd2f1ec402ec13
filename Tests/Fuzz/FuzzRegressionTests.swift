import Foundation
import LMDBStore
import StoreCore
import StoreFuzzing
import Testing

/// The fuzz targets' kept inputs, replayed without the sanitizer: the seed corpora and every
/// input a fuzzer found (`Tests/Fuzz/<target>/regressions`, one file each, fixed since).
@Suite("Fuzz inputs")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The files in `Tests/Fuzz/<target>/<folder>`, by name.
    static func inputs(_ t: FuzzTarget, _ folder: String) throws -> [URL] {
        let dir = root.appendingPathComponent("\(t.rawValue)/\(folder)")
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test("every seed and every found input passes its target", arguments: FuzzTarget.allCases)
    func keptInputsPass(_ t: FuzzTarget) throws {
        let seeds = try Self.inputs(t, "seeds"), found = try Self.inputs(t, "regressions")
        #expect(seeds.count >= 3 && seeds.count <= 40, "\(t) has \(seeds.count) seeds")
        for file in seeds + found {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(bytes.count <= 64 << 10, "\(file.lastPathComponent) is \(bytes.count) bytes: keep kept inputs small")
            do { try t.run(bytes) } catch {
                Issue.record("\(t)/\(file.lastPathComponent): \(error)")
            }
        }
    }

    @Test("the page-walk seeds are real stores, which the walk finds clean")
    func pageWalkSeedsAreSoundStores() throws {
        for file in try Self.inputs(.pagewalk, "seeds") {
            let walk = LMDBPageWalk.check(bytes: try [UInt8](Data(contentsOf: file)))
            #expect(walk.problems.isEmpty && walk.summary.hasPrefix("LMDB page walk: "), "\(file.lastPathComponent): \(walk.problems)")
        }
    }
}
