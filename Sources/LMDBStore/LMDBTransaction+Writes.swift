import CLMDB
import StoreCore

/// Writes. Each operation checks everything that can refuse it (keys, unique indexes, deny
/// rules) before it changes anything, so a refused operation leaves the transaction as it
/// was; operations over many records run in a child transaction (all or nothing).
extension LMDBTransaction {
    func insert(_ record: Record) throws {
        let e = try entity(record.entity, forWrite: true)
        try e.withCheckedRecord(record) { r in
            try noteMapFull { try insertChecked(e, r) }
            if e.isEmbedded { embedded.note(e, r.id) }
        }
    }

    func upsert(_ record: Record) throws {
        let e = try entity(record.entity, forWrite: true)
        let r = try e.checkedRecord(record)
        try noteMapFull {
            let key = primaryKey(r.id)
            if let old = try recordBytes(e, key) {
                try replace(e, key, old: try decode(e, old), new: r)
            } else {
                try insertChecked(e, r)
            }
        }
        if e.isEmbedded { embedded.note(e, r.id) }
    }

    func insert(contentsOf records: [Record]) throws {
        guard let first = records.first else { return }
        _ = try entity(first.entity, forWrite: true)
        let checked = try schema.checkedRecords(records)
        try atomically {
            for r in checked { try insertChecked(r.entity, r) }
        }
        for r in checked where r.entity.isEmbedded { embedded.note(r.entity, r.id) }
    }

    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        let e = try self.entity(entity, forWrite: true)
        let key = primaryKey(try e.checkedKey(id))
        let set = try e.checkedChanges(changes)
        try noteMapFull {
            guard let b = try recordBytes(e, key) else { throw StoreError(.notFound, "\(e.name) \(id) does not exist") }
            if set.isEmpty { return }
            let old = try decode(e, b)
            try replace(e, key, old: old, new: applying(set, to: old))
        }
    }

    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        let e = try self.entity(entity, forWrite: true)
        let set = try e.checkedChanges(changes)
        let keys = try matchingKeys(e, predicate)
        if set.isEmpty || keys.isEmpty { return keys.count }
        try atomically {
            for key in keys {
                guard let b = try recordBytes(e, key) else { continue }
                let old = try decode(e, b)
                try replace(e, key, old: old, new: applying(set, to: old))
            }
        }
        return keys.count
    }

    func delete(_ entity: String, id: Value) throws {
        let e = try self.entity(entity, forWrite: true)
        let key = primaryKey(try e.checkedKey(id))
        guard try recordBytes(e, key) != nil else { throw StoreError(.notFound, "\(e.name) \(id) does not exist") }
        try writeLinks(touchingOrders: layout.hasOrders) { try deleteApplyingRules([(e, key)]) }
    }

    /// Runs a write of links: as one nested transaction when it rewrites ordered lists, whose
    /// stored values are read (and may fail to decode) between its writes, so that a failure
    /// leaves nothing half done; as it is otherwise (each step is a single put or delete).
    private func writeLinks(touchingOrders: Bool, _ body: () throws -> Void) throws {
        touchingOrders ? try atomically(body) : try noteMapFull(body)
    }

    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        let e = try self.entity(entity, forWrite: true)
        let keys = try matchingKeys(e, predicate)
        if keys.isEmpty { return 0 }
        try atomically { try deleteApplyingRules(keys.map { (e, $0) }) }
        return keys.count
    }

    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        try link(entity, id, relationship, target, at: nil)
    }

    /// `link`, putting the target at `index` of an ordered list (`nil`: at its end).
    func link(_ entity: String, _ id: Value, _ relationship: String, _ target: Value, at index: Int?) throws {
        let (e, r, position) = try resolveRelationship(entity, relationship)
        if let index { try r.requireOrdered(in: e.name, for: "link(at: \(index))") }
        let (d, inverse) = schema.inverse(of: r)
        let id = try e.checkedKey(id), target = try d.checkedKey(target)
        let key = primaryKey(id), targetKey = primaryKey(target)
        guard try recordBytes(e, key) != nil else { throw StoreError(.notFound, "\(e.name) \(id) does not exist") }
        guard try recordBytes(d, targetKey) != nil else { throw StoreError(.notFound, "\(d.name) \(target) does not exist") }
        let forward = layout.relationships[e.index][position], backward = layout.inverses[e.index][position]
        let order = orderDatabases(e, position)
        if let index, let dbi = order.forward {
            try OrderedLinks.checkInsertion(e.name, r.name, index: index, count: try orderedKeys(dbi, key).count)
        }
        try embedded.checkLink(in: self, e, id, r, target)
        try writeLinks(touchingOrders: order.forward != nil || order.backward != nil) {
            if r.cardinality == .toOne {       // the source's previous target goes
                for old in try linkedKeys(forward, key) where old != targetKey {
                    try txn.delete(forward, key, old)
                    try txn.delete(backward, old, key)
                    try removeFromOrder(order.backward, owner: old, member: key)
                }
            }
            if inverse.cardinality == .toOne { // the target's previous partner goes
                for old in try linkedKeys(backward, targetKey) where old != key {
                    try txn.delete(backward, targetKey, old)
                    try txn.delete(forward, old, targetKey)
                    try removeFromOrder(order.forward, owner: old, member: targetKey)
                }
            }
            guard try txn.put(forward, key, targetKey, flags: MDB_NODUPDATA) else { return }
            try txn.put(backward, targetKey, key, flags: MDB_NODUPDATA)
            try addToOrder(order.forward, owner: key, member: targetKey, at: index)
            try addToOrder(order.backward, owner: targetKey, member: key, at: nil)
        }
    }

    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        let (e, r, position) = try resolveRelationship(entity, relationship)
        let d = schema[r.destination]!
        let id = try e.checkedKey(id), target = try d.checkedKey(target)
        let key = primaryKey(id), targetKey = primaryKey(target)
        guard try recordBytes(e, key) != nil else { throw StoreError(.notFound, "\(e.name) \(id) does not exist") }
        embedded.noteUnlink(schema: schema, e, id, r, target)
        let order = orderDatabases(e, position)
        try writeLinks(touchingOrders: order.forward != nil || order.backward != nil) {
            try txn.delete(layout.relationships[e.index][position], key, targetKey)
            try txn.delete(layout.inverses[e.index][position], targetKey, key)
            try removeFromOrder(order.forward, owner: key, member: targetKey)
            try removeFromOrder(order.backward, owner: targetKey, member: key)
        }
    }

    // MARK: Internal helpers

    func resolveRelationship(_ entity: String, _ name: String) throws -> (Entity, Relationship, Int) {
        let e = try self.entity(entity, forWrite: true)
        let r = try e.requireRelationship(name)
        return (e, r, e.relationships.firstIndex { $0.name == name }!)
    }

    private func applying(_ set: [(ordinal: Int, value: Value)], to old: Record) -> Record {
        var new = old
        for (o, v) in set { new.values[o] = v }
        return new
    }

    /// Inserts a checked record. Each unique index entry is put first with `MDB_NOOVERWRITE`,
    /// so the put itself proves the value is free (no cursor seek); then the record (refused
    /// when its key exists), then the other entries. A refusal takes back the entries this
    /// insert put, so the transaction is as it was. Entries with a null, which never conflict,
    /// and keys cut at the key limit, which only the records can decide, are checked with a
    /// cursor as before. The keys are encoded into the transaction's reused buffer (an indexed
    /// record's primary and index keys one after the other; an int64 key alone on the stack),
    /// the record straight into the space LMDB reserves for it. A record whose key exists is
    /// reported as such even when its unique values are taken too.
    private func insertChecked(_ e: Entity, _ r: Record) throws {
        let indexes = layout.indexes[e.index]
        guard !indexes.isEmpty else { return try KeyEncoding.withKey(r.id, scratch: &keyScratch) { try putNewRecord(e, r, $0) } }
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: indexes.count + 1) { ends in
            keyScratch.removeAll(keepingCapacity: true)
            KeyEncoding.append(r.id, to: &keyScratch)
            ends[0] = keyScratch.count
            for i in indexes.indices {
                LMDBLayout.appendIndexKey(indexes[i], { r.values[$0] }, to: &keyScratch)
                ends[i &+ 1] = keyScratch.count
            }
            let encoded = keyScratch   // a nested use of the scratch copies it; these bytes stay
            try encoded.withUnsafeBytes { try putIndexed(e, r, indexes, RecordKeys(bytes: $0, ends: UnsafeBufferPointer(ends))) }
        }
    }

    /// Puts a new record and its index entries. Unique entries go first, each refused when
    /// taken; a refusal, or a refused record, takes back the entries already put.
    private func putIndexed(_ e: Entity, _ r: Record, _ indexes: [LMDBLayout.Index], _ keys: RecordKeys) throws {
        try withUnsafeTemporaryAllocation(of: Bool.self, capacity: indexes.count) { proven in
            proven.initialize(repeating: false)
            do {
                for i in indexes.indices where indexes[i].description.isUnique {
                    proven[i] = try putUniqueEntry(e, indexes[i], keys.index(i), r, keys.primary)
                }
                try putNewRecord(e, r, keys.primary)
            } catch {
                for i in indexes.indices where proven[i] { _ = try? txn.delete(indexes[i].dbi, borrowed: keys.index(i), keys.primary) }
                throw error
            }
            for i in indexes.indices where !proven[i] { try txn.put(indexes[i].dbi, borrowed: keys.index(i), keys.primary) }
        }
    }

    /// Puts a new record, refused when its key exists.
    @inline(__always)
    private func putNewRecord(_ e: Entity, _ r: Record, _ key: UnsafeRawBufferPointer) throws {
        guard try putRecord(e, key, r.values, flags: MDB_NOOVERWRITE) else { throw keyConflict(e, r.id, Array(key)) }
    }

    /// Puts a unique index's entry for a new record, refused when its values are taken;
    /// returns whether the put proved it (false for entries left to the plain puts: a null
    /// part, which never conflicts, or a key cut at the limit, checked with a cursor here).
    private func putUniqueEntry(_ e: Entity, _ index: LMDBLayout.Index, _ indexKey: UnsafeRawBufferPointer, _ r: Record,
                                _ key: UnsafeRawBufferPointer) throws -> Bool {
        if index.ordinals.contains(where: { r.values[$0].isNull }) { return false }
        if indexKey.count >= LMDBLayout.indexKeyLimit {
            try checkUnique(e, index, Array(indexKey), r.values, excluding: nil)
            return false
        }
        guard try txn.put(index.dbi, borrowed: indexKey, key, flags: MDB_NOOVERWRITE) else {
            if try recordBytes(e, Array(key)) != nil { throw keyConflict(e, r.id, Array(key)) }
            throw uniqueConflict(e, index, r.values)
        }
        return true
    }

    /// Stores a record's values at `key` in the current format, encoded straight into the
    /// space LMDB reserves for it. False when `flags` hold `MDB_NOOVERWRITE` and the key exists.
    @inline(__always)
    private func putRecord(_ e: Entity, _ key: UnsafeRawBufferPointer, _ values: [Value], flags: Int32 = 0) throws -> Bool {
        // Two calls, not `let v = hasCollections ? encoded : values`: that copy retains the array.
        if e.hasCollections { return try putPacked(e, key, e.encodedCollections(values), flags) }
        return try putPacked(e, key, values, flags)
    }

    @inline(__always)
    private func putPacked(_ e: Entity, _ key: UnsafeRawBufferPointer, _ values: [Value], _ flags: Int32) throws -> Bool {
        let size = try PackedLayout.checkedSize(values, of: e)
        guard let space = try txn.reserve(layout.primary[e.index], key, size: size, flags: flags) else { return false }
        PackedLayout.write(values, of: e, schemaVersion: recordVersion(e), into: space)
        return true
    }

    /// Adds the index entries of a record stored at `key` to `indexes` (default: all of the
    /// entity's; a migration building indexes), unique ones checked against the entries added before.
    func addIndexEntries(_ e: Entity, _ r: Record, key: [UInt8], to indexes: [LMDBLayout.Index]? = nil) throws {
        for index in indexes ?? layout.indexes[e.index] {
            let indexKey = LMDBLayout.indexKey(index, r.values)
            if index.description.isUnique { try checkUnique(e, index, indexKey, r.values, excluding: key) }
            try txn.put(index.dbi, indexKey, key)
        }
    }

    /// Replaces a record's attributes, moving the index entries whose values changed.
    private func replace(_ e: Entity, _ key: [UInt8], old: Record, new: Record) throws {
        var moves: [(dbi: MDB_dbi, from: [UInt8], to: [UInt8])] = []
        for index in layout.indexes[e.index] where index.ordinals.contains(where: { !old.values[$0].isIdentical(to: new.values[$0]) }) {
            let to = LMDBLayout.indexKey(index, new.values)
            if index.description.isUnique { try checkUnique(e, index, to, new.values, excluding: key) }
            let from = LMDBLayout.indexKey(index, old.values)
            if from != to { moves.append((index.dbi, from, to)) }
        }
        try key.withUnsafeBytes { _ = try putRecord(e, $0, new.values) }
        for m in moves {
            try txn.delete(m.dbi, m.from, key)
            try txn.put(m.dbi, m.to, key)
        }
    }

    /// Throws `conflict` when another record holds these values in a unique index. Nulls never
    /// conflict (as in SQL). Keys cut at the limit are compared on the records' values.
    private func checkUnique(_ e: Entity, _ index: LMDBLayout.Index, _ indexKey: [UInt8], _ values: [Value],
                             excluding own: [UInt8]?) throws {
        if index.ordinals.contains(where: { values[$0].isNull }) { return }
        let c = try LMDBCursor(txn, index.dbi)
        guard try c.seek(indexKey, exact: true) else { return }
        let cut = indexKey.count >= LMDBLayout.indexKeyLimit
        repeat {
            let other = c.valueBytes
            if let own, other.elementsEqual(own) { continue }
            if cut {
                guard let b = try txn.get(layout.primary[e.index], borrowed: other) else { continue }
                let o = try decode(e, b)
                guard index.ordinals.allSatisfy({ o.values[$0].isIdentical(to: values[$0]) }) else { continue }
            }
            throw uniqueConflict(e, index, values)
        } while try c.move(MDB_NEXT_DUP)
    }

    private func keyConflict(_ e: Entity, _ id: Value, _ key: [UInt8]) -> StoreError {
        StoreError(.conflict, "\(e.name) \(id) already exists", nativeCode: MDB_KEYEXIST, context: KeyEncoding.describe(key))
    }

    private func uniqueConflict(_ e: Entity, _ index: LMDBLayout.Index, _ values: [Value]) -> StoreError {
        let shown = index.ordinals.map { "\(values[$0])" }.joined(separator: ", ")
        return StoreError(.conflict, "\(e.name) (\(index.description.attributes.joined(separator: ", "))) = (\(shown)) already exists (unique index)",
                          nativeCode: MDB_KEYEXIST, context: index.name)
    }

    /// Deletes records and everything their cascade rules reach. Every `deny` rule is checked
    /// before anything changes.
    private func deleteApplyingRules(_ roots: [(Entity, [UInt8])]) throws {
        struct Key: Hashable { let entity: Int; let key: [UInt8] }
        var seen = Set<Key>()
        var order: [(Entity, [UInt8])] = []
        var queue = roots
        while let (e, key) = queue.popLast() {
            guard seen.insert(Key(entity: e.index, key: key)).inserted else { continue }
            order.append((e, key))
            for (i, r) in e.relationships.enumerated() where r.deleteRule != .nullify {
                let targets = try linkedKeys(layout.relationships[e.index][i], key)
                if targets.isEmpty { continue }
                if r.deleteRule == .deny {
                    let id = key.withUnsafeBytes { KeyEncoding.decodeKey($0, type: e.primaryKey.type) } ?? .null
                    throw StoreError(.constraintViolation,
                                     "cannot delete \(e.name) \(id): its relationship '\(r.name)' has the deny rule and \(targets.count) related \(r.destination) record(s)")
                }
                let d = schema[r.destination]!
                queue += targets.map { (d, $0) }
            }
        }
        for (e, key) in order {
            for i in e.relationships.indices {
                let forward = layout.relationships[e.index][i], backward = layout.inverses[e.index][i]
                let order = orderDatabases(e, i)
                for t in try linkedKeys(forward, key) {
                    try txn.delete(backward, t, key)
                    try removeFromOrder(order.backward, owner: t, member: key)   // its place in their lists closes
                }
                try txn.delete(forward, key)
                if let own = order.forward { try txn.delete(own, key) }
            }
            guard let b = try recordBytes(e, key) else { continue }
            let old = try decode(e, b)
            for index in layout.indexes[e.index] { try txn.delete(index.dbi, LMDBLayout.indexKey(index, old.values), key) }
            try txn.delete(layout.primary[e.index], key)
        }
    }
}
