import Foundation

extension StorePredicate: CustomStringConvertible {
    /// The predicate in the string syntax; parsing it gives back an equal tree.
    public var description: String {
        switch self {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .condition(let c): return c.description
        case .and(let ps): return ps.isEmpty ? "TRUEPREDICATE" : "(" + ps.map(\.description).joined(separator: " AND ") + ")"
        case .or(let ps): return ps.isEmpty ? "FALSEPREDICATE" : "(" + ps.map(\.description).joined(separator: " OR ") + ")"
        case .not(let p): return "NOT " + p.description
        }
    }
}

extension Condition: CustomStringConvertible {
    public var description: String {
        let q = quantifier == .any ? "ANY " : (quantifier == .none ? "NONE " : "")
        let path = keyPath.components.map(Self.escape).joined(separator: ".") + (keyPath.isCount ? ".@count" : "")
        let operand: String = switch comparison {
        case .between(let a, let b): "{\(Self.literal(a)), \(Self.literal(b))}"
        case .in(let vs): "{" + vs.map(Self.literal).joined(separator: ", ") + "}"
        default: Self.literal(comparison.operands[0])
        }
        return "\(q)\(path) \(comparison.symbol)\(options.suffix) \(operand)"
    }

    private static func escape(_ name: String) -> String { "#" + name }

    /// A literal in the string syntax. Dates, UUIDs and bytes have no literal form and print
    /// as `%@`-style placeholders; such predicates do not round-trip through text.
    static func literal(_ v: Value) -> String {
        switch v {
        case .null: return "NIL"
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .int64(let i): return String(i)
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : "\(d)"
        case .string(let s):
            var out = "'"
            for c in s.unicodeScalars {
                switch c {
                case "\\": out += "\\\\"
                case "'": out += "\\'"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                case "\0": out += "\\0"
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "'"
        case .date, .uuid, .bytes, .list, .map: return "<\(v)>"
        }
    }
}
