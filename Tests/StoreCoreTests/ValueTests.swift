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
}
