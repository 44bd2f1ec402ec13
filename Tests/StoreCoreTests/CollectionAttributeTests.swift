import Foundation
@testable import StoreCore
import Testing

@Suite("List and map attributes")
struct CollectionAttributeTests {
    static let note = EntityDescription("Note", primaryKey: "id", attributes: [
        Attribute("id", .int64), Attribute("tags", .string, collection: .list),
        Attribute("refs", .uuid, collection: .list), Attribute("prices", .double, collection: .map),
        Attribute("bio", .string, optional: true),
    ])

    @Test("every element type survives its JSON form, and damaged JSON decodes to nil")
    func coding() throws {
        let cases: [(Value, AttributeType, AttributeCollection)] = [
            (.list(["", "a\"b\\c/", "\u{1}\n\t", "日本語 🎉", "e\u{301}"]), .string, .list),
            (.list([.int64(.min), 0, .int64(.max)]), .int64, .list),
            (.list([0.1, 5e-324, -1e300, 1.0]), .double, .list),
            (.list([true, false]), .bool, .list),
            (.list([.date(Date(timeIntervalSince1970: -0.25))]), .date, .list),
            (.list([.uuid(UUID()), .uuid(UUID())]), .uuid, .list),
            (.list([.bytes([]), .bytes([0, 255, 16])]), .bytes, .list),
            (.map(["b": 2.5, "a": -1.0, "": 0.0]), .double, .map),
            (.map([:]), .string, .map),
        ]
        for (v, t, kind) in cases {
            let text = try #require(CollectionCoding.encode(v, of: t))
            #expect(CollectionCoding.decode(text, as: kind, of: t) == v, "\(text)")
        }
        #expect(CollectionCoding.encode(.map(["b": 1, "a": 2]), of: .int64) == #"{"a":2,"b":1}"#)
        for damaged in ["", "[", "[1,]", "[\"a\"", "{\"a\" 1}", "[1] x", "[\"\\u12\"]", "[tru]"] {
            #expect(CollectionCoding.decode(damaged, as: damaged.hasPrefix("{") ? .map : .list, of: .int64) == nil, "\(damaged)")
        }
    }

    @Test("elements are checked and converted; wrong ones are invalidValue naming the attribute")
    func checking() throws {
        let s = try Schema(version: 1, entities: [Self.note])
        let e = s["Note"]!
        let ok = try e.checkedRecord(try e.record(["id": 1, "prices": .map(["a": 2])]))
        #expect(ok["prices"] == .map(["a": 2.0]))
        #expect(ok["tags"] == .list([]), "a collection defaults to an empty one")
        let u = UUID()
        #expect(try e.checkedValue(.list([.string(u.uuidString)]), forOrdinal: 2) == .list([.uuid(u)]))
        for (name, v) in [("tags", Value.list([1])), ("tags", .list([nil])), ("tags", "x"), ("prices", .map(["a": .double(.infinity)])),
                          ("refs", .list(["nope"])), ("prices", .list([1.0]))] {
            #expect(throws: StoreError.self) { _ = try e.checkedRecord(try e.record(["id": 1, name: v])) }
            do { _ = try e.checkedRecord(try e.record(["id": 1, name: v])) } catch let error as StoreError {
                #expect(error.category == .invalidValue && error.message.contains("Note.\(name)"), "\(error)")
            }
        }
    }

    @Test("collections cannot be keys or indexed, and their defaults are checked")
    func validation() {
        func problem(_ attributes: [Attribute], indexes: [IndexDescription] = [], key: String = "id") -> Bool {
            (try? Schema(version: 1, entities: [EntityDescription("E", primaryKey: key, attributes: attributes, indexes: indexes)])) == nil
        }
        #expect(problem([Attribute("id", .int64, collection: .list)]))
        #expect(problem([Attribute("id", .int64), Attribute("t", .string, collection: .list)], indexes: [IndexDescription(["t"])]))
        #expect(problem([Attribute("id", .int64), Attribute("t", .string, default: .list([1]), collection: .list)]))
        #expect(problem([Attribute("id", .int64), Attribute("t", .string, default: .map([:]), collection: .list)]))
        #expect(!problem([Attribute("id", .int64), Attribute("t", .string, default: .list(["a"]), collection: .list)]))
    }

    @Test("the fingerprint records collections, and an older fingerprint still reads")
    func fingerprint() throws {
        let s = try Schema(version: 3, entities: [Self.note])
        #expect(s.fingerprint == "v3|Note:id;id int64;tags string[];refs uuid[];prices double{};bio string?")
        let back = try Schema(fingerprint: s.fingerprint, path: "x")
        #expect(back["Note"]!.attributes.map(\.collection) == [nil, .list, .list, .map, nil])
        let old = try Schema(fingerprint: "v1|User:id;id int64;name string?;idx(name)!", path: "x")
        #expect(old["User"]!.attributes.allSatisfy { $0.collection == nil })
    }

    @Test("key paths into collections resolve; misuse is invalidQuery")
    func resolving() throws {
        let s = try Schema(version: 1, entities: [Self.note])
        let e = s["Note"]!
        for format in ["ANY tags == 'a'", "tags.@count > 1", "prices.small > 1", "prices['with.dot'] == 2", "NONE refs == nil"] {
            _ = try s.resolve(try StorePredicate(format: format), on: e)
        }
        let subscripted = try StorePredicate(format: "prices[%@] == 2", "k")
        guard case .condition(let c) = subscripted else { Issue.record("not a condition"); return }
        #expect(c.keyPath.components == ["prices", "k"])
        for format in ["tags == 'a'", "prices == 1", "ANY prices.a == 1", "tags.a == 'x'", "ANY tags > 1", "bio.@count == 1"] {
            #expect(throws: StoreError.self, "\(format)") { _ = try s.resolve(try StorePredicate(format: format), on: e) }
        }
    }

    @Test("a packed record holds collections and reads them back")
    func packed() throws {
        let s = try Schema(version: 1, entities: [Self.note])
        let e = s["Note"]!
        let r = try e.checkedRecord(try e.record(["id": 7, "tags": .list(["x", "y"]), "prices": .map(["p": 1.5]), "bio": "b"]))
        var bytes: [UInt8] = []
        try PackedLayout.encode(r.values, of: e, schemaVersion: 1, into: &bytes)
        let back = try bytes.withUnsafeBytes { Record(try PackedRow(validating: $0, entity: e, schemaVersion: 1)) }
        #expect(back == r)
        let builder = PackedRowBuilder(e)
        #expect(Record(builder.pack(r)) == r)
    }
}
