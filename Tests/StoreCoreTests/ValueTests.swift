import Foundation
import StoreCore
import Testing

@Suite("Values and records")
struct ValueTests {
    func sorted(_ vs: [Value]) -> [Value] { vs.sorted { Value.compare($0, $1) == .orderedAscending } }

    @Test("one ordering: nulls first, numbers across types, strings by scalar")
    func ordering() {
        #expect(sorted([3, nil, 1.5, -2, 2.0]) == [nil, -2, 1.5, 2.0, 3])
        #expect(sorted(["é", "a", "Z", "e\u{301}", "É"]) == ["Z", "a", "e\u{301}", "É", "é"])
        #expect(Value.compare(.int64(.max), .double(9.2e18)) == .orderedDescending)
        #expect(Value.compare(.int64(.max), .double(9.3e18)) == .orderedAscending)
        #expect(Value.compare(.int64(2), .double(2.0)) == .orderedSame)
        #expect(Value.compare(.bool(false), .bool(true)) == .orderedAscending)
        #expect(Value.compare(.bytes([1, 2]), .bytes([1, 2, 0])) == .orderedAscending)
    }

    @Test("UUID bytes round-trip")
    func uuidBytes() {
        let u = UUID()
        #expect(UUID(bytes: u.bytes) == u)
        #expect(UUID(bytes: [1, 2, 3]) == nil)
    }

    @Test("values are checked and brought to their stored form")
    func checkedValues() throws {
        let s = try Schema(version: 1, entities: [
            EntityDescription("T", primaryKey: "k", attributes: [
                Attribute("k", .string), Attribute("d", .double), Attribute("u", .uuid, optional: true), Attribute("n", .int64),
            ]),
        ])
        let t = s["T"]!
        #expect(try t.checkedValue(3, forOrdinal: 1) == .double(3))
        let u = UUID()
        #expect(try t.checkedValue(.string(u.uuidString.lowercased()), forOrdinal: 2) == .uuid(u))
        let failures: [(Value, Int, StoreError.Category)] = [
            (.double(.nan), 1, .invalidValue), ("x", 1, .invalidValue), ("not-a-uuid", 2, .invalidValue),
            (nil, 3, .constraintViolation), (.string(String(repeating: "k", count: 257)), 0, .invalidValue), (1.5, 3, .invalidValue),
        ]
        for (v, o, c) in failures {
            #expect(throws: StoreError.self) { try t.checkedValue(v, forOrdinal: o) }
            do { _ = try t.checkedValue(v, forOrdinal: o) } catch let e as StoreError { #expect(e.category == c, "\(v)") } catch {}
        }
        #expect(throws: StoreError.self) { try t.checkedChanges(["k": "new"]) }
        #expect(throws: StoreError.self) { try t.record(["zzz": 1]) }
    }
    /// `checkedRecord` skips its per-attribute look for a value whose case alone makes it valid;
    /// every other value goes through `checkedValue`. Whatever the path, a record's values must
    /// come out (or fail) exactly as `checkedValue` takes each one alone.
    @Test("a record is checked as each of its values alone, for every type, collection and value case")
    func checkedRecordAgreesWithCheckedValue() throws {
        // Values over the key and value limits: a fast path that took text or bytes as plain
        // would let them through.
        let samples: [Value] = [nil, 7, .double(2.5), .double(.nan), true, "x", .date(Date(timeIntervalSince1970: 9)),
                                .uuid(UUID()), .string(UUID().uuidString), .bytes([1, 2]), .list([1]), .map(["a": 1]),
                                .string(String(repeating: "k", count: Limits.maxKeyBytes + 1)),
                                .string(String(repeating: "v", count: Limits.maxValueBytes + 1)),
                                .bytes(Array(repeating: 0, count: Limits.maxValueBytes + 1))]
        var attributes = [Attribute("k", .string)]   // a text key: its length limit is checked too
        for t in AttributeType.allCases {
            attributes.append(Attribute("r\(t)", t))
            attributes.append(Attribute("o\(t)", t, optional: true))
            attributes.append(Attribute("l\(t)", t, optional: true, collection: .list))
            attributes.append(Attribute("m\(t)", t, optional: true, collection: .map))
        }
        let e = try Schema(version: 1, entities: [EntityDescription("T", primaryKey: "k", attributes: attributes)])["T"]!
        let valid = try (0..<attributes.count).map { o in
            try samples.first { v in (try? e.checkedValue(v, forOrdinal: o)) != nil }.map { try e.checkedValue($0, forOrdinal: o) }!
        }
        for o in 0..<attributes.count {
            for v in samples {
                var values = valid
                values[o] = v
                let alone = Result { try e.checkedValue(v, forOrdinal: o) }
                let whole = Result { try e.checkedRecord(Record(e, values: values)).values[o] }
                switch (alone, whole) {
                case (.success(let a), .success(let w)): #expect(a == w || (a.doubleValue?.isNaN == true && w.doubleValue?.isNaN == true), "\(attributes[o].name) \(v)")
                case (.failure(let a as StoreError), .failure(let w as StoreError)): #expect(a.category == w.category, "\(attributes[o].name) \(v)")
                default: Issue.record("\(attributes[o].name) \(v): alone \(alone), in a record \(whole)")
                }
            }
        }
    }
}
