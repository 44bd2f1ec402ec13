import Foundation
import StoreConformance

extension DamageTrial {
    /// Applies the damage of `kind` to `file`, drawn from `seed`; returns what was done.
    func damage(_ file: URL, kind: Kind, seed: UInt64) throws -> String {
        var rng = SplitMix64(seed: seed)
        let handle = try FileHandle(forUpdating: file)
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        guard size > 0 else { return "empty file, left as is" }
        switch kind {
        case .truncate:
            let length = rng.below(size)
            try handle.truncate(atOffset: UInt64(length))
            return "truncated from \(size) to \(length) bytes"
        case .overwrite:
            let n = 1 + rng.below(64)
            let offset = rng.below(max(size - n, 1))
            try handle.seek(toOffset: UInt64(offset))
            try handle.write(contentsOf: Data((0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
            return "\(n) bytes overwritten at offset \(offset)"
        case .zeroPage:
            let pages = max(size / 4096, 1)
            let page = rng.below(pages)
            try handle.seek(toOffset: UInt64(page * 4096))
            try handle.write(contentsOf: Data(count: min(4096, size - page * 4096)))
            return "4 KiB block \(page) of \(pages) zeroed"
        case .structural:
            try handle.seek(toOffset: 0)
            var bytes = [UInt8](try handle.readToEnd() ?? Data())
            let fields = dataFile.hasSuffix(".mdb") ? StructuralDamage.lmdbFields(bytes) : StructuralDamage.sqliteFields(bytes)
            guard let done = StructuralDamage.apply(to: &bytes, fields: fields, rng: &rng) else { return "no structure found, left as is" }
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data(bytes))
            return done
        }
    }

    /// A digest of each file of a store directory but the engines' lock files (`lock.mdb`,
    /// SQLite's `-shm`), which readers write by design.
    static func fileDigests(_ directory: URL) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var out: [String: String] = [:]
        for name in names where name != "lock.mdb" && !name.hasSuffix("-shm") {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { continue }
            out[name] = fnv1a(bytes: data)
        }
        return out
    }

    /// The files whose bytes differ between two digests; a missing file counts as empty.
    static func changedFiles(_ before: [String: String], _ after: [String: String]) -> [String] {
        let empty = fnv1a(bytes: Data())
        return Set(before.keys).union(after.keys).sorted().filter { (before[$0] ?? empty) != (after[$0] ?? empty) }
    }
}
