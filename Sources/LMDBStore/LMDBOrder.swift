import StoreCore

/// The order of an ordered to-many in LMDB: beside its dupsort link database (which queries,
/// `@count` and delete rules read as for any to-many), a database `<Entity>.<rel>@order` holds
/// per owner one value with its members' keys in list order, each as a 2-byte big-endian
/// length and the encoded key; a member's position is its place in that value. `related` reads
/// it with one `get` (no cursor walk, no sort); a write rewrites the owner's value. An owner
/// without links has no entry. `verify` checks the value against the link database.
/// Internal helper of LMDBStore.
enum LMDBOrder {
    static func databaseName(_ e: Entity, _ r: Relationship) -> String { "\(LMDBLayout.relationshipName(e, r))@order" }

    /// The member keys of a stored value; nil when the value is damaged.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> [[UInt8]]? {
        var out: [[UInt8]] = [], i = 0
        while i < bytes.count {
            guard i + 2 <= bytes.count else { return nil }
            let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard i + 2 + n <= bytes.count else { return nil }
            out.append(Array(bytes[(i + 2)..<(i + 2 + n)]))
            i += 2 + n
        }
        return out
    }

    static func encode(_ keys: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(keys.reduce(0) { $0 + 2 + $1.count })
        for k in keys {
            out += [UInt8(truncatingIfNeeded: k.count >> 8), UInt8(truncatingIfNeeded: k.count)]
            out += k
        }
        return out
    }
}
