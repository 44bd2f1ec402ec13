import Foundation
import StoreCore

/// Damaged copies of a store, for the `verify` group: each copy gets a few bytes changed at a
/// seeded place, then is verified closed (`ConformanceHarness.verify`). A copy verify calls
/// clean must read exactly as the store did: every record, link and index lookup. Damage
/// that nothing reads (free space) is harmless; damage that reads see is what verify is for.
enum DamageTrials {
    static func run(_ ctx: ConformanceContext, trials: Int) throws {
        try ctx.seed()
        try ctx.write { tx in
            try tx.insert(contentsOf: try (0..<400).map { try CRUDCases.newUser(ctx, 1000 + $0, "user\($0)") })
            _ = try tx.delete("User", where: KeyPathExpression("id") >= 1200)          // free pages too
        }
        let expected = try readings(try ctx.repository)
        try ctx.close()
        let files = try storeFiles(ctx.directory)
        try ctx.expect(!files.isEmpty, "the store left no files in its directory")
        var rng = SplitMix64(seed: 0xDA3A6E)
        for trial in 0..<trials {
            let copy = ctx.directory.appendingPathComponent("damaged-\(trial)")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
            for f in files { try FileManager.default.copyItem(at: f, to: copy.appendingPathComponent(f.lastPathComponent)) }
            let what = try damage(copy.appendingPathComponent(files[Int(rng.next() % UInt64(files.count))].lastPathComponent), &rng)
            try expectReportedOrHarmless(ctx, copy, expected, "trial \(trial) (\(what))")
            try FileManager.default.removeItem(at: copy)
        }
    }

    private static func expectReportedOrHarmless(_ ctx: ConformanceContext, _ copy: URL, _ expected: [[UInt8]], _ what: String) throws {
        do {
            guard try ctx.harness.verify(schema: ctx.schema, directory: copy).isClean else { return }
        } catch is StoreError { return }
        let got: [[UInt8]]
        do {
            let store = try ctx.harness.open(schema: ctx.schema, directory: copy)
            defer { try? store.close() }
            got = try readings(store)
        } catch {
            throw ConformanceFailure("verify called a damaged copy clean, yet reading it failed, \(what): \(error)")
        }
        if got != expected {
            let i = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
            let line = i < got.count ? String(decoding: got[i], as: UTF8.self) : "nothing"
            throw ConformanceFailure("verify called a damaged copy clean, yet it reads differently, \(what): line \(i) reads \(line.prefix(160))")
        }
    }

    /// Everything a reader can see, byte for byte: every record and link, and each user found
    /// through the unique and the compound index.
    static func readings(_ repository: any Repository) throws -> [[UInt8]] {
        var lines = try ConformanceContext.dump(repository)
        try repository.read { tx in
            for user in try tx.fetch(Query("User")) {
                let byName = try tx.fetch(Query("User", where: "username" == user["username"])).map(\.id)
                lines.append("username \(user["username"]) → \(byName)")
            }
            let sorted = try tx.fetch(Query("User", where: KeyPathExpression("age") >= 0, sort: [.asc("age"), .desc("score")]))
            lines.append("by age, score: \(sorted.map(\.id))")
        }
        return lines.map { Array($0.utf8) }
    }

    /// Changes 1 to 16 bytes at a seeded offset, to noise or zeros; says what it did.
    private static func damage(_ file: URL, _ rng: inout SplitMix64) throws -> String {
        var data = try Data(contentsOf: file)
        guard !data.isEmpty else { return "\(file.lastPathComponent) is empty" }
        let offset = Int(rng.next() % UInt64(data.count))
        let count = min(1 + Int(rng.next() % 16), data.count - offset)
        let zeros = rng.next() % 2 == 0
        for i in offset..<offset + count { data[i] = zeros ? 0 : UInt8(truncatingIfNeeded: rng.next()) }
        try data.write(to: file)
        return "\(count) bytes \(zeros ? "zeroed" : "of noise") at \(offset) of \(file.lastPathComponent)"
    }

    /// The store's data files: regular files, not those holding locks or shared memory.
    static func storeFiles(_ directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter { StoreFiles.holdsData($0.lastPathComponent) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Overwrites every file of the closed store in `directory` with seeded noise of the same
    /// size (at least 4 KiB); returns how many files it overwrote.
    @discardableResult
    static func overwriteWithNoise(_ directory: URL, seed: UInt64) throws -> Int {
        var rng = SplitMix64(seed: seed)
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } ?? []
        for f in files {
            let size = max(4096, (try FileManager.default.attributesOfItem(atPath: f.path)[.size] as? Int) ?? 0)
            try Data((0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }).write(to: f)
        }
        return files.count
    }
}
