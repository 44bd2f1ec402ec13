import Foundation

/// Reads the JSON that `CollectionCoding` writes (internal): one array or object of scalars of
/// one attribute type. Anything else gives `nil`, never a crash.
struct CollectionJSONReader {
    let bytes: UnsafeRawBufferPointer
    let type: AttributeType
    var at = 0

    init(bytes: UnsafeRawBufferPointer, type: AttributeType) {
        self.bytes = bytes
        self.type = type
    }

    mutating func collection(_ kind: AttributeCollection) -> Value? {
        let v: Value?
        switch kind {
        case .list: v = list()
        case .map: v = map()
        }
        skipSpace()
        return at == bytes.count ? v : nil
    }

    private mutating func list() -> Value? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var out: [Value] = []
        if take(UInt8(ascii: "]")) { return .list(out) }
        repeat {
            guard let v = element() else { return nil }
            out.append(v)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? .list(out) : nil
    }

    private mutating func map() -> Value? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var out: [String: Value] = [:]
        if take(UInt8(ascii: "}")) { return .map(out) }
        repeat {
            skipSpace()
            guard let k = string(), take(UInt8(ascii: ":")), let v = element() else { return nil }
            out[k] = v
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? .map(out) : nil
    }

    private mutating func element() -> Value? {
        skipSpace()
        switch type {
        case .string: return string().map(Value.string)
        case .uuid: return string().flatMap(Self.unhex).flatMap { UUID(bytes: $0) }.map(Value.uuid)
        case .bytes: return string().flatMap(Self.unhex).map(Value.bytes)
        case .bool:
            if word("true") { return .bool(true) }
            return word("false") ? .bool(false) : nil
        case .int64: return number().flatMap { Int64($0) }.map(Value.int64)
        case .double: return number().flatMap { Double($0) }.map(Value.double)
        case .date: return number().flatMap { Double($0) }.map { .date(Date(timeIntervalSince1970: $0)) }
        }
    }

    private mutating func number() -> String? {
        let start = at
        while at < bytes.count, "0123456789+-.eE".utf8.contains(bytes[at]) { at += 1 }
        return at > start ? String(decoding: bytes[start..<at], as: UTF8.self) : nil
    }

    private mutating func word(_ w: String) -> Bool {
        let u = Array(w.utf8)
        guard at + u.count <= bytes.count, bytes[at..<at + u.count].elementsEqual(u) else { return false }
        at += u.count
        return true
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var out: [UInt8] = []
        while at < bytes.count {
            let c = bytes[at]
            at += 1
            if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard at < bytes.count else { return nil }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "u"):
                guard at + 4 <= bytes.count, let n = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16),
                      let s = Unicode.Scalar(n) else { return nil }
                at += 4
                out.append(contentsOf: String(s).utf8)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            default: return nil
            }
        }
        return nil
    }

    private mutating func take(_ c: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == c else { return false }
        at += 1
        return true
    }

    private mutating func skipSpace() {
        while at < bytes.count, [9, 10, 13, 32].contains(bytes[at]) { at += 1 }
    }

    private static func unhex(_ s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 65...70: c - 55
            case 97...102: c - 87
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(u.count / 2)
        for i in stride(from: 0, to: u.count, by: 2) {
            guard let h = nibble(u[i]), let l = nibble(u[i + 1]) else { return nil }
            out.append(h << 4 | l)
        }
        return out
    }
}
