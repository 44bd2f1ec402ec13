import Foundation
import Testing

/// The seed tutorials' programs, ported to declared models (Examples/Seeds): each runs on the
/// object graph over SQLite and over LMDB, unchanged, and prints what Examples/Seeds/<port>/
/// expected.txt holds; each is no longer in tokens than the seed code it ports.
@Suite("seed ports")
struct SeedPortTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let ports = ["RealmSocial": "seed-realm-social", "CoreDataBlog": "seed-coredata-blog", "BatchAndMemory": "seed-batch-memory"]

    struct Budget: Decodable {
        struct Port: Decodable { var seed: String, tokens: Int }
        var ports: [String: Port]
    }

    static var arguments: [(String, String)] { ports.keys.sorted().flatMap { p in ["sqlite", "lmdb"].map { (p, $0) } } }

    @Test(arguments: arguments)
    func printsWhatItShould(_ port: String, _ engine: String) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(Self.ports[port]!)
        let p = Process()
        p.executableURL = binary
        p.arguments = [engine]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(port) on \(engine) exited with \(p.terminationStatus)")
        let expected = try String(contentsOf: Self.root.appendingPathComponent("Examples/Seeds/\(port)/expected.txt"), encoding: .utf8)
        #expect(output == expected, "\(port) on \(engine) printed:\n\(output)")
    }

    @Test(arguments: ports.keys.sorted())
    func isNoLongerThanTheSeedCode(_ port: String) throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Examples/Seeds/seed-tokens.json"))
        let budget = try #require(try JSONDecoder().decode(Budget.self, from: data).ports[port])
        let source = try String(contentsOf: Self.root.appendingPathComponent("Examples/Seeds/\(port)/main.swift"), encoding: .utf8)
        let tokens = SwiftTokens.count(source)
        #expect(tokens <= budget.tokens, "\(port): \(tokens) tokens, the seed's \(budget.seed) has \(budget.tokens)")
    }

    @Test func theTokenCountFollowsTheRules() {
        #expect(SwiftTokens.count("let a = \"x y z\" // note\n/* gone */ f(a, 10.5)") == 10)
    }
}
