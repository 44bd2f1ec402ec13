import Foundation

/// The stored form of list and map attributes: JSON text, which every backend keeps in a
/// `string` slot and SQLite queries with `json_each`.
///
/// A list is a JSON array, a map a JSON object with its keys in Unicode scalar order. Elements
/// are numbers (`int64`; `double` and `date` as seconds since 1970), `true`/`false`, strings,
/// and, for `uuid` and `bytes`, upper-case hex strings (whose order is the bytes' order).
///
/// ```swift
/// let text = CollectionCoding.encode(.list(["a", "b"]), of: .string)   // ["a","b"]
/// let back = CollectionCoding.decode(text, as: .list, of: .string)     // .list(["a", "b"])
/// ```
public enum CollectionCoding {
    /// The JSON text of a checked list or map (elements already of `type`, or of their own
    /// types when `type` is nil); `nil` for another value.
    public static func encode(_ v: Value, of type: AttributeType? = nil) -> String? {
        switch v {
        case .list(let xs): return "[" + xs.map { element($0, type) }.joined(separator: ",") + "]"
        case .map(let m):
            let keys = m.keys.sorted { Value.compareScalars($0, $1) == .orderedAscending }
            return "{" + keys.map { quoted($0) + ":" + element(m[$0]!, type) }.joined(separator: ",") + "}"
        default: return nil
        }
    }

    /// One element as JSON.
    public static func element(_ v: Value, _ type: AttributeType?) -> String {
        switch v {
        case .int64(let n): type == .double ? String(Double(n)) : String(n)
        case .double(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .string(let s): quoted(s)
        case .date(let d): String(d.timeIntervalSince1970)
        case .uuid(let u): quoted(hex(u.bytes))
        case .bytes(let b): quoted(hex(b))
        default: "null"
        }
    }

    /// A value as it appears in a collection's JSON, for comparing with SQLite's
    /// `json_each.value`: `uuid` and `bytes` as their hex strings, others unchanged.
    public static func jsonScalar(_ v: Value) -> Value {
        switch v {
        case .uuid(let u): .string(hex(u.bytes))
        case .bytes(let b): .string(hex(b))
        default: v
        }
    }

    /// Decodes stored JSON text into a `.list` or `.map` of `type` values; `nil` when the
    /// text is not such a collection (damaged storage).
    public static func decode(_ text: String, as kind: AttributeCollection, of type: AttributeType) -> Value? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0), as: kind, of: type) }
    }

    /// Decodes stored JSON bytes (see `decode(_:as:of:)`).
    public static func decode(_ bytes: UnsafeRawBufferPointer, as kind: AttributeCollection, of type: AttributeType) -> Value? {
        var reader = CollectionJSONReader(bytes: bytes, type: type)
        return reader.collection(kind)
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += String(format: "\\u%04X", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    static func hex(_ b: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count * 2)
        for x in b { out.append(digits[Int(x >> 4)]); out.append(digits[Int(x & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
