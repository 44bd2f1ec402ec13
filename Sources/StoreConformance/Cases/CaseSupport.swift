import Foundation
import StoreCore

/// Helpers shared by the cases. Internal.
enum CaseSupport {
    /// An ASCII string of exactly `count` bytes (up to `Limits.maxValueBytes + 1`) whose content
    /// varies along it (`a`…`z`, and a digit every 1,000 bytes), so a cut, a shift or a repeated
    /// block changes it. Different seeds give different strings of the same size.
    static func text(_ count: Int, seed: UInt8 = 0) -> String {
        let s = bigText.utf8
        let start = s.index(s.startIndex, offsetBy: Int(seed % 64))
        return String(bigText[start..<s.index(start, offsetBy: count)])
    }

    /// `count` bytes (up to `Limits.maxValueBytes + 1`), zeros included, in a position-dependent
    /// pattern; different seeds give different contents.
    static func bytes(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        Array(bigBytes[Int(seed % 64)..<Int(seed % 64) + count])
    }

    /// Built once per process, a period written byte by byte and then doubled (a loop over
    /// 16 MiB is slow in debug builds).
    private static let bigText: String = {
        let period = 130_000   // a multiple of 26 and of 10 × 1,000
        let block = (0..<period).map { (i: Int) -> UInt8 in
            let digit = UInt8((i / 1000) % 10), letter = UInt8(i % 26)
            return i % 1000 == 999 ? 0x30 + digit : 0x61 + letter
        }
        return String(decoding: repeated(block, to: Limits.maxValueBytes + 65), as: UTF8.self)
    }()

    private static let bigBytes: [UInt8] = {
        let block = (0..<65_521).map { (i: Int) -> UInt8 in UInt8(truncatingIfNeeded: i &* 31 &+ i >> 8) }   // a prime period
        return repeated(block, to: Limits.maxValueBytes + 65)
    }()

    private static func repeated(_ block: [UInt8], to count: Int) -> [UInt8] {
        var out = block
        out.reserveCapacity(count + out.count)
        while out.count < count { out.append(contentsOf: out.prefix(count - out.count)) }
        return out
    }

    /// The Unicode scalars of a string value: what "exactly these characters" means. Swift's
    /// `==` on strings (and so on `Value`) treats canonically equivalent strings as equal
    /// (`"é" == "e\u{301}"`); the store keeps and compares scalars.
    static func scalars(_ v: Value) -> [UInt32]? {
        v.stringValue.map { $0.unicodeScalars.map(\.value) }
    }

    static func scalars(_ vs: [Value]) -> [[UInt32]] { vs.map { scalars($0) ?? [] } }

    /// A packed row's values read through its typed accessors (`int64(at:)`, …).
    static func typedValues(_ row: PackedRow) -> [Value] {
        row.entity.attributeTypes.enumerated().map { i, t in
            switch t {
            case .int64: row.int64(at: i).map(Value.int64) ?? .null
            case .double: row.double(at: i).map(Value.double) ?? .null
            case .bool: row.bool(at: i).map(Value.bool) ?? .null
            case .string: row.string(at: i).map(Value.string) ?? .null
            case .date: row.date(at: i).map(Value.date) ?? .null
            case .uuid: row.uuid(at: i).map(Value.uuid) ?? .null
            case .bytes: row.bytes(at: i).map(Value.bytes) ?? .null
            }
        }
    }

    /// A date `offset` seconds after the fixture's epoch.
    static func date(_ offset: Double) -> Value { .date(SocialFixture.epoch.addingTimeInterval(offset)) }

    /// A user with the required attributes and the given extra ones.
    static func user(_ ctx: ConformanceContext, _ id: Int, _ extra: [String: Value] = [:]) throws -> Record {
        var values: [String: Value] = ["id": .int64(Int64(id)), "username": .string("u\(id)"), "displayName": .string("U\(id)"),
                                       "joinedAt": date(Double(id))]
        for (k, v) in extra { values[k] = v }
        return try ctx.record("User", values)
    }

    /// Waits on a semaphore for at most `seconds`; false when it timed out.
    static func wait(_ s: DispatchSemaphore, _ seconds: Double) -> Bool {
        s.wait(timeout: .now() + seconds) == .success
    }
}
