/// A dotted path from an entity to an attribute (`author.username`), through to-one
/// relationships, or through one to-many relationship under `ANY`/`NONE` (`tags.name`), or
/// ending in `@count` over a to-many relationship (`posts.@count`).
///
/// ```swift
/// let p: KeyPathExpression = "author.username"
/// ```
public struct KeyPathExpression: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The names along the path, without `@count`.
    public var components: [String]
    /// Whether the path ends in `@count`.
    public var isCount: Bool

    public init(_ components: [String], count: Bool = false) {
        self.components = components
        self.isCount = count
    }

    /// Parses a dotted path; a trailing `.@count` sets `isCount`.
    public init(_ dotted: String) {
        var parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var count = false
        if parts.last == "@count" { parts.removeLast(); count = true }
        self.init(parts, count: count)
    }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { components.joined(separator: ".") + (isCount ? ".@count" : "") }
}
