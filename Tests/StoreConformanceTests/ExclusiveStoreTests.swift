import Foundation
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// A backend that cannot share its files (`BackendDescriptor.exclusive`) refuses a second open,
/// from this process or another, with `unsupported`, and passes the kit's capability cases.
@Suite("Exclusive stores")
struct ExclusiveStoreTests {
    static let single = SQLiteStore.descriptor.exclusive(reason: "the test says one process at a time")

    @Test("the kit's capability cases pass: multiProcess declared, and a second open refused")
    func passesTheCapabilityCases() throws {
        let cases = ConformanceKit.cases.filter { $0.group == "capabilities" }
        let report = ConformanceKit.run(DescriptorHarness(Self.single), cases: cases)
        #expect(report.failed == 0 && report.passed == cases.count, "\(report.failures.map { "\($0.id): \($0.reason ?? "")" })")
    }

    @Test("a second open while the first is open is refused, names the holder and writes nothing; after close it opens")
    func secondOpenRefused() throws {
        let dir = try TemporaryDirectory("exclusive")
        let store = try Self.single.open(SocialSchema.make(), dir.url, StoreOptions())
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        do {
            _ = try Self.single.open(SocialSchema.make(), dir.url, StoreOptions())
            Issue.record("a second open succeeded")
        } catch let e as StoreError {
            #expect(e.category == .unsupported)
            #expect(e.message.contains("in this process, pid \(getpid())") && e.message.contains(dir.url.path), "\(e.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == before)
        try store.close()
        try Self.single.open(SocialSchema.make(), dir.url, StoreOptions()).close()
    }

    @Test("while another process holds the lock file, open is refused; when that process is killed, it opens")
    func anotherProcessHoldsIt() throws {
        let dir = try TemporaryDirectory("exclusive-other")
        try Self.single.open(SocialSchema.make(), dir.url, StoreOptions()).close()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--exclusive", "--no-fork", dir.url.appendingPathComponent(ExclusiveStoreLock.fileName).path, "sleep", "30"]
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        var refused = false
        for _ in 0..<100 where !refused {
            do { try Self.single.open(SocialSchema.make(), dir.url, StoreOptions()).close(); usleep(20_000) } catch let e as StoreError {
                #expect(e.category == .unsupported)
                refused = true
            }
        }
        #expect(refused, "the lock held by another process never refused an open")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        try Self.single.open(SocialSchema.make(), dir.url, StoreOptions()).close()
    }
}
