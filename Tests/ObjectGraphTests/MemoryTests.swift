import Foundation
import ObjectGraph
import StoreCore
import Testing

/// Memory stays bounded while a context walks many records, measured in a child process
/// (`storebench graph-memory`) so the resident figure is the walk's alone.
@Suite("ObjectGraph memory")
struct MemoryTests {
    struct WalkResult: Decodable {
        var walked: Int, growthBytes: Int, maxLiveObjects: Int, maxRegisteredObjects: Int
    }

    /// The bound stated in the README: walking 200,000 records with a reset every 10,000 grows
    /// resident memory by less than 24 MiB (keeping every object instead grows it by ~100 MiB).
    static let boundBytes = 24 << 20

    @Test func walking200kRecordsWithRefreshesStaysBounded() throws {
        let result = try runWalk(["--records", "200000", "--page", "1000", "--refresh-every", "10000"])
        #expect(result.walked == 200_000)
        #expect(result.growthBytes < Self.boundBytes, "grew by \(result.growthBytes) bytes")
        #expect(result.maxLiveObjects <= 2_000)
        #expect(result.maxRegisteredObjects <= 2_000)
    }

    @Test func keepingEveryObjectIsWhatTheBoundPreventsAndIsMeasured() throws {
        let result = try runWalk(["--records", "50000", "--page", "1000", "--refresh-every", "0"])
        #expect(result.maxLiveObjects >= 50_000)
        #expect(result.growthBytes > 4 << 20, "keeping 50k objects should cost memory; grew by \(result.growthBytes)")
    }

    @Test func registeredObjectsFollowWhatTheCallerHolds() throws {
        let f = try GraphFixture(seeded: false)
        let item = try f.schema.entity("Tag")
        try f.sqlite.write { tx in try tx.insert(contentsOf: (0..<5_000).map { try item.record(["name": .string("t\($0)")]) }) }
        let c = f.graph.newContext()
        var walked = 0
        var maxRegistered = 0
        for offset in stride(from: 0, to: 5_000, by: 500) {
            let page = try c.fetch(Query("Tag", sort: [.asc("name")], limit: 500, offset: offset))
            walked += page.count
            maxRegistered = max(maxRegistered, c.registeredObjectCount)
            if offset % 1_000 == 500 { c.reset() }
        }
        #expect(walked == 5_000)
        #expect(maxRegistered <= 1_000)
    }

    private func runWalk(_ args: [String]) throws -> WalkResult {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storebench")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw StoreError(.io, "\(binary.path) is missing: build the package first (make test does)")
        }
        let p = Process()
        p.executableURL = binary
        p.arguments = ["graph-memory", "--json"] + args
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return try JSONDecoder().decode(WalkResult.self, from: data)
    }
}
