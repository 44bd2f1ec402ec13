import CLMDB
import StoreBenchKit
import StoreCore

/// The floor's records read into a `QueryRowSink`, every field in attribute order, text and
/// bytes straight from the map.
extension LMDBFloor {
    /// The post under `key` (8 bytes).
    @inline(__always)
    func emitPost<S: QueryRowSink>(_ txn: OpaquePointer, _ key: MDB_val, _ sink: inout S) throws {
        var k = key, v = MDB_val()
        try check(mdb_get(txn, post, &k, &v), "mdb_get post \(Self.id(key))")
        var d = Decoder(Self.bytes(v))
        let score = d.int(), created = d.double(), published = d.byte() != 0
        let rating = d.present() ? d.double() : nil
        sink.beginRecord(BenchSchema.post)
        sink.int(Self.id(key))
        sink.text(d.raw())
        sink.text(d.raw())
        sink.int(score)
        sink.date(created)
        if let rating { sink.double(rating) } else { sink.null() }
        sink.bool(published)
        sink.endRecord()
    }

    /// The user under `key`.
    func emitUser<S: QueryRowSink>(_ txn: OpaquePointer, _ key: MDB_val, _ sink: inout S) throws {
        var k = key, v = MDB_val()
        try check(mdb_get(txn, user, &k, &v), "mdb_get user \(Self.id(key))")
        emitUser(key, v, &sink)
    }

    /// The user record `value` of `key`.
    @inline(__always)
    func emitUser<S: QueryRowSink>(_ key: MDB_val, _ value: MDB_val, _ sink: inout S) {
        var d = Decoder(Self.bytes(value))
        sink.beginRecord(BenchSchema.user)
        sink.int(Self.id(key))
        sink.text(d.raw())
        sink.text(d.raw())
        if d.present() { sink.text(d.raw()) } else { sink.null() }
        if d.present() { sink.int(d.int()) } else { sink.null() }
        sink.double(d.double())
        sink.bool(d.byte() != 0)
        sink.date(d.double())
        if d.present() { sink.bytes(d.raw()) } else { sink.null() }
        if d.present() { sink.uuid(d.raw()) } else { sink.null() }
        sink.endRecord()
    }

    /// The comment under `key`.
    @inline(__always)
    func emitComment<S: QueryRowSink>(_ txn: OpaquePointer, _ key: MDB_val, _ sink: inout S) throws {
        var k = key, v = MDB_val()
        try check(mdb_get(txn, comment, &k, &v), "mdb_get comment \(Self.id(key))")
        var d = Decoder(Self.bytes(v))
        let created = d.double()
        sink.beginRecord(BenchSchema.comment)
        sink.int(Self.id(key))
        sink.text(d.raw())
        sink.date(created)
        sink.endRecord()
    }
}
