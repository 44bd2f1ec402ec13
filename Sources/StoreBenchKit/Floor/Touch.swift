import Foundation
import StoreCore

/// Reads every field of what a workload fetched and folds it into an integer the runner keeps,
/// so lazy loading cannot pass for speed and no read is optimized away.
///
/// The fold is the one checksum of the runner: a row's fields are folded in attribute order
/// (`h = h * 31 + field`), so a skipped, swapped or misread column changes the row's value;
/// rows are then added, so the scan order does not matter. Backends (`row`) and floors
/// (`PostOutput.touch`, the floors' row loops) fold the same field values the same way, and
/// equal sinks mean equal data was read. Inlinable: the floors, workloads and reference programs
/// that fold per field live in other modules, and must not pay a call per field for it.
public enum Touch {
    /// One field folded into a row's value.
    @inlinable @inline(__always) public static func fold(_ h: Int, _ field: Int) -> Int { h &* 31 &+ field }

    /// What a null field contributes (neither 0 nor 1, so it differs from `false` and `0`).
    @inlinable public static var null: Int { 0x6E75_6C6C }

    @inlinable @inline(__always) public static func int(_ x: Int64) -> Int { Int(truncatingIfNeeded: x) }
    /// A double by its bits: exact, and no trap on infinities or NaN.
    @inlinable @inline(__always) public static func double(_ x: Double) -> Int { Int(truncatingIfNeeded: x.bitPattern) }
    @inlinable @inline(__always) public static func bool(_ x: Bool) -> Int { x ? 1 : 0 }
    /// Text by its length in UTF-8 bytes: the text has been decoded to a `String` to get it.
    @inlinable @inline(__always) public static func string(_ s: String) -> Int { s.utf8.count }
    @inlinable @inline(__always) public static func date(_ d: Date) -> Int { double(d.timeIntervalSince1970) }
    /// A UUID by its first eight bytes.
    @inlinable @inline(__always) public static func uuid(_ u: UUID) -> Int {
        withUnsafeBytes(of: u.uuid) { Int(truncatingIfNeeded: $0.loadUnaligned(as: Int64.self)) }
    }

    /// Every field of a row, folded in attribute order.
    @inlinable public static func row(_ r: some RowView) -> Int {
        var h = 0
        for i in 0..<r.entity.attributes.count { h = fold(h, value(r[i])) }
        return h
    }

    /// Every field of an owned record, read in place (no copy of each value).
    @inlinable public static func row(_ r: Record) -> Int {
        assert(r.values.count == r.entity.attributes.count, "a \(r.entity.name) record with \(r.values.count) values")
        return r.values.withUnsafeBufferPointer { vs in vs.reduce(0) { fold($0, value($1)) } }
    }

    @inlinable public static func records(_ rs: [Record]) -> Int { rs.reduce(0) { $0 &+ row($1) } }

    /// One value's contribution. Not recursive itself (a list's elements are folded by
    /// `list`), so it inlines into a row's loop.
    @inlinable @inline(__always) public static func value(_ v: Value) -> Int {
        switch v {
        case .null: null
        case .int64(let x): int(x)
        case .double(let x): double(x)
        case .bool(let x): bool(x)
        case .string(let s): string(s)
        case .date(let d): date(d)
        case .uuid(let u): uuid(u)
        case .bytes(let b): b.count
        case .list(let xs): list(xs)
        case .map(let m): m.count
        }
    }

    /// A list's elements folded in order.
    @usableFromInline static func list(_ xs: [Value]) -> Int { xs.reduce(0) { fold($0, value($1)) } }

    /// The row value of a 10-integer row whose `int64(at:)` gives column `i` (0 is the id).
    @inlinable @inline(__always) public static func intRow(_ column: (Int) -> Int64?) -> Int {
        var h = 0
        for i in 0..<11 { h = fold(h, column(i).map(int) ?? null) }
        return h
    }
}
