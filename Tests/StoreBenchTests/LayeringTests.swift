import Foundation
import Testing

/// The runner's folders depend one way: a folder uses the types of the folders before it in
/// `LayeringTests.order`, never of one after it, and a suite never uses another suite's types.
/// Below them all, the compiler holds the module StoreBenchKit (measurement, fixtures, the floor
/// contract) to its own dependencies.
@Suite struct LayeringTests {
    /// Sources/StoreBench's folders, lowest first; the files at its top are the lowest.
    static let order = ["", "Keys", "Results", "Floors", "Rendering", "Workloads",
                        "Suites/*", "Suites", "Runner", "Report", "Torture"]
    static let root = Bench.root.appendingPathComponent("Sources/StoreBench")

    /// A file's folder as `order` names it (`Suites/CRUD` for a suite's files).
    static func folder(_ url: URL) -> String {
        let parts = url.path.dropFirst(root.path.count + 1).split(separator: "/").dropLast().map(String.init)
        guard let first = parts.first else { return "" }
        return first == "Suites" && parts.count > 1 ? "Suites/\(parts[1])" : first
    }

    static func rank(_ folder: String) -> Int? {
        order.firstIndex(of: folder.hasPrefix("Suites/") ? "Suites/*" : folder)
    }

    /// The code of a file without comments and string literals.
    static func code(_ text: String) -> String {
        var s = text.replacing(/"""[\s\S]*?"""/, with: "\"\"")
        s = s.replacing(/#"[^\n]*?"#/, with: "\"\"")
        s = s.replacing(/"(?:\\.|[^"\\\n])*"/, with: "\"\"")
        return s.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
    }

    @Test func foldersDependOneWay() throws {
        let files = FileManager.default.enumerator(at: Self.root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var owner: [String: String] = [:]
        var sources: [(URL, String)] = []
        let declaration = /^(?:public |package |final |indirect )*(?:struct|enum|class|protocol|actor|typealias) (\w+)/
        for url in files {
            let text = Self.code(try String(contentsOf: url, encoding: .utf8))
            sources.append((url, text))
            for line in text.split(separator: "\n") {
                if let m = try declaration.prefixMatch(in: line) { owner[String(m.1)] = Self.folder(url) }
            }
        }
        var wrong: [String] = []
        for (url, text) in sources {
            let mine = Self.folder(url)
            let myRank = try #require(Self.rank(mine), "\(mine) is not in LayeringTests.order")
            for m in text.matches(of: /\b[A-Z]\w+\b/.wordBoundaryKind(.simple)) {
                guard let theirs = owner[String(m.0)], theirs != mine, let r = Self.rank(theirs) else { continue }
                if r > myRank || r == myRank {
                    wrong.append("\(url.lastPathComponent) (\(mine)) uses \(m.0) (\(theirs))")
                }
            }
        }
        #expect(Set(wrong).isEmpty, "\(Set(wrong).sorted().joined(separator: "\n"))")
    }

    /// Every lock in Sources is `Locked` (a pthread mutex): `Synchronization.Mutex` blocks on a
    /// futex ThreadSanitizer cannot see, and `make test-tsan` then reports races that are not
    /// there (it did, twice: the graph's inbox list and a context queue's delivery flag).
    @Test func locksAreOnesThreadSanitizerSees() throws {
        let sources = Bench.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let users = try files.filter { url in
            try Self.code(String(contentsOf: url, encoding: .utf8)).contains(/\bMutex\s*[<(]/)
        }
        #expect(users.isEmpty, "use StoreCore.Locked in \(users.map(\.lastPathComponent))")
    }
}
