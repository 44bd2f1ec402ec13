import Foundation
import StoreConformance

/// Structural damage for `DamageTrial`: one field the engine's structure relies on (a page
/// header's flags or bounds, a node's size or child page, a cell pointer, a meta or header
/// field) given another value, in a file whose structure was sound. Fields are found by
/// parsing the file as the engine lays it out (`lmdbFields`, `sqliteFields`), following only
/// the pages in use, so the damage lands where a reader goes.
enum StructuralDamage {
    /// A field of the file: where it is and what it is.
    struct Field {
        /// The kind of field; a trial picks a group first, then a field of it, so rare kinds
        /// (meta pages, database records) are damaged as often as common ones (nodes).
        var group: String
        var name: String
        var offset: Int
        var size: Int
        var bigEndian = false
    }

    /// Changes one field of `bytes` (the fields `fields` found), chosen by `rng`; returns
    /// what was changed, or nil when the file has no such field.
    static func apply(to bytes: inout [UInt8], fields: [Field], rng: inout SplitMix64) -> String? {
        let groups = Dictionary(grouping: fields.filter { $0.offset >= 0 && $0.offset + $0.size <= bytes.count }, by: \.group)
        guard !groups.isEmpty else { return nil }
        let group = groups[rng.pick(groups.keys.sorted())]!
        let field = rng.pick(group)
        let old = read(bytes, field)
        let new = mutate(old, bits: field.size * 8, &rng)
        write(&bytes, field, new)
        return "\(field.group): \(field.name) \(old) → \(new)"
    }

    /// Another value: one bit flipped, a small step up or down, or random bits.
    private static func mutate(_ old: UInt64, bits: Int, _ rng: inout SplitMix64) -> UInt64 {
        let mask: UInt64 = bits >= 64 ? .max : (1 << UInt64(bits)) - 1
        var new: UInt64
        switch rng.below(3) {
        case 0: new = old ^ (1 << UInt64(rng.below(bits)))
        case 1: new = rng.chance(0.5) ? old &+ UInt64(1 + rng.below(8)) : old &- UInt64(1 + rng.below(8))
        default: new = rng.next()
        }
        new &= mask
        return new == old ? old ^ 1 : new
    }

    static func read(_ b: [UInt8], _ f: Field) -> UInt64 {
        (0..<f.size).reduce(0) { v, i in v | UInt64(b[f.offset + (f.bigEndian ? f.size - 1 - i : i)]) << UInt64(8 * i) }
    }

    private static func write(_ b: inout [UInt8], _ f: Field, _ v: UInt64) {
        for i in 0..<f.size { b[f.offset + (f.bigEndian ? f.size - 1 - i : i)] = UInt8(truncatingIfNeeded: v >> UInt64(8 * i)) }
    }
}

extension Array where Element == UInt8 {
    /// The little-endian (or big-endian) unsigned integer of `size` bytes at `offset`; 0 past the end.
    func uint(_ offset: Int, _ size: Int, bigEndian: Bool = false) -> Int {
        guard offset >= 0, offset + size <= count else { return 0 }
        return Int(truncatingIfNeeded: StructuralDamage.read(self, .init(group: "", name: "", offset: offset, size: size, bigEndian: bigEndian)))
    }
}
