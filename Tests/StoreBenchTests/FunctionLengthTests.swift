import Foundation
import Testing

/// Every function in Sources is under 60 lines, from its declaration to its closing brace.
@Suite struct FunctionLengthTests {
    static let limit = 60

    /// Each function or initializer of `lines` whose body reaches `limit` lines: its first line and length.
    static func long(_ lines: [String]) -> [(line: Int, length: Int)] {
        let declaration = /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|fileprivate|package|static|override|mutating|nonisolated|final|class|convenience|required)\s+)*(?:func\s|init[?!]?\s*[(<])/
        var out: [(Int, Int)] = []
        for (i, line) in lines.enumerated() where (try? declaration.prefixMatch(in: line)) != nil {
            var depth = 0, started = false, j = i
            while j < lines.count {
                let code = lines[j].replacing(/"(?:\\.|[^"\\])*"/, with: "\"\"").split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                for c in code { if c == "{" { depth += 1; started = true } else if c == "}" { depth -= 1 } }
                if (started && depth <= 0) || (!started && j > i + 15) { break }
                j += 1
            }
            if started && j - i + 1 >= limit { out.append((i + 1, j - i + 1)) }
        }
        return out
    }

    @Test func everyFunctionIsUnderSixtyLines() throws {
        let sources = Bench.root.appendingPathComponent("Sources")
        var found: [String] = []
        for case let url as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)! where url.pathExtension == "swift" {
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            found += Self.long(lines).map { "\(url.path.dropFirst(sources.path.count + 1)):\($0.line): \($0.length) lines" }
        }
        #expect(found.isEmpty, "functions of \(Self.limit) lines or more:\n\(found.joined(separator: "\n"))")
    }

    @Test func aLongFunctionIsFound() {
        let body = ["    func long() {"] + (0..<60).map { "        print(\($0))" } + ["    }", "    func short() { print(1) }"]
        #expect(Self.long(body).map(\.line) == [1])
    }
}
