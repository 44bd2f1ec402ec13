import Foundation
import StoreCore

extension FuzzTarget {
    /// Any text parses to a predicate or throws `StoreError`, never a crash. A predicate
    /// written without arguments prints as text that parses back to an equal tree (what its
    /// `description` promises); each `%@` and `%K` takes an argument from a fixed pool. Every
    /// parsed predicate resolves on each fuzz entity or throws `StoreError`, and each resolved
    /// condition is tested on a sample value of its type and on null.
    static func predicate(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let text = String(decoding: data, as: UTF8.self)
        let arguments = predicateArguments(for: text)
        guard let p = try valueOrStoreError("parsing", { try StorePredicate(format: text, arguments: arguments) }) else { return }
        if arguments.isEmpty {
            let again: StorePredicate
            do { again = try StorePredicate(format: p.description) } catch {
                throw FuzzFailure("\(text.debugDescription) parses, but its description \(p.description.debugDescription) does not: \(error)")
            }
            guard again == p else {
                throw FuzzFailure("\(text.debugDescription) parses to \(p), whose description parses to \(again)")
            }
        }
        for e in FuzzSchema.schema.entities {
            if let r = try valueOrStoreError("resolving on \(e.name)", { try FuzzSchema.schema.resolve(p, on: e) }) { testConditions(r) }
        }
    }

    /// Runs every condition's comparison on a sample of its type and on null.
    private static func testConditions(_ p: ResolvedPredicate) {
        switch p {
        case .constant: break
        case .and(let ps), .or(let ps): ps.forEach(testConditions)
        case .not(let p): testConditions(p)
        case .condition(let c):
            for v in [samples[c.path.valueType] ?? .null, .null] { _ = QueryEvaluator.test(v, c.comparison, c.options) }
        }
    }

    private static let samples: [AttributeType: Value] = [
        .int64: 3, .double: 2.5, .bool: true, .string: "Ann Ä*?ß \u{301}x", .date: .date(Date(timeIntervalSince1970: 9)),
        .uuid: .uuid(FuzzSchema.uuid), .bytes: .bytes([0, 255]),
    ]

    /// One argument for each `%K` (a key path) and `%@` (a value or a list) in `text`, in order.
    static func predicateArguments(for text: String) -> [PredicateArgument] {
        var out: [PredicateArgument] = []
        var previous: Character?
        for c in text {
            if previous == "%" && c == "K" { out.append(keyPathPool[out.count % keyPathPool.count]) }
            if previous == "%" && c == "@" { out.append(valuePool[out.count % valuePool.count]) }
            previous = c
        }
        return out
    }

    private static let keyPathPool: [PredicateArgument] = ["age", "posts.@count", "pinned.title", "posts.tags.name", "name"]
    private static let valuePool: [PredicateArgument] = [
        3, "ann", [1, .null], .double(.nan), .uuid(FuzzSchema.uuid),
        ["a", "b"], .date(Date(timeIntervalSince1970: 0)), .bytes([0, 255]), nil, 2.5, true,
    ]
}
